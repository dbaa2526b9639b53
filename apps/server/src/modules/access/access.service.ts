import { ROLE_ADMIN, ROLE_ADMINISTRATOR, type TreeNode } from "@meterline/contracts";
import { badRequest, forbidden, notFound } from "../../contract/errors.ts";
import { type CurrentUser, isAdministrator } from "../auth/current-user.ts";
import { forest } from "../menu/menu-tree.ts";
import type { AccessRepository, NodeRow } from "./access.repository.ts";

export interface GrantInput {
  roleIds: string[];
  menuIds: string[];
  dataScopeIds: string[];
  apiScopeIds: string[];
}

const toNodes = (rows: NodeRow[]): TreeNode[] =>
  forest(
    rows.map(
      (r) => ({ id: r.id, parentId: r.parent_id, title: r.title, key: r.id, value: r.id }) as TreeNode,
    ),
  );

/** Grant trees and grants of menus, data scopes and API scopes (contract §7.4, §8.3). */
export class AccessService {
  constructor(private readonly repo: AccessRepository) {}

  /** Menus the caller may hand out: every menu for the platform administrator, else its own plus ancestors. */
  async grantableMenus(user: CurrentUser): Promise<NodeRow[]> {
    const menus = await this.repo.menus();
    if (isAdministrator(user)) return menus;
    const byId = new Map(menus.map((m) => [m.id, m]));
    const mine = new Set<string>();
    for (const id of await this.repo.grantedMenuIds(user.roleIds)) {
      for (let m = byId.get(id); m && !mine.has(m.id); m = byId.get(m.parent_id)) mine.add(m.id);
    }
    return menus.filter((m) => mine.has(m.id));
  }

  async grantTree(user: CurrentUser) {
    const menus = await this.grantableMenus(user);
    const menuIds = new Set(menus.map((m) => m.id));
    const scopeTree = async (category: 1 | 2) => {
      const scopes = (await this.repo.scopes(category)).filter((s) => menuIds.has(s.parent_id));
      const owners = new Set(scopes.map((s) => s.parent_id));
      return toNodes([
        ...menus.filter((m) => owners.has(m.id)).map((m) => ({ ...m, parent_id: "0" })),
        ...scopes,
      ]);
    };
    return { menu: toNodes(menus), dataScope: await scopeTree(1), apiScope: await scopeTree(2) };
  }

  async grantTopTree(user: CurrentUser) {
    return { menu: toNodes((await this.grantableMenus(user)).filter((m) => m.category === 1)) };
  }

  /** Roles the caller may see: its own tenant's (all tenants' for the platform administrator). */
  private async visibleRoles(user: CurrentUser, roleIds: string[]) {
    const roles = await this.repo.roles(roleIds);
    const visible = roles.filter((r) => isAdministrator(user) || r.tenant_id === user.tenantId);
    if (visible.length !== new Set(roleIds).size) throw notFound("角色不存在或无权访问");
    return visible;
  }

  async roleTreeKeys(user: CurrentUser, roleIds: string[]) {
    await this.visibleRoles(user, roleIds);
    return {
      menu: [...(await this.repo.grantedMenuIds(roleIds))],
      dataScope: await this.repo.scopeIdsOfRoles(roleIds, 1),
      apiScope: await this.repo.scopeIdsOfRoles(roleIds, 2),
    };
  }

  async grant(user: CurrentUser, input: GrantInput): Promise<void> {
    const roles = await this.visibleRoles(user, input.roleIds);
    if (!isAdministrator(user) && roles.some((r) => r.role_alias === ROLE_ADMINISTRATOR)) {
      throw forbidden("无权配置超管角色!");
    }
    if (
      !isAdministrator(user) &&
      !user.roleAliases.includes(ROLE_ADMIN) &&
      roles.some((r) => r.role_alias === ROLE_ADMIN)
    ) {
      throw forbidden("无权配置管理员角色!");
    }
    const grantable = new Set((await this.grantableMenus(user)).map((m) => m.id));
    const refused = input.menuIds.filter((id) => !grantable.has(id));
    if (refused.length > 0) throw badRequest(`menuIds: 无权授予菜单 [${refused.join(",")}]`);
    await this.repo.replaceRoleMenus(input.roleIds, input.menuIds);
    const below = await this.repo.descendantRoles(input.roleIds);
    if (below.length > 0) await this.repo.trimRoleMenus(below, input.menuIds);
    await this.repo.replaceRoleScopes(input.roleIds, 1, input.dataScopeIds);
    await this.repo.replaceRoleScopes(input.roleIds, 2, input.apiScopeIds);
  }

  async topTreeKeys(user: CurrentUser, topMenuIds: string[]) {
    const own = await this.repo.topMenuIdsOfTenant(topMenuIds, user.tenantId);
    return { menu: own.length ? await this.repo.topMenuMenuIds(own) : [] };
  }

  async grantTopMenus(user: CurrentUser, topMenuIds: string[], menuIds: string[]): Promise<void> {
    const own = await this.repo.topMenuIdsOfTenant(topMenuIds, user.tenantId);
    if (own.length !== new Set(topMenuIds).size) throw notFound("顶部菜单不存在或无权访问");
    const grantable = new Set((await this.grantableMenus(user)).map((m) => m.id));
    const refused = menuIds.filter((id) => !grantable.has(id));
    if (refused.length > 0) throw badRequest(`menuIds: 无权授予菜单 [${refused.join(",")}]`);
    await this.repo.replaceTopMenuMenus(own, menuIds);
  }
}

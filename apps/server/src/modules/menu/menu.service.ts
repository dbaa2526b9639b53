import type { ButtonNode, MenuRoute, TopMenu } from "@meterline/contracts";
import { type CurrentUser, isAdministrator } from "../auth/current-user.ts";
import type { MenuRepository, MenuRow } from "./menu.repository.ts";
import { forest, toButton, toRoute, withAncestors } from "./menu-tree.ts";

const MENU = 1;
const BUTTON = 2;

/** The caller's sidebar, buttons and top menus, built per role as contract §7 describes. */
export class MenuService {
  constructor(private readonly repo: MenuRepository) {}

  private async granted(user: CurrentUser, rows: readonly MenuRow[]): Promise<ReadonlySet<string>> {
    return isAdministrator(user) ? new Set(rows.map((r) => r.id)) : this.repo.menuIdsOfRoles(user.roleIds);
  }

  async routes(user: CurrentUser, topMenuId?: string): Promise<MenuRoute[]> {
    const rows = await this.repo.allMenus();
    const byId = new Map(rows.map((r) => [r.id, r]));
    let visible = withAncestors(await this.granted(user, rows), byId);
    if (topMenuId) {
      const linked = await this.repo.menuIdsOfTopMenu(topMenuId, user.tenantId);
      visible = withAncestors(
        [...visible].filter((id) => linked.has(id)),
        byId,
      );
    }
    return forest(rows.filter((r) => r.category === MENU && visible.has(r.id)).map(toRoute));
  }

  /** Granted buttons under their direct parents; the console turns leaf codes into permission flags. */
  async buttons(user: CurrentUser): Promise<ButtonNode[]> {
    const rows = await this.repo.allMenus();
    const granted = await this.granted(user, rows);
    const buttons = rows.filter((r) => r.category === BUTTON && granted.has(r.id));
    const parents = new Set(buttons.map((b) => b.parent_id));
    return forest(rows.filter((r) => parents.has(r.id) || buttons.includes(r)).map(toButton));
  }

  async topMenus(user: CurrentUser): Promise<TopMenu[]> {
    return (await this.repo.topMenus(user.tenantId)).map((t) => ({
      id: t.id,
      tenantId: t.tenant_id,
      code: t.code,
      name: t.name,
      source: t.source ?? "",
      sort: t.sort,
    }));
  }
}

import type { Queryable } from "../../db/client.ts";
import { nextId } from "../../db/ids.ts";

export interface NodeRow {
  id: string;
  parent_id: string;
  title: string;
  category?: number;
}

/** Grants of menus and scopes to roles, and of menus to top menus. */
export class AccessRepository {
  constructor(private readonly db: Queryable) {}

  menus(): Promise<NodeRow[]> {
    return this.db.query<NodeRow>(
      "select id, parent_id, name as title, category from sys_menu where is_deleted = 0 order by sort, id",
    );
  }

  async grantedMenuIds(roleIds: string[]): Promise<Set<string>> {
    const rows = await this.db.query<{ menu_id: string }>(
      "select distinct menu_id from sys_role_menu where role_id = any($1::bigint[])",
      [roleIds],
    );
    return new Set(rows.map((r) => r.menu_id));
  }

  /** Scope rules of one category as children of the menus they belong to. */
  scopes(category: 1 | 2): Promise<NodeRow[]> {
    const table = category === 1 ? "sys_scope_data" : "sys_scope_api";
    return this.db.query<NodeRow>(
      `select id, menu_id as parent_id, scope_name as title from ${table} where is_deleted = 0 order by id`,
    );
  }

  async scopeIdsOfRoles(roleIds: string[], category: 1 | 2): Promise<string[]> {
    const rows = await this.db.query<{ scope_id: string }>(
      "select distinct scope_id from sys_role_scope where role_id = any($1::bigint[]) and scope_category = $2",
      [roleIds, category],
    );
    return rows.map((r) => r.scope_id);
  }

  /** Roles by id with their tenant and alias, only those still live. */
  roles(ids: string[]): Promise<{ id: string; tenant_id: string; role_alias: string }[]> {
    return this.db.query(
      "select id, tenant_id, role_alias from sys_role where id = any($1::bigint[]) and is_deleted = 0",
      [ids],
    );
  }

  /** Every role below the given ones (children, grandchildren…). */
  async descendantRoles(ids: string[]): Promise<string[]> {
    const rows = await this.db.query<{ id: string }>(
      `with recursive below as (
         select id from sys_role where parent_id = any($1::bigint[]) and is_deleted = 0
         union
         select r.id from sys_role r join below b on r.parent_id = b.id where r.is_deleted = 0
       ) select id from below`,
      [ids],
    );
    return rows.map((r) => r.id);
  }

  async replaceRoleMenus(roleIds: string[], menuIds: string[]): Promise<void> {
    await this.db.query("delete from sys_role_menu where role_id = any($1::bigint[])", [roleIds]);
    await this.insertPairs("sys_role_menu", "role_id", "menu_id", roleIds, menuIds);
  }

  /** A child role loses whatever its parent no longer has (contract §8.3 cascade). */
  async trimRoleMenus(roleIds: string[], allowed: string[]): Promise<void> {
    await this.db.query(
      "delete from sys_role_menu where role_id = any($1::bigint[]) and not (menu_id = any($2::bigint[]))",
      [roleIds, allowed],
    );
  }

  async replaceRoleScopes(roleIds: string[], category: 1 | 2, scopeIds: string[]): Promise<void> {
    await this.db.query(
      "delete from sys_role_scope where role_id = any($1::bigint[]) and scope_category = $2",
      [roleIds, category],
    );
    const pairs = crossPairs(roleIds, scopeIds);
    if (pairs.ids.length === 0) return;
    await this.db.query(
      `insert into sys_role_scope (id, scope_category, role_id, scope_id)
       select i, $4, l, r from unnest($1::bigint[], $2::bigint[], $3::bigint[]) as p(i, l, r)`,
      [pairs.ids, pairs.lefts, pairs.rights, category],
    );
  }

  async topMenuIdsOfTenant(ids: string[], tenantId: string): Promise<string[]> {
    const rows = await this.db.query<{ id: string }>(
      "select id from sys_top_menu where id = any($1::bigint[]) and tenant_id = $2 and is_deleted = 0",
      [ids, tenantId],
    );
    return rows.map((r) => r.id);
  }

  async topMenuMenuIds(topMenuIds: string[]): Promise<string[]> {
    const rows = await this.db.query<{ menu_id: string }>(
      "select distinct menu_id from sys_top_menu_setting where top_menu_id = any($1::bigint[])",
      [topMenuIds],
    );
    return rows.map((r) => r.menu_id);
  }

  async replaceTopMenuMenus(topMenuIds: string[], menuIds: string[]): Promise<void> {
    await this.db.query("delete from sys_top_menu_setting where top_menu_id = any($1::bigint[])", [
      topMenuIds,
    ]);
    await this.insertPairs("sys_top_menu_setting", "top_menu_id", "menu_id", topMenuIds, menuIds);
  }

  private async insertPairs(table: string, left: string, right: string, lefts: string[], rights: string[]) {
    const pairs = crossPairs(lefts, rights);
    if (pairs.ids.length === 0) return;
    await this.db.query(
      `insert into ${table} (id, ${left}, ${right})
       select * from unnest($1::bigint[], $2::bigint[], $3::bigint[])`,
      [pairs.ids, pairs.lefts, pairs.rights],
    );
  }
}

/** Every (left, right) pair with a fresh id of its own. */
export function crossPairs(lefts: string[], rights: string[]) {
  const out = { ids: [] as string[], lefts: [] as string[], rights: [] as string[] };
  for (const l of new Set(lefts)) {
    for (const r of new Set(rights)) {
      out.ids.push(nextId());
      out.lefts.push(l);
      out.rights.push(r);
    }
  }
  return out;
}

import { cachedRead } from "../../cache/shared-cache.ts";
import type { Queryable } from "../../db/client.ts";

export interface MenuRow {
  id: string;
  parent_id: string;
  code: string;
  name: string;
  alias: string;
  path: string | null;
  source: string | null;
  sort: number;
  category: number;
  action: number;
  is_open: number;
  remark: string | null;
}

export interface TopMenuRow {
  id: string;
  tenant_id: string;
  code: string;
  name: string;
  source: string | null;
  sort: number;
}

export class MenuRepository {
  constructor(private readonly db: Queryable) {}

  /**
   * Every live menu and button; a few hundred rows, so trees are built in memory. Every sign-in and
   * page load asks for them: they come from the shared cache (forgotten when sys_menu changes), and
   * callers only read the rows they get.
   */
  allMenus(): Promise<readonly MenuRow[]> {
    return cachedRead(this.db, "grants", "menus", () =>
      this.db.query<MenuRow>(
        `select id, parent_id, code, name, alias, path, source, sort, category, action, is_open, remark
           from sys_menu where is_deleted = 0 order by sort, id`,
      ),
    );
  }

  /** The menus granted to any of these roles (cached as the menus are; sys_role_menu changes forget it). */
  menuIdsOfRoles(roleIds: string[]): Promise<ReadonlySet<string>> {
    if (roleIds.length === 0) return Promise.resolve(new Set());
    const key = `role-menus:${[...roleIds].sort().join(",")}`;
    return cachedRead(this.db, "grants", key, async () => {
      const rows = await this.db.query<{ menu_id: string }>(
        "select distinct menu_id from sys_role_menu where role_id = any($1::bigint[])",
        [roleIds],
      );
      return new Set(rows.map((r) => r.menu_id));
    });
  }

  topMenus(tenantId: string): Promise<TopMenuRow[]> {
    return this.db.query<TopMenuRow>(
      `select id, tenant_id, code, name, source, sort from sys_top_menu
        where tenant_id = $1 and is_deleted = 0 order by sort, id`,
      [tenantId],
    );
  }

  /** Menus linked to a top menu of the caller's tenant; empty when the top menu is another tenant's. */
  async menuIdsOfTopMenu(topMenuId: string, tenantId: string): Promise<Set<string>> {
    const rows = await this.db.query<{ menu_id: string }>(
      `select s.menu_id from sys_top_menu_setting s
         join sys_top_menu t on t.id = s.top_menu_id and t.is_deleted = 0 and t.tenant_id = $2
        where s.top_menu_id = $1`,
      [topMenuId, tenantId],
    );
    return new Set(rows.map((r) => r.menu_id));
  }
}

import { PLATFORM_TENANT_ID } from "@meterline/contracts";
import type { Queryable } from "../../db/client.ts";
import { nextId } from "../../db/ids.ts";
import { crossPairs } from "../access/access.repository.ts";

/** The SQL of provisioning a tenant: its administrator role and grants, dept, post, dictionaries, account. */
export class TenantRepository {
  constructor(private readonly db: Queryable) {}

  async codeTaken(code: string): Promise<boolean> {
    return (await this.db.query("select 1 from sys_tenant where tenant_id = $1", [code])).length > 0;
  }

  async param(key: string): Promise<string | undefined> {
    const [row] = await this.db.query<{ param_value: string }>(
      "select param_value from sys_param where param_key = $1 and tenant_id = '000000' and is_deleted = 0",
      [key],
    );
    return row?.param_value;
  }

  async insertRole(tenantId: string): Promise<string> {
    const id = nextId();
    await this.db.query(
      "insert into sys_role (id, tenant_id, parent_id, role_name, sort, role_alias) values ($1, $2, 0, '管理员', 2, 'admin')",
      [id, tenantId],
    );
    return id;
  }

  /** Grants the menus with these codes and everything below them. */
  async grantMenuTrees(roleId: string, codes: string[]): Promise<void> {
    const rows = await this.db.query<{ id: string }>(
      `with recursive granted as (
         select id from sys_menu where code = any($1) and is_deleted = 0
         union
         select m.id from sys_menu m join granted g on m.parent_id = g.id where m.is_deleted = 0
       ) select id from granted`,
      [codes],
    );
    const pairs = crossPairs(
      [roleId],
      rows.map((r) => r.id),
    );
    await this.db.query(
      "insert into sys_role_menu (id, role_id, menu_id) select * from unnest($1::bigint[], $2::bigint[], $3::bigint[])",
      [pairs.ids, pairs.lefts, pairs.rights],
    );
  }

  async insertDept(tenantId: string, name: string): Promise<string> {
    const id = nextId();
    await this.db.query(
      `insert into sys_dept (id, tenant_id, parent_id, ancestors, dept_category, dept_name, full_name, sort)
       values ($1, $2, 0, '0', 1, $3, $3, 1)`,
      [id, tenantId, name.slice(0, 45)],
    );
    return id;
  }

  async insertPost(tenantId: string): Promise<void> {
    await this.db.query(
      "insert into sys_post (id, tenant_id, category, post_code, post_name, sort) values ($1, $2, 1, 'ceo', '首席执行官', 1)",
      [nextId(), tenantId],
    );
  }

  /** Every business dictionary of the platform tenant, copied with fresh ids and the tree kept. */
  async copyBusinessDictionaries(tenantId: string): Promise<void> {
    const rows = await this.db.query<{ id: string; parent_id: string }>(
      "select id, parent_id from sys_dict_biz where tenant_id = $1 and is_deleted = 0 order by parent_id, id",
      [PLATFORM_TENANT_ID],
    );
    const newIds = new Map(rows.map((r) => [r.id, nextId()]));
    await this.db.query(
      `insert into sys_dict_biz (id, tenant_id, parent_id, code, dict_key, dict_value, dict_value_en, sort, remark, is_sealed)
       select m.new_id, $1, coalesce(p.new_id, 0), d.code, d.dict_key, d.dict_value, d.dict_value_en, d.sort, d.remark,
              d.is_sealed
         from sys_dict_biz d
         join unnest($2::bigint[], $3::bigint[]) as m(old_id, new_id) on m.old_id = d.id
         left join unnest($2::bigint[], $3::bigint[]) as p(old_id, new_id) on p.old_id = d.parent_id`,
      [tenantId, [...newIds.keys()], [...newIds.values()]],
    );
  }

  async insertAdmin(tenantId: string, roleId: string, deptId: string, passwordHash: string): Promise<void> {
    await this.db.query(
      `insert into sys_user (id, tenant_id, code, account, password, name, real_name, role_id, dept_id, sex)
       values ($1, $2, 'admin', 'admin', $3, 'admin', 'admin', $4, $5, 1)`,
      [nextId(), tenantId, passwordHash, roleId, deptId],
    );
  }

  /** Removes tenants and their users; their sessions end at once. */
  async removeTenants(ids: string[], userId: string): Promise<void> {
    const tenants = await this.db.query<{ tenant_id: string }>(
      "update sys_tenant set is_deleted = 1, update_user = $2, update_time = now() where id = any($1::bigint[]) returning tenant_id",
      [ids, userId || null],
    );
    const codes = tenants.map((t) => t.tenant_id);
    await this.db.query("update sys_user set is_deleted = 1 where tenant_id = any($1)", [codes]);
    await this.db.query(
      "update auth_token set revoked_at = now() where tenant_id = any($1) and revoked_at is null",
      [codes],
    );
  }
}

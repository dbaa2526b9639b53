import type { ResourceHooks } from "../crud/hooks.ts";

/** Users listed by dept include every dept below it; rows come out with the names of their links. */
export const userHooks: ResourceHooks = {
  customFilters: {
    deptId(value, sql) {
      if (!/^\d{1,19}$/.test(value)) return "false";
      const dept = sql.bind(value);
      return `exists (select 1 from sys_dept d where d.is_deleted = 0 and d.tenant_id = t.tenant_id
                 and (d.id = ${dept}::bigint or (',' || d.ancestors || ',') like '%,' || ${dept} || ',%')
                 and (',' || t.dept_id || ',') like '%,' || d.id::text || ',%')`;
    },
  },
  async decorate({ db }, rows) {
    if (rows.length === 0) return;
    // A user's roles, depts and posts are its own tenant's: looked up there, never by id alone.
    const tenantIds = [...new Set(rows.map((r) => String(r.tenantId)))];
    const names = async (table: string, column: string, field: string) => {
      const ids = [
        ...new Set(rows.flatMap((r) => String(r[field] ?? "").split(",")).filter((id) => /^\d+$/.test(id))),
      ];
      const found = ids.length
        ? await db.query<{ id: string; label: string }>(
            `select id, ${column} as label from ${table} where id = any($1::bigint[]) and tenant_id = any($2::text[])`,
            [ids, tenantIds],
          )
        : [];
      const byId = new Map(found.map((f) => [f.id, f.label]));
      for (const row of rows) {
        row[`${field.replace(/Id$/, "")}Name`] = String(row[field] ?? "")
          .split(",")
          .map((id) => byId.get(id))
          .filter(Boolean)
          .join(",");
      }
    };
    await names("sys_role", "role_name", "roleId");
    await names("sys_dept", "dept_name", "deptId");
    await names("sys_post", "post_name", "postId");
    const tenants = await db.query<{ tenant_id: string; tenant_name: string }>(
      "select tenant_id, tenant_name from sys_tenant where tenant_id = any($1)",
      [tenantIds],
    );
    const tenantNames = new Map(tenants.map((t) => [t.tenant_id, t.tenant_name]));
    for (const row of rows) row.tenantName = tenantNames.get(String(row.tenantId)) ?? "";
  },
};

import type { SqlParams } from "../../crud/sql.ts";
import type { Queryable } from "../../db/client.ts";

/** The platform tenant: its parameter rows are the defaults and the platform-wide values. */
export const PLATFORM_TENANT = "000000";

/**
 * The value of a parameter for a tenant: the tenant's own row of a tenant-level key, else the
 * platform's. Without a tenant, or for a platform-wide key, the platform's value only.
 */
export async function paramValue(db: Queryable, key: string, tenantId?: string): Promise<string | undefined> {
  const rows = await db.query<{ param_value: string }>(
    `select t.param_value from sys_param t
      where t.param_key = $1 and t.is_deleted = 0
        and (t.tenant_id = $2
             or (t.tenant_id = $3 and t.platform_wide = 0 and not exists (
                   select 1 from sys_param p
                    where p.param_key = t.param_key and p.tenant_id = $2 and p.platform_wide = 1
                      and p.is_deleted = 0)))
      order by case when t.tenant_id = $2 then 1 else 0 end
      limit 1`,
    [key, PLATFORM_TENANT, tenantId ?? PLATFORM_TENANT],
  );
  return rows[0]?.param_value;
}

/**
 * The parameter rows a tenant sees (alias `t`): its own values of tenant-level keys, and the
 * platform's defaults of the tenant-level keys it has not set. Platform-wide rows never.
 */
export function tenantParamRows(tenantId: string, sql: SqlParams, t: string): string {
  const tenant = sql.bind(tenantId);
  const platform = sql.bind(PLATFORM_TENANT);
  const platformWideKey = `exists (select 1 from sys_param w where w.param_key = ${t}.param_key
    and w.tenant_id = ${platform} and w.platform_wide = 1 and w.is_deleted = 0)`;
  const ownValue = `exists (select 1 from sys_param o where o.param_key = ${t}.param_key
    and o.tenant_id = ${tenant} and o.is_deleted = 0)`;
  return `(${t}.tenant_id = ${tenant} and ${t}.platform_wide = 0 and not ${platformWideKey})
    or (${t}.tenant_id = ${platform} and ${t}.platform_wide = 0 and not ${ownValue})`;
}

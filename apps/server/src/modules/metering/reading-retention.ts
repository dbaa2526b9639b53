import type { Queryable } from "../../db/client.ts";

const DEFAULT_RETENTION_DAYS = 400;
/** Rows deleted per statement, so a first sweep over a large backlog never holds one huge lock. */
const BATCH = 10_000;

/**
 * Deletes reading-log rows older than the `reading.retentionDays` parameter (at least 31 days, so
 * a month's history always stays). Daily usage rows are kept: they are what reports read.
 * Answers how many rows went.
 */
export async function sweepReadings(db: Queryable): Promise<number> {
  const [param] = await db.query<{ param_value: string }>(
    "select param_value from sys_param where param_key = 'reading.retentionDays' and tenant_id = '000000' and is_deleted = 0",
  );
  const days = Math.max(31, Number(param?.param_value) || DEFAULT_RETENTION_DAYS);
  // Tenant by tenant, so each batch walks the (tenant, read time) index rather than the table.
  const tenants = await db.query<{ tenant_id: string }>("select tenant_id from sys_tenant");
  let removed = 0;
  for (const table of ["pms_data_read", "pms_water_data_read"]) {
    for (const { tenant_id } of tenants) {
      for (;;) {
        const rows = await db.query(
          `delete from ${table} where id in (
             select id from ${table}
              where tenant_id = $1 and read_time < now() - make_interval(days => $2) limit ${BATCH})
           returning 1`,
          [tenant_id, days],
        );
        removed += rows.length;
        if (rows.length < BATCH) break;
      }
    }
  }
  return removed;
}

import { type ResourceDef, resources } from "@meterline/contracts";
import { columnsOf } from "../../crud/columns.ts";
import type { Queryable } from "../../db/client.ts";

const DEFAULT_RETENTION_DAYS = 400;
/** Rows moved per statement, so a first sweep over a large backlog never holds one huge lock. */
const BATCH = 10_000;

/** Each live reading log and the archive its old rows move to; both have the same columns. */
const ARCHIVES: readonly [live: ResourceDef, archive: ResourceDef][] = [
  [resources.dataRead, resources.dataReadHistory],
  [resources.waterDataRead, resources.waterDataReadHistory],
];

/**
 * One batch as one statement: the delete and the insert of the same rows commit or fail together,
 * so a crash mid-sweep neither loses a reading nor leaves it in both tables.
 */
function moveStatement(live: ResourceDef, archive: ResourceDef): string {
  const columns = columnsOf(live)
    .map((c) => c.column)
    .join(", ");
  return `with moved as (
     delete from ${live.table} where id in (
       select id from ${live.table}
        where tenant_id = $1 and read_time < now() - make_interval(days => $2) limit ${BATCH})
     returning ${columns})
   insert into ${archive.table} (${columns}) select ${columns} from moved
   returning 1`;
}

/**
 * Moves reading-log rows older than the `reading.retentionDays` parameter (at least 31 days, so a
 * month stays live) into the history tables, where datareadhistory and waterdatareadhistory find
 * them. Daily usage rows stay where they are: they are what reports read. Answers how many moved.
 */
export async function sweepReadings(db: Queryable): Promise<number> {
  const [param] = await db.query<{ param_value: string }>(
    "select param_value from sys_param where param_key = 'reading.retentionDays' and tenant_id = '000000' and is_deleted = 0",
  );
  const days = Math.max(31, Number(param?.param_value) || DEFAULT_RETENTION_DAYS);
  // Tenant by tenant, so each batch walks the (tenant, read time) index rather than the table.
  const tenants = await db.query<{ tenant_id: string }>("select tenant_id from sys_tenant");
  let moved = 0;
  for (const [live, archive] of ARCHIVES) {
    const statement = moveStatement(live, archive);
    for (const { tenant_id } of tenants) {
      for (;;) {
        const rows = await db.query(statement, [tenant_id, days]);
        moved += rows.length;
        if (rows.length < BATCH) break;
      }
    }
  }
  return moved;
}

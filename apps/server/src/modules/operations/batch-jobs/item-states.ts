import type { Queryable } from "../../../db/client.ts";

/**
 * An item's state from its commands (a price write is several): unsettled while any is queued or
 * sent, else failed if any failed, to be confirmed if any timed out, cancelled if any never went
 * out, and a success only when every one succeeded. The reason is the first unhappy command's detail.
 */
const ITEM_STATE_SQL = `
  select c.energy_type, c.meter_id,
         case when bool_or(c.state = 'sent') then 'sent'
              when bool_or(c.state = 'queued') then 'queued'
              when bool_or(c.state = 'fail') then 'fail'
              when bool_or(c.state = 'timeout') then 'timeout'
              when bool_or(c.state = 'cancelled') then 'cancelled'
              else 'success' end as state,
         coalesce(max(case when c.state in ('fail', 'timeout') then c.evidence::jsonb ->> 'detail' end), '') as reason
    from pms_meter_command c
   where c.batch_id = $1 and c.energy_type = any($2::int[]) and c.meter_id = any($3::bigint[])
   group by c.energy_type, c.meter_id`;

/**
 * Brings the items of `jobId` for these meters in line with their commands (called in the
 * transaction that settles a command, and when a job is cancelled). A batch id that is no job's
 * matches no item. Settled items stay settled unless a read-back settles a timeout later.
 */
export async function followCommands(
  q: Queryable,
  jobId: string,
  meters: readonly { energyType: number; meterId: string }[],
): Promise<void> {
  if (meters.length === 0) return;
  await q.query(
    `update pms_batch_job_item i
        set state = s.state, reason = left(s.reason, 255), update_time = now()
       from (${ITEM_STATE_SQL}) s
      where i.job_id = $1 and i.energy_type = s.energy_type and i.meter_id = s.meter_id
        and i.state in ('queued', 'sent', 'timeout') and i.state is distinct from s.state`,
    [jobId, meters.map((m) => m.energyType), meters.map((m) => m.meterId)],
  );
}

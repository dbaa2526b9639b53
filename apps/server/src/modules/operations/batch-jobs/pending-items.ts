import type { BatchJobKind } from "@meterline/contracts";

/**
 * SQL (over the meter alias `meter`) that is true while a running job still holds the meter as a
 * pending item of one of `kinds`: its commands are not queued yet, but they will be, so a second
 * batch of the same kind must skip the meter as if they were. `kinds` are constants of the code,
 * never input, so they are written into the text.
 */
export function pendingInJobSql(meter: string, kinds: readonly BatchJobKind[], energyType?: 1 | 2): string {
  const list = kinds.map((kind) => `'${kind}'`).join(", ");
  return `exists (select 1 from pms_batch_job_item i join pms_batch_job j on j.id = i.job_id
                   where i.tenant_id = ${meter}.tenant_id and i.meter_id = ${meter}.id
                     and i.energy_type = ${energyType ?? `${meter}.energy_type`}
                     and i.state = 'pending' and j.state = 'running' and j.kind in (${list}))`;
}

import { SETUP_COUNT_BOUND, SETUP_STEPS, type SetupProgress, type SetupStep } from "@meterline/contracts";
import type { Queryable } from "../../db/client.ts";

/** Each step's rows of the tenant (live ones), bounded; table names are code, never input. */
const COUNTED: Record<SetupStep, string> = {
  areas: "select 1 from pms_area where tenant_id = $1 and is_deleted = 0",
  rooms: "select 1 from pms_room where tenant_id = $1 and is_deleted = 0",
  chargingSchemes: "select 1 from pms_charging_scheme where tenant_id = $1 and is_deleted = 0",
  alarmSchemes: "select 1 from pms_alarm_scheme where tenant_id = $1 and is_deleted = 0",
  collectors: "select 1 from pms_collector where tenant_id = $1 and is_deleted = 0",
  meters: `select 1 from pms_meter where tenant_id = $1 and is_deleted = 0
           union all select 1 from pms_water where tenant_id = $1 and is_deleted = 0`,
  owners: "select 1 from pms_owner where tenant_id = $1 and is_deleted = 0",
  accounts: "select 1 from pms_account where tenant_id = $1 and status = 1",
  recharges: "select 1 from pms_recharge where tenant_id = $1 and recharge_type = 1",
};

/**
 * How far a tenant's site has come from empty to its first recharge, in one round trip: each
 * step's rows counted up to a bound. The checklist is done once a recharge is taken, whatever the
 * order the steps were done in (an import makes areas, rooms, owners and meters at once).
 */
export async function setupProgress(db: Queryable, tenantId: string): Promise<SetupProgress> {
  const columns = SETUP_STEPS.map(
    (step) => `(select count(*) from (${COUNTED[step]} limit ${SETUP_COUNT_BOUND}) x)::int as "${step}"`,
  );
  const [row] = await db.query<Record<SetupStep, number>>(`select ${columns.join(", ")}`, [tenantId]);
  const counts = Object.fromEntries(SETUP_STEPS.map((step) => [step, row?.[step] ?? 0])) as Record<
    SetupStep,
    number
  >;
  const done = counts.recharges > 0;
  return {
    counts,
    next: done ? null : (SETUP_STEPS.find((step) => counts[step] === 0) ?? "recharges"),
    done,
  };
}

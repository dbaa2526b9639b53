import type { RegisterRead } from "@meterline/analytics";
import type { Queryable } from "../../db/client.ts";

export type EnergyType = 1 | 2;

export interface NodeRow {
  id: string;
  parent_id: string;
  node_title: string;
  node_kind: number;
  sort: number;
  area_name: string | null;
  master_meter_id: string | null;
  master_code: string | null;
}

export interface ListedMeterRow {
  node_id: string;
  meter_id: string;
  meter_role: number;
  product_code: string | null;
}

/** The meter table and the reading logs (live, then archived) of an energy type. */
const TABLES: Record<EnergyType, { meters: string; reads: readonly [string, string] }> = {
  1: { meters: "pms_meter", reads: ["pms_data_read", "pms_data_read_his"] },
  2: { meters: "pms_water", reads: ["pms_water_data_read", "pms_water_data_read_his"] },
};

/** Every live node of a tenant's tree for one energy type, with its master meter's address. */
export async function nodesOf(db: Queryable, tenantId: string, energyType: EnergyType): Promise<NodeRow[]> {
  return db.query<NodeRow>(
    `select n.id::text as id, n.parent_id::text as parent_id, n.node_title, n.node_kind, n.sort,
            a.area_name, n.master_meter_id::text as master_meter_id, m.product_code as master_code
       from pms_metering_node n
       left join pms_area a on a.id = n.area_id and a.tenant_id = n.tenant_id and a.is_deleted = 0
       left join ${TABLES[energyType].meters} m on m.id = n.master_meter_id and m.tenant_id = n.tenant_id
      where n.tenant_id = $1 and n.energy_type = $2 and n.is_deleted = 0
      order by n.sort, n.id`,
    [tenantId, energyType],
  );
}

/** The meters listed under the tenant's nodes of one energy type (rooms' and common-area meters). */
export async function listedMetersOf(
  db: Queryable,
  tenantId: string,
  energyType: EnergyType,
): Promise<ListedMeterRow[]> {
  return db.query<ListedMeterRow>(
    `select l.node_id::text as node_id, l.meter_id::text as meter_id, l.meter_role, m.product_code
       from pms_metering_node_meter l
       join pms_metering_node n on n.id = l.node_id and n.tenant_id = l.tenant_id and n.is_deleted = 0
       left join ${TABLES[energyType].meters} m on m.id = l.meter_id and m.tenant_id = l.tenant_id
      where l.tenant_id = $1 and l.energy_type = $2 and l.is_deleted = 0
      order by l.node_id, l.id`,
    [tenantId, energyType],
  );
}

/**
 * The instants a run of local days starts and ends at: the local midnights from `firstDay` to the
 * day after `lastDay`, in the tenant's zone (as daily usage counts days).
 */
export async function dayBoundaries(
  db: Queryable,
  firstDay: string,
  lastDay: string,
  timeZone: string,
): Promise<number[]> {
  const rows = await db.query<{ at: Date }>(
    `select (d::date::timestamp at time zone $3) as at
       from generate_series($1::date, $2::date + 1, interval '1 day') d
      order by d`,
    [firstDay, lastDay, timeZone],
  );
  return rows.map((row) => new Date(row.at).getTime());
}

/** A month's bounds in the tenant's zone: its first instant and the next month's. */
export async function monthBoundaries(db: Queryable, month: string, timeZone: string): Promise<number[]> {
  const [row] = await db.query<{ start: Date; end: Date }>(
    `select ($1::date::timestamp at time zone $2) as start,
            (($1::date + interval '1 month')::timestamp at time zone $2) as end`,
    [`${month}-01`, timeZone],
  );
  return [new Date(row!.start).getTime(), new Date(row!.end).getTime()];
}

/** "12.34" (a register in kWh or m³, two decimals) as 1234 hundredths. */
export function registerHundredths(text: string): bigint {
  const match = /^(-?)(\d+)(?:\.(\d{1,2}))?\d*$/.exec(text);
  if (!match) throw new RangeError(`register value ${text}`);
  const magnitude = BigInt(match[2]!) * 100n + BigInt((match[3] ?? "").padEnd(2, "0"));
  return match[1] ? -magnitude : magnitude;
}

/**
 * The reads either side of each instant, per meter: the last at or before it and the first after
 * it, in the live log and in the archive (voided reads left out). These are the only reads that
 * interpolation at the instants needs, so the work is meters × instants index probes, never a
 * scan of the period's reads.
 */
export async function readsAround(
  db: Queryable,
  tenantId: string,
  energyType: EnergyType,
  meterIds: readonly string[],
  instants: readonly number[],
): Promise<Map<string, RegisterRead[]>> {
  const byMeter = new Map<string, RegisterRead[]>(meterIds.map((id) => [id, []]));
  if (meterIds.length === 0 || instants.length === 0) return byMeter;
  const probe = (table: string, side: "before" | "after") =>
    `(select read_time, total_value from ${table}
       where tenant_id = $1 and meter_id = m.id and coalesce(voided, 0) = 0 and total_value is not null
         and read_time ${side === "before" ? "<=" : ">"} b.at
       order by read_time ${side === "before" ? "desc" : "asc"} limit 1)`;
  const [live, archive] = TABLES[energyType].reads;
  const rows = await db.query<{ meter_id: string; read_time: Date; total_value: string }>(
    `select m.id::text as meter_id, r.read_time, r.total_value::text as total_value
       from unnest($2::bigint[]) as m(id)
      cross join unnest($3::timestamptz[]) as b(at)
      cross join lateral (
        ${probe(live, "before")} union all ${probe(live, "after")}
        union all ${probe(archive, "before")} union all ${probe(archive, "after")}
      ) r`,
    [tenantId, meterIds, instants.map((at) => new Date(at).toISOString())],
  );
  for (const row of rows) {
    byMeter.get(row.meter_id)?.push({
      at: new Date(row.read_time).getTime(),
      value: registerHundredths(row.total_value),
    });
  }
  return byMeter;
}

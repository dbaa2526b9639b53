import { CHANGE_CHANNEL } from "../../db/cache-channel.ts";
import type { Queryable } from "../../db/client.ts";
import { nextId } from "../../db/ids.ts";
import { prepared } from "../../db/prepared.ts";

/** Where a batch of readings belongs: a meter's tenant, kind, room and whether the server prices it. */
export interface MeterPlace {
  tenantId: string;
  energyType: 1 | 2;
  roomId: string | null;
  /** The registry's meter number: a Modbus meter's address on its bus is only its slave address. */
  productCode: string;
  /** The server keeps this meter's balance (an open remote-control account): its readings are priced. */
  priced: boolean;
}

/** The places of a batch's meters by id, in one statement; meters that are not (or no longer) there are absent. */
export async function placesOf(db: Queryable, meterIds: readonly string[]): Promise<Map<string, MeterPlace>> {
  const rows = await db.query<{
    id: string;
    tenant_id: string;
    energy_type: 1 | 2;
    product_code: string;
    room_id: string | null;
    priced: boolean;
  }>(
    prepared(`select m.id::text as id, m.tenant_id, m.energy_type, m.product_code,
            (select rm.room_id::text from pms_room_meter rm
              where rm.tenant_id = m.tenant_id and rm.meter_id = m.id and rm.energy_type = m.energy_type
                and rm.is_deleted = 0 limit 1) as room_id,
            p.priced is not null as priced
       from (select id, tenant_id, product_code, 1 as energy_type from pms_meter where id = any($1::bigint[])
             union all select id, tenant_id, product_code, 2 from pms_water where id = any($1::bigint[])) m
       -- Per meter by the open-account index (a correlated exists may be planned as a scan of all accounts).
       left join lateral (select true as priced from pms_account a
                           where a.tenant_id = m.tenant_id and a.energy_type = m.energy_type and a.meter_id = m.id
                             and a.status = 1 and a.control_status = 1 limit 1) p on true`),
    [meterIds],
  );
  return new Map(
    rows.map((r) => [
      r.id,
      {
        tenantId: r.tenant_id,
        energyType: r.energy_type,
        roomId: r.room_id,
        productCode: r.product_code,
        priced: r.priced,
      },
    ]),
  );
}

/** One meter's latest values, as one reading reports them (null: not in this reading). */
export interface CurrentRow {
  tenantId: string;
  energyType: 1 | 2;
  meterId: string;
  productCode: string;
  readTime: Date;
  /** Total, tip, peak, peace, low (water: total only). */
  registers: readonly [string | null, string | null, string | null, string | null, string | null];
  balance: string | null;
  overdraft: string | null;
  switchStatus: number | null;
  statusWord: string | null;
  batteryLow: number | null;
  meterTime: string | null;
  missing: string;
  statusWord1: string | null;
  activePower: string | null;
  /** Modbus meters: V and A as read (three places at most). */
  voltage: string | null;
  current: string | null;
  clockOffset: number | null;
  coverOpenCount: number | null;
  /** True: the relay is stuck now; false: it agrees again; null: not known from this reading. */
  relayStuck: boolean | null;
  valveFault: number | null;
}

/** The rows as unnest's parameters, in CURRENT_COLUMNS order. */
function currentParams(rows: readonly CurrentRow[]): unknown[] {
  const band = (i: number) => rows.map((r) => r.registers[i] ?? null);
  return [
    rows.map((r) => r.tenantId),
    rows.map((r) => r.energyType),
    rows.map((r) => r.meterId),
    rows.map((r) => r.productCode),
    rows.map((r) => r.readTime.toISOString()),
    band(0),
    band(1),
    band(2),
    band(3),
    band(4),
    rows.map((r) => r.balance),
    rows.map((r) => r.overdraft),
    rows.map((r) => r.switchStatus),
    rows.map((r) => r.statusWord),
    rows.map((r) => r.batteryLow),
    rows.map((r) => r.meterTime),
    rows.map((r) => r.missing),
    rows.map((r) => r.statusWord1),
    rows.map((r) => r.activePower),
    rows.map((r) => r.clockOffset),
    rows.map((r) => r.coverOpenCount),
    rows.map((r) => r.relayStuck),
    rows.map((r) => r.valveFault),
    rows.map((r) => r.voltage),
    rows.map((r) => r.current),
  ];
}

const CURRENT_UNNEST = (
  newIds = false,
) => `unnest($1::varchar[], $2::int[], $3::bigint[], $4::varchar[], $5::timestamptz[], $6::numeric[],
         $7::numeric[], $8::numeric[], $9::numeric[], $10::numeric[], $11::numeric[], $12::numeric[], $13::int[],
         $14::varchar[], $15::int[], $16::varchar[], $17::varchar[], $18::varchar[], $19::numeric[], $20::int[],
         $21::int[], $22::boolean[], $23::int[], $24::numeric[], $25::numeric[]${newIds ? ", $26::bigint[]" : ""})
    as r(tenant_id, energy_type, meter_id, product_code, read_time, total_value, tip_value, peak_value, peace_value,
         low_value, balance, overdraft, switch_status, status_word, battery_low, meter_time, missing, status_word1,
         active_power, clock_offset, cover_open_count, relay_stuck, valve_fault, voltage, current${newIds ? ", new_id" : ""})`;

/** A row's key: one row per meter of a kind in a tenant. */
const currentKey = (tenantId: string, energyType: number | string, meterId: string) =>
  `${tenantId}:${energyType}:${meterId}`;
type KeyRow = { tenant_id: string; energy_type: number; meter_id: string };
const keysOf = (rows: readonly KeyRow[]) =>
  new Set(rows.map((r) => currentKey(r.tenant_id, r.energy_type, r.meter_id)));
const missingFrom = (rows: readonly CurrentRow[], done: Set<string>) =>
  rows.filter((r) => !done.has(currentKey(r.tenantId, r.energyType, r.meterId)));

/**
 * The latest values of many meters (one reading each), in one statement once every meter has its
 * row: an update of the rows there, then rows for meters seen for the first time (and, should
 * another process have made one of those meanwhile, the update again for it). Each reading's absent
 * values keep the stored ones; a cover-open count that rose stamps the time it was seen (the first
 * count is the baseline); a relay stuck open-commanded keeps the time it was first seen so until the
 * word agrees again; a fresh read shows a hidden meter again (who hid it stays).
 */
export async function keepCurrentValues(db: Queryable, rows: readonly CurrentRow[]): Promise<void> {
  if (rows.length === 0) return;
  const updated = await updateCurrent(db, rows);
  const fresh = missingFrom(rows, updated);
  if (fresh.length === 0) return;
  const inserted = keysOf(
    await db.query<KeyRow>(INSERT_CURRENT, [...currentParams(fresh), fresh.map(() => nextId())]),
  );
  const raced = missingFrom(fresh, inserted);
  if (raced.length > 0) await updateCurrent(db, raced);
}

async function updateCurrent(db: Queryable, rows: readonly CurrentRow[]): Promise<Set<string>> {
  return keysOf(await db.query<KeyRow>(UPDATE_CURRENT, currentParams(rows)));
}

const INSERT_CURRENT = prepared(`insert into pms_meter_current_data
       (id, tenant_id, energy_type, meter_id, product_code, read_time, total_value, tip_value, peak_value,
        peace_value, low_value, balance, overdraft, switch_status, status_word, battery_low, meter_time, missing,
        status_word1, active_power, clock_offset, cover_open_count, relay_stuck_time, valve_fault,
        voltage, current, last_read_total, last_read_time)
     select r.new_id, r.tenant_id, r.energy_type, r.meter_id, r.product_code, r.read_time, r.total_value, r.tip_value,
            r.peak_value, r.peace_value, r.low_value, r.balance, r.overdraft, r.switch_status, r.status_word,
            r.battery_low, r.meter_time, r.missing, r.status_word1, r.active_power, r.clock_offset,
            r.cover_open_count, case when r.relay_stuck then r.read_time end, r.valve_fault,
            r.voltage, r.current, r.total_value, case when r.total_value is not null then r.read_time end
       from ${CURRENT_UNNEST(true)}
      where not exists (select 1 from pms_meter_current_data c
                         where c.tenant_id = r.tenant_id and c.meter_id = r.meter_id and c.energy_type = r.energy_type)
     on conflict (tenant_id, meter_id, energy_type) do nothing
     returning tenant_id, energy_type, meter_id::text as meter_id`);

const UPDATE_CURRENT = prepared(`update pms_meter_current_data c set
       read_time = r.read_time,
       hidden = 0,
       total_value = coalesce(r.total_value, c.total_value),
       tip_value = coalesce(r.tip_value, c.tip_value),
       peak_value = coalesce(r.peak_value, c.peak_value),
       peace_value = coalesce(r.peace_value, c.peace_value),
       low_value = coalesce(r.low_value, c.low_value),
       balance = coalesce(r.balance, c.balance),
       overdraft = coalesce(r.overdraft, c.overdraft),
       switch_status = coalesce(r.switch_status, c.switch_status),
       status_word = coalesce(r.status_word, c.status_word),
       battery_low = coalesce(r.battery_low, c.battery_low),
       meter_time = coalesce(r.meter_time, c.meter_time),
       missing = r.missing,
       status_word1 = coalesce(r.status_word1, c.status_word1),
       active_power = coalesce(r.active_power, c.active_power),
       clock_offset = coalesce(r.clock_offset, c.clock_offset),
       cover_open_count = coalesce(r.cover_open_count, c.cover_open_count),
       cover_open_time = case when r.cover_open_count > c.cover_open_count then r.read_time else c.cover_open_time end,
       relay_stuck_time = case when r.relay_stuck is null then c.relay_stuck_time
                               when r.relay_stuck then coalesce(c.relay_stuck_time, r.read_time) end,
       valve_fault = coalesce(r.valve_fault, c.valve_fault),
       voltage = coalesce(r.voltage, c.voltage),
       current = coalesce(r.current, c.current),
       -- The last two reads with a total: a newer read moves the last to the previous; a late one
       -- between the two becomes the previous; an older one changes neither.
       last_read_total = case when r.total_value is not null and (c.last_read_time is null or r.read_time > c.last_read_time)
                              then r.total_value else c.last_read_total end,
       last_read_time = case when r.total_value is not null and (c.last_read_time is null or r.read_time > c.last_read_time)
                             then r.read_time else c.last_read_time end,
       prev_read_total = case when r.total_value is null or r.read_time = c.last_read_time then c.prev_read_total
                              when c.last_read_time is null or r.read_time > c.last_read_time then c.last_read_total
                              when c.prev_read_time is null or r.read_time > c.prev_read_time then r.total_value
                              else c.prev_read_total end,
       prev_read_time = case when r.total_value is null or r.read_time = c.last_read_time then c.prev_read_time
                             when c.last_read_time is null or r.read_time > c.last_read_time then c.last_read_time
                             when c.prev_read_time is null or r.read_time > c.prev_read_time then r.read_time
                             else c.prev_read_time end
      from ${CURRENT_UNNEST()}
     where c.tenant_id = r.tenant_id and c.meter_id = r.meter_id and c.energy_type = r.energy_type
    returning c.tenant_id, c.energy_type, c.meter_id::text as meter_id`);

/**
 * Many meters of one table marked online with their supply as read, in one statement; a supply the
 * meter reports otherwise than known (switched on site, or a command's outcome read back) is
 * announced to open pages (modules/live), as a command's outcome is.
 */
export async function markMetersRead(
  db: Queryable,
  table: "pms_meter" | "pms_water",
  rows: readonly { tenantId: string; meterId: string; supply: number | null }[],
): Promise<void> {
  if (rows.length === 0) return;
  // The meters whose state moves are found by one join and only they are written (in steady
  // service none: a meter read again is online in the state it was); a supply that moved is announced.
  await db.query(
    prepared(`with read as (select * from unnest($1::varchar[], $2::bigint[], $3::int[]) as r(tenant_id, id, supply)),
          moved as materialized (
            select m.id, m.tenant_id, r.supply, m.switch_status as was, coalesce(r.supply, m.switch_status) as now
              from ${table} m join read r on m.id = r.id and m.tenant_id = r.tenant_id
             where m.online_status is distinct from 1 or m.switch_status is distinct from coalesce(r.supply, m.switch_status)),
          -- A supply not in the reading keeps the row's own (a command may have set it since the join).
          written as (update ${table} m set online_status = 1, switch_status = coalesce(v.supply, m.switch_status)
                        from moved v where m.id = v.id and m.tenant_id = v.tenant_id)
     select pg_notify($4, meterline_live_message(v.tenant_id, 'supply', json_build_array(v.id::text), 1))
       from moved v where v.now is distinct from v.was`),
    [rows.map((r) => r.tenantId), rows.map((r) => r.meterId), rows.map((r) => r.supply), CHANGE_CHANNEL],
  );
}

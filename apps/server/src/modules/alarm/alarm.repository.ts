import type { Queryable } from "../../db/client.ts";
import { nextId } from "../../db/ids.ts";
import { prepared } from "../../db/prepared.ts";
import type { MeterCondition, MeterFacts, RegisterRead, RuleCode } from "./alarm-rules.ts";

/** One meter as the rules see it, with what a record names. */
export interface MeterRow extends MeterFacts {
  meterId: string;
  productCode: string;
  ownerId: string | null;
  /** The channels of the account's alarm scheme (notify_channel keys, comma-separated); null when none is set. */
  notifyChannels: string | null;
}

/** One meter an evaluation covers. */
export interface MeterFilter {
  energyType: 1 | 2;
  meterId: string;
}

/** Which meters an evaluation covers: all of the tenant's (undefined), one, or a batch of them. */
export type MeterScope = MeterFilter | readonly MeterFilter[] | undefined;

/** A scope's meter ids by energy type, or undefined for all of the tenant's meters. */
function idsOf(scope: MeterScope): { 1: string[]; 2: string[] } | undefined {
  if (!scope) return undefined;
  const ids = { 1: [] as string[], 2: [] as string[] };
  const meters: readonly MeterFilter[] = "meterId" in scope ? [scope] : scope;
  for (const meter of meters) ids[meter.energyType].push(meter.meterId);
  return ids;
}

/**
 * A scope's meters as rows `scope(energy_type, meter_id)` of two arrays bound as the next
 * parameters, or undefined without a scope. Joined laterally (kept apart from the outer query by
 * `offset 0`, so no plan can turn it inside out), each meter is one probe of an index: an `or` of
 * two `any` filters cannot use one, so it read every open record of the tenant for each wave of
 * readings (26 ms a wave at 30,000 open records, bench:fleet; seconds once a generic plan joined
 * the other way round).
 */
function scopeRows(scope: MeterScope, params: unknown[]): string | undefined {
  const ids = idsOf(scope);
  if (!ids) return undefined;
  params.push([...ids[1].map(() => 1), ...ids[2].map(() => 2)], [...ids[1], ...ids[2]]);
  const first = params.length - 1;
  return `unnest($${first}::int[], $${first + 1}::bigint[]) as scope(energy_type, meter_id)`;
}

/** The key of a meter's rule: open records and silences are looked up by it. */
export const ruleKey = (energyType: number, meterId: string, code: string) =>
  `${energyType}:${meterId}:${code}`;

export async function tenantRuleRows(db: Queryable, tenantId: string) {
  return db.query<{ rule_code: string; check_rule_name: string; threshold: string | null; enabled: number }>(
    // Later rows override earlier ones in effectiveRules: the last edited row of a rule holds.
    prepared(`select rule_code, check_rule_name, threshold::text as threshold, enabled from pms_alarm
      where tenant_id = $1 and is_deleted = 0 order by update_time, id`),
    [tenantId],
  );
}

/** Tenants that have meters: the periodic pass visits each. */
export async function tenantsWithMeters(db: Queryable): Promise<string[]> {
  const rows = await db.query<{ tenant_id: string }>(
    `select tenant_id from pms_meter where is_deleted = 0 union select tenant_id from pms_water where is_deleted = 0`,
  );
  return rows.map((r) => r.tenant_id);
}

/**
 * The facts of the tenant's meters (or one): the level of its open account, its latest reading
 * time, and its reads up to `now` — the last two, and for water every read since the start of the
 * flow window (from the last read at or before it).
 */
export async function meterFacts(
  db: Queryable,
  tenantId: string,
  now: Date,
  flowHours: number,
  only?: MeterScope,
): Promise<MeterRow[]> {
  const params: unknown[] = [tenantId];
  const scope = scopeRows(only, params);
  // The scope's meters one by one through their keys, or every meter of the tenant.
  const meterSet = scope
    ? `${scope} cross join lateral (
         select id, tenant_id, product_code, 1 as energy_type from pms_meter
          where scope.energy_type = 1 and id = scope.meter_id and tenant_id = $1 and is_deleted = 0
         union all
         select id, tenant_id, product_code, 2 from pms_water
          where scope.energy_type = 2 and id = scope.meter_id and tenant_id = $1 and is_deleted = 0) m`
    : `(select id, tenant_id, product_code, 1 as energy_type from pms_meter where tenant_id = $1 and is_deleted = 0
        union all
        select id, tenant_id, product_code, 2 from pms_water where tenant_id = $1 and is_deleted = 0) m`;
  const meters = await db.query<
    {
      energy_type: 1 | 2;
      id: string;
      product_code: string;
      owner_id: string | null;
      alarm_level: number | null;
      read_time: Date | null;
      notify_channels: string | null;
      last_read_total: string | null;
      last_read_time: Date | null;
      prev_read_total: string | null;
      prev_read_time: Date | null;
    } & ConditionColumns
  >(
    prepared(`select m.energy_type, m.id, m.product_code, a.owner_id, a.alarm_level, cd.read_time, s.notify_channels,
            cd.status_word1, cd.active_power::text as active_power, cd.clock_offset, cd.cover_open_time,
            cd.relay_stuck_time, cd.battery_low, cd.valve_fault, cd.last_read_total::text as last_read_total,
            cd.last_read_time, cd.prev_read_total::text as prev_read_total, cd.prev_read_time,
            uc.command_type as unsettled_type, uc.done_time as unsettled_time
       from ${meterSet}
       left join pms_account a on a.tenant_id = m.tenant_id and a.energy_type = m.energy_type
                              and a.meter_id = m.id and a.status = 1
       left join pms_alarm_scheme s on s.id = a.alarm_scheme_id and s.tenant_id = a.tenant_id
       left join pms_meter_current_data cd on cd.tenant_id = m.tenant_id and cd.energy_type = m.energy_type
                                          and cd.meter_id = m.id
       left join lateral (
         select c.command_type, c.done_time from pms_meter_command c
          where c.tenant_id = m.tenant_id and c.energy_type = m.energy_type and c.meter_id = m.id
            and c.state = 'timeout' and c.done_time is not null
          order by c.done_time limit 1) uc on true`),
    params,
  );
  const reads = new Map<string, RegisterRead[]>();
  const ids = idsOf(only);
  const wants = (energyType: 1 | 2) => !ids || ids[energyType].length > 0;
  const readParamsOf = (energyType: 1 | 2) => [tenantId, now, ...(ids ? [ids[energyType]] : [])];
  const oneMeter = ids ? " and m.id = any($3::bigint[])" : "";
  if (wants(1) && ids) {
    // The meters of a batch of readings: their last two reads are kept beside their latest values
    // (the readings sink writes both), so only a meter without two there is looked up in the log.
    const known = meters.filter(
      (m) =>
        m.energy_type === 1 &&
        m.last_read_time !== null &&
        m.prev_read_time !== null &&
        new Date(m.last_read_time).getTime() <= now.getTime(),
    );
    for (const m of known)
      collect(reads, 1, [
        { meter_id: String(m.id), read_time: m.last_read_time!, total: m.last_read_total! },
        { meter_id: String(m.id), read_time: m.prev_read_time!, total: m.prev_read_total! },
      ]);
    const knownIds = new Set(known.map((m) => String(m.id)));
    const rest = ids[1].filter((id) => !knownIds.has(id));
    if (rest.length > 0) collect(reads, 1, await lastTwoElectricReads(db, tenantId, now, rest, null));
  } else if (wants(1)) {
    // The last two reads, first looked for in the recent months only (the partitions of those
    // months alone are searched); the meters with fewer there are looked up again over all time.
    const since = new Date(now.getTime() - RECENT_READS_MS);
    const rows = await lastTwoElectricReads(db, tenantId, now, undefined, since);
    const found = new Map<string, number>();
    for (const row of rows) found.set(row.meter_id, (found.get(row.meter_id) ?? 0) + 1);
    const wanting = meters.filter((m) => m.energy_type === 1 && (found.get(String(m.id)) ?? 0) < 2);
    const older =
      wanting.length === 0
        ? []
        : await lastTwoElectricReads(
            db,
            tenantId,
            now,
            wanting.map((m) => String(m.id)),
            null,
          );
    const retried = new Set(wanting.map((m) => String(m.id)));
    collect(reads, 1, [...rows.filter((row) => !retried.has(row.meter_id)), ...older]);
  }
  if (wants(2)) {
    const rows = await db.query<{ meter_id: string; read_time: Date; total: string }>(
      `select m.id as meter_id, r.read_time, r.total
         from pms_water m cross join lateral (
           select d.read_time, d.total_value::text as total from pms_water_data_read d
            where d.meter_id = m.id and d.tenant_id = m.tenant_id and d.read_time <= $2 and d.total_value is not null
              and d.read_time >= least(
                coalesce((select max(x.read_time) from pms_water_data_read x
                           where x.meter_id = m.id and x.tenant_id = m.tenant_id
                             and x.read_time <= $2 - make_interval(secs => ${Number(flowHours) * 3600})),
                         '-infinity'::timestamptz),
                (select min(y.read_time) from (select z.read_time from pms_water_data_read z
                   where z.meter_id = m.id and z.tenant_id = m.tenant_id and z.read_time <= $2
                   order by z.read_time desc limit 2) y))
            order by d.read_time desc limit 2000) r
        where m.tenant_id = $1 and m.is_deleted = 0${oneMeter}`,
      readParamsOf(2),
    );
    collect(reads, 2, rows);
  }
  return meters.map((m) => ({
    energyType: m.energy_type,
    meterId: m.id,
    productCode: m.product_code,
    ownerId: m.owner_id,
    notifyChannels: m.notify_channels,
    alarmLevel: m.alarm_level,
    lastReadAt: m.read_time,
    reads: (reads.get(`${m.energy_type}:${m.id}`) ?? []).reverse(),
    condition: conditionOf(m),
  }));
}

/** How far back the last two reads of a meter are looked for first: most meters are read daily at least. */
const RECENT_READS_MS = 35 * 86_400_000;

/** The last two reads up to `now` of the tenant's electric meters (or those of `ids`), from `since` if given. */
function lastTwoElectricReads(
  db: Queryable,
  tenantId: string,
  now: Date,
  ids: readonly string[] | undefined,
  since: Date | null,
) {
  const params: unknown[] = [tenantId, now];
  let filter = "";
  if (ids) {
    params.push(ids);
    filter += " and m.id = any($3::bigint[])";
  }
  let recent = "";
  if (since) {
    params.push(since);
    recent = ` and d.read_time > $${params.length}`;
  }
  return db.query<{ meter_id: string; read_time: Date; total: string }>(
    `select m.id::text as meter_id, r.read_time, r.total
       from pms_meter m cross join lateral (
         select d.read_time, d.total_value::text as total from pms_data_read d
          where d.meter_id = m.id and d.tenant_id = m.tenant_id and d.read_time <= $2${recent}
            and d.total_value is not null
          order by d.read_time desc limit 2) r
      where m.tenant_id = $1 and m.is_deleted = 0${filter}`,
    params,
  );
}

/** The columns of the meter's own reports the rules read (pms_meter_current_data and the command queue). */
interface ConditionColumns {
  status_word1: string | null;
  active_power: string | null;
  clock_offset: number | null;
  cover_open_time: Date | null;
  relay_stuck_time: Date | null;
  battery_low: number | null;
  valve_fault: number | null;
  unsettled_type: string | null;
  unsettled_time: Date | null;
}

function conditionOf(row: ConditionColumns): MeterCondition {
  const word =
    row.status_word1 && /^[0-9A-Fa-f]{1,8}$/.test(row.status_word1)
      ? Number.parseInt(row.status_word1, 16)
      : null;
  return {
    statusWord1: word,
    relayStuckSince: row.relay_stuck_time ? new Date(row.relay_stuck_time) : null,
    clockOffsetSeconds: row.clock_offset === null ? null : Number(row.clock_offset),
    coverOpenedAt: row.cover_open_time ? new Date(row.cover_open_time) : null,
    batteryLow: row.battery_low === 1,
    valveAbnormal: row.valve_fault === 1,
    activePower: row.active_power,
    unsettledCommand:
      row.unsettled_type && row.unsettled_time
        ? { type: row.unsettled_type, at: new Date(row.unsettled_time) }
        : null,
  };
}

function collect(
  into: Map<string, RegisterRead[]>,
  energyType: 1 | 2,
  rows: { meter_id: string; read_time: Date; total: string }[],
) {
  for (const row of rows) {
    const key = `${energyType}:${row.meter_id}`;
    const list = into.get(key) ?? [];
    list.push({ at: new Date(row.read_time), total: row.total });
    into.set(key, list);
  }
}

export interface OpenRecord {
  id: string;
  energy_type: number;
  meter_id: string;
  rule_code: string;
}

export async function openRecords(db: Queryable, tenantId: string, only?: MeterScope) {
  const params: unknown[] = [tenantId];
  const scope = scopeRows(only, params);
  const open = "r.tenant_id = $1 and r.alarm_status = 1 and r.is_deleted = 0 and r.alarm_day is null";
  // Planned at each call, not prepared (db/prepared.ts): a plan kept from when the alarm tables
  // were nearly empty may probe each meter through the tenant's time index, as cheap as the open
  // index on an empty table, and then read every record of the tenant for every meter of every
  // wave once a site's alarms grow (bench:fleet: 0.4–1 s a wave at 15,000 records, polls a whole
  // interval late). Planning afresh sees the table as it is, for a fraction of a millisecond.
  const rows = await db.query<OpenRecord>(
    scope
      ? `select r.id, r.energy_type, r.meter_id, r.rule_code from ${scope} cross join lateral (
           select r.* from pms_check_record r
            where ${open} and r.energy_type = scope.energy_type and r.meter_id = scope.meter_id
           offset 0) r`
      : `select r.id, r.energy_type, r.meter_id, r.rule_code from pms_check_record r where ${open}`,
    params,
  );
  return new Map(rows.map((r) => [ruleKey(r.energy_type, r.meter_id, r.rule_code), r]));
}

/**
 * Rules an operator silenced for a meter at `now`: ignored for days not yet over, or permanently.
 * (An ignore of this time names its record and hides that record only: see the bell's list.)
 */
export async function silencedRules(db: Queryable, tenantId: string, now: Date, only?: MeterScope) {
  const params: unknown[] = [tenantId, now];
  const scope = scopeRows(only, params);
  const silenced =
    "i.tenant_id = $1 and i.is_deleted = 0 and (i.ignore_type = 3 or (i.ignore_type = 2 and i.ignore_until > $2))";
  // Planned at each call, as openRecords and for the same reason: silences grow from none.
  const rows = await db.query<{ energy_type: number; meter_id: string; rule_code: string }>(
    scope
      ? `select distinct i.energy_type, i.meter_id, i.rule_code from ${scope} cross join lateral (
           select i.* from pms_check_ignore i
            where ${silenced} and i.energy_type = scope.energy_type and i.meter_id = scope.meter_id
           offset 0) i`
      : `select distinct i.energy_type, i.meter_id, i.rule_code from pms_check_ignore i where ${silenced}`,
    params,
  );
  return new Set(rows.map((r) => ruleKey(r.energy_type, r.meter_id, r.rule_code)));
}

/** SQL (alias `r`, tenant and clock bound as given) true when an operator silenced the record at that time. */
export const silencedSql = (now: string) => `exists (
  select 1 from pms_check_ignore i
   where i.tenant_id = r.tenant_id and i.is_deleted = 0
     and ((i.ignore_type = 1 and i.record_id = r.id)
       or (i.energy_type = r.energy_type and i.meter_id = r.meter_id and i.rule_code = r.rule_code
           and (i.ignore_type = 3 or (i.ignore_type = 2 and i.ignore_until > ${now})))))`;

export interface NewRecord {
  tenantId: string;
  energyType: 1 | 2;
  meterId: string;
  productCode: string;
  ownerId: string | null;
  code: RuleCode;
  name: string;
  level: number;
  content: string;
  at: Date;
}

/** Raises a record (alarming) unless one is open already; answers its id when it did. */
export async function raiseRecord(tx: Queryable, record: NewRecord): Promise<string | undefined> {
  const id = nextId();
  const rows = await tx.query(
    `insert into pms_check_record (id, tenant_id, energy_type, meter_id, product_code, owner_id, rule_code,
       check_rule_name, alarm_level, alarm_status, content, create_time, last_check_time)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, 1, $10, $11, $11)
     on conflict (tenant_id, energy_type, meter_id, rule_code) where alarm_status = 1 and is_deleted = 0 and alarm_day is null
     do nothing
     returning id`,
    [
      id,
      record.tenantId,
      record.energyType,
      record.meterId,
      record.productCode,
      record.ownerId,
      record.code,
      record.name,
      record.level,
      record.content.slice(0, 255),
      record.at,
    ],
  );
  if (rows.length === 0) return undefined;
  await addHistory(tx, record.tenantId, id, 0, 1, record.content, record.at);
  return id;
}

/** A record about one metering node's day, raised on the node's master meter. */
export interface DayRecord {
  energyType: 1 | 2;
  meterId: string;
  productCode: string;
  nodeId: string;
  /** The local day judged, yyyy-MM-dd. */
  day: string;
  code: RuleCode;
  name: string;
  content: string;
}

/**
 * Raises the records of nodes' days in one statement, each with its first history row: a node's
 * day already raised (alarming, closed or removed since) is never raised again, and neither is a
 * rule an operator silenced on the master meter for days or for good. Answers how many it raised.
 */
export async function raiseDayRecords(
  db: Queryable,
  tenantId: string,
  records: readonly DayRecord[],
  at: Date,
): Promise<number> {
  if (records.length === 0) return 0;
  const rows = await db.query(
    `with wanted as (
       select * from jsonb_to_recordset($2::jsonb) as w(id bigint, history_id bigint, energy_type int,
              meter_id bigint, product_code text, node_id bigint, alarm_day date, rule_code text,
              check_rule_name text, content text)),
     raised as (
       insert into pms_check_record (id, tenant_id, energy_type, meter_id, product_code, rule_code, check_rule_name,
              alarm_level, alarm_status, content, create_time, last_check_time, node_id, alarm_day)
       select w.id, $1::varchar, w.energy_type, w.meter_id, w.product_code, w.rule_code, w.check_rule_name, 0, 1,
              w.content, $3::timestamptz, $3::timestamptz, w.node_id, w.alarm_day
         from wanted w
        where not exists (
          select 1 from pms_check_ignore i
           where i.tenant_id = $1::varchar and i.is_deleted = 0 and i.energy_type = w.energy_type
             and i.meter_id = w.meter_id and i.rule_code = w.rule_code
             and (i.ignore_type = 3 or (i.ignore_type = 2 and i.ignore_until > $3::timestamptz)))
       on conflict (tenant_id, node_id, alarm_day, rule_code) where alarm_day is not null do nothing
       returning id, content)
     insert into pms_check_record_history (id, tenant_id, record_id, from_status, to_status, cause, create_time)
     select w.history_id, $1::varchar, r.id, 0, 1, r.content, $3::timestamptz from raised r join wanted w on w.id = r.id
     returning record_id`,
    [
      tenantId,
      JSON.stringify(
        records.map((record) => ({
          id: nextId(),
          history_id: nextId(),
          energy_type: record.energyType,
          meter_id: record.meterId,
          product_code: record.productCode,
          node_id: record.nodeId,
          alarm_day: record.day,
          rule_code: record.code,
          check_rule_name: record.name,
          content: record.content.slice(0, 255),
        })),
      ),
      at,
    ],
  );
  return rows.length;
}

/** Moves an alarming record to restored (2) or closed (3); answers whether it was still alarming. */
export async function endRecord(
  tx: Queryable,
  tenantId: string,
  recordId: string,
  to: 2 | 3,
  cause: string,
  at: Date,
): Promise<boolean> {
  const rows = await tx.query(
    `update pms_check_record set alarm_status = $3, last_check_time = $4,
            restore_time = case when $3 = 2 then $4 else restore_time end,
            close_time = case when $3 = 3 then $4 else close_time end
      where id = $1 and tenant_id = $2 and alarm_status = 1 and is_deleted = 0 returning id`,
    [recordId, tenantId, to, at],
  );
  if (rows.length === 0) return false;
  await addHistory(tx, tenantId, recordId, 1, to, cause, at);
  return true;
}

async function addHistory(
  tx: Queryable,
  tenantId: string,
  recordId: string,
  from: number,
  to: number,
  cause: string,
  at: Date,
) {
  await tx.query(
    `insert into pms_check_record_history (id, tenant_id, record_id, from_status, to_status, cause, create_time)
     values ($1, $2, $3, $4, $5, $6, $7)`,
    [nextId(), tenantId, recordId, from, to, cause.slice(0, 255), at],
  );
}

/**
 * SQL (alias `r`) true when the record's alarms are merged per owner (MERGE_ALARM_FLAG 1 on the
 * alarm scheme of its meter). A record without an owner (a meter with no open account) is never
 * merged: there is nobody to merge it with.
 */
export const mergedSql = (r = "r") => `(${r}.owner_id is not null and exists (
  select 1 from pms_alarm_scheme s
   where s.tenant_id = ${r}.tenant_id and s.is_deleted = 0 and s.merge_alarm_flag = 1
     and s.id = case when ${r}.energy_type = 1
                     then (select m.alarm_scheme_id from pms_meter m where m.id = ${r}.meter_id and m.tenant_id = ${r}.tenant_id)
                     else (select w.alarm_scheme_id from pms_water w where w.id = ${r}.meter_id and w.tenant_id = ${r}.tenant_id) end))`;

/** The message a record belongs to: its owner's when merged, its own otherwise. */
export const messageKeySql = (r = "r") =>
  `(case when ${mergedSql(r)} then 'owner:' || ${r}.owner_id::text else 'record:' || ${r}.id::text end)`;

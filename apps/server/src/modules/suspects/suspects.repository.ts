import type { ElectricSample, LoadDay, RegisterRead } from "@meterline/analytics";
import type { Queryable } from "../../db/client.ts";
import { type EnergyType, registerHundredths } from "../line-loss/line-loss.repository.ts";

export type SuspectState = "new" | "visiting" | "confirmed" | "dismissed";
export type SubjectType = "meter" | "node";

const READ_TABLES: Record<EnergyType, readonly [string, string]> = {
  1: ["pms_data_read", "pms_data_read_his"],
  2: ["pms_water_data_read", "pms_water_data_read_his"],
};

/**
 * Every read since `since` of the electric meters that reported their relay open (switch status 1)
 * at least once since then: the only meters a bypass can be found on, read in one statement.
 */
export async function relaySamples(
  db: Queryable,
  tenantId: string,
  since: Date,
): Promise<Map<string, ElectricSample[]>> {
  const [live, archive] = READ_TABLES[1];
  const rows = await db.query<{
    meter_id: string;
    read_time: Date;
    total_value: string;
    switch_status: number | null;
  }>(
    `with tripped as (
       select distinct meter_id from ${live}
        where tenant_id = $1 and read_time >= $2 and switch_status = 1 and coalesce(voided, 0) = 0)
     select r.meter_id::text as meter_id, r.read_time, r.total_value::text as total_value, r.switch_status
       from (select meter_id, read_time, total_value, switch_status, voided, tenant_id from ${live}
             union all
             select meter_id, read_time, total_value, switch_status, voided, tenant_id from ${archive}) r
       join tripped t on t.meter_id = r.meter_id
      where r.tenant_id = $1 and r.read_time >= $2 and coalesce(r.voided, 0) = 0 and r.total_value is not null
      order by r.meter_id, r.read_time`,
    [tenantId, since.toISOString()],
  );
  const byMeter = new Map<string, ElectricSample[]>();
  for (const row of rows) {
    const list = byMeter.get(row.meter_id) ?? [];
    list.push({
      at: new Date(row.read_time).getTime(),
      energy: registerHundredths(row.total_value),
      relay: row.switch_status === 1 ? "tripped" : row.switch_status === 0 ? "closed" : undefined,
    });
    byMeter.set(row.meter_id, list);
  }
  return byMeter;
}

/**
 * The water reads since `since` that fall in the quiet hours (22:00 to 06:00 local, a margin around
 * 00:00–05:00 so that each hour's ends can be interpolated), per meter, sorted by time.
 */
export async function nightReads(
  db: Queryable,
  tenantId: string,
  since: Date,
  timeZone: string,
): Promise<Map<string, RegisterRead[]>> {
  const [live, archive] = READ_TABLES[2];
  const rows = await db.query<{ meter_id: string; read_time: Date; total_value: string }>(
    `select r.meter_id::text as meter_id, r.read_time, r.total_value::text as total_value
       from (select meter_id, read_time, total_value, voided, tenant_id from ${live}
             union all
             select meter_id, read_time, total_value, voided, tenant_id from ${archive}) r
      where r.tenant_id = $1 and r.read_time >= $2 and coalesce(r.voided, 0) = 0 and r.total_value is not null
        and extract(hour from r.read_time at time zone $3) not between 7 and 21
      order by r.meter_id, r.read_time`,
    [tenantId, since.toISOString(), timeZone],
  );
  const byMeter = new Map<string, RegisterRead[]>();
  for (const row of rows) {
    const list = byMeter.get(row.meter_id) ?? [];
    list.push({ at: new Date(row.read_time).getTime(), value: registerHundredths(row.total_value) });
    byMeter.set(row.meter_id, list);
  }
  return byMeter;
}

/**
 * The local days from `firstDay` to `lastDay` on which electric meters reported a power, each with
 * its highest power and the energy its daily usage row counted (undefined without a row), per
 * meter in day order: one statement for the tenant.
 */
export async function dayLoads(
  db: Queryable,
  tenantId: string,
  firstDay: string,
  lastDay: string,
  timeZone: string,
): Promise<Map<string, LoadDay[]>> {
  const rows = await db.query<{
    meter_id: string;
    day: string;
    day_from: Date;
    day_to: Date;
    max_power: string;
    usage: string | null;
  }>(
    `select p.meter_id::text as meter_id, to_char(p.day_date, 'YYYY-MM-DD') as day,
            (p.day_date::timestamp at time zone $4) as day_from,
            ((p.day_date + 1)::timestamp at time zone $4) as day_to,
            p.max_power::text as max_power, d.usage::text as usage
       from pms_data_day_power p
       join pms_meter m on m.id = p.meter_id and m.tenant_id = p.tenant_id and m.is_deleted = 0
       left join pms_data_daily d on d.tenant_id = p.tenant_id and d.meter_id = p.meter_id
            and d.day_date = p.day_date
      where p.tenant_id = $1 and p.day_date between $2::date and $3::date
      order by p.meter_id, p.day_date`,
    [tenantId, firstDay, lastDay, timeZone],
  );
  const byMeter = new Map<string, LoadDay[]>();
  for (const row of rows) {
    const list = byMeter.get(row.meter_id) ?? [];
    list.push({
      day: row.day,
      from: new Date(row.day_from).getTime(),
      to: new Date(row.day_to).getTime(),
      maxPowerKw: Number(row.max_power),
      energyKwh: row.usage === null ? undefined : Number(row.usage),
    });
    byMeter.set(row.meter_id, list);
  }
  return byMeter;
}

/**
 * One electric meter's daily usage (its usage rows, as the load detector judged them) and highest
 * power per local day from `firstDay` to `lastDay`, as decimal text; null where a day has none.
 */
export async function dailyUsageAndPower(
  db: Queryable,
  tenantId: string,
  meterId: string,
  firstDay: string,
  lastDay: string,
): Promise<{ day: string; usage: string | null; max_power: string | null }[]> {
  return db.query(
    `select to_char(g.day, 'YYYY-MM-DD') as day, round(d.usage, 2)::text as usage,
            rtrim(rtrim(p.max_power::text, '0'), '.') as max_power
       from generate_series($3::date, $4::date, interval '1 day') g(day)
       left join pms_data_daily d on d.tenant_id = $1 and d.meter_id = $2 and d.day_date = g.day::date
       left join pms_data_day_power p on p.tenant_id = $1 and p.meter_id = $2 and p.day_date = g.day::date
      order by g.day`,
    [tenantId, meterId, firstDay, lastDay],
  );
}

/** The local midnights of the days from `firstDay` to `lastDay` (inclusive), in the tenant's zone. */
export async function midnights(
  db: Queryable,
  firstDay: string,
  lastDay: string,
  timeZone: string,
): Promise<{ day: string; at: number }[]> {
  const rows = await db.query<{ day: string; at: Date }>(
    `select to_char(d, 'YYYY-MM-DD') as day, (d::date::timestamp at time zone $3) as at
       from generate_series($1::date, $2::date, interval '1 day') d order by d`,
    [firstDay, lastDay, timeZone],
  );
  return rows.map((row) => ({ day: row.day, at: new Date(row.at).getTime() }));
}

/** One suspicion as the sweep stores it. */
export interface SuspectWrite {
  energyType: EnergyType;
  subjectType: SubjectType;
  subjectId: string;
  kind: string;
  score: number;
  rank: number;
  from: number;
  to: number;
  figures: unknown;
}

/**
 * Stores a sweep's findings in one statement: new rows start as `new`; a row already there keeps
 * its state and reason and takes the fresh figures and rank.
 */
export async function upsertSuspects(
  db: Queryable,
  tenantId: string,
  ids: readonly string[],
  rows: readonly SuspectWrite[],
  now: Date,
): Promise<void> {
  if (rows.length === 0) return;
  await db.query(
    `insert into pms_suspect (id, tenant_id, energy_type, subject_type, subject_id, kind, score, rank_score,
                              evidence_from, evidence_to, figures, seen_time)
     select s.id, $1, s.energy_type, s.subject_type, s.subject_id, s.kind, s.score, s.rank_score,
            s.evidence_from, s.evidence_to, s.figures, $2
       from jsonb_to_recordset($3::jsonb) as s(id bigint, energy_type int, subject_type text, subject_id bigint,
            kind text, score float8, rank_score float8, evidence_from timestamptz, evidence_to timestamptz,
            figures jsonb)
     on conflict (tenant_id, subject_type, subject_id, kind) do update
        set score = excluded.score, rank_score = excluded.rank_score, evidence_from = excluded.evidence_from,
            evidence_to = excluded.evidence_to, figures = excluded.figures, seen_time = excluded.seen_time`,
    [
      tenantId,
      now.toISOString(),
      JSON.stringify(
        rows.map((row, index) => ({
          id: ids[index],
          energy_type: row.energyType,
          subject_type: row.subjectType,
          subject_id: row.subjectId,
          kind: row.kind,
          score: row.score,
          rank_score: row.rank,
          evidence_from: new Date(row.from).toISOString(),
          evidence_to: new Date(row.to).toISOString(),
          figures: row.figures,
        })),
      ),
    ],
  );
}

/** The tenant's verdicts so far: the kinds inspectors confirmed or dismissed. */
export async function verdictsOf(
  db: Queryable,
  tenantId: string,
): Promise<{ kind: string; state: "confirmed" | "dismissed" }[]> {
  return db.query(
    "select kind, state from pms_suspect where tenant_id = $1 and state in ('confirmed', 'dismissed')",
    [tenantId],
  );
}

/** Ranks recomputed for every open suspect of the tenant (after a verdict moved a kind's weight). */
export async function updateRanks(
  db: Queryable,
  tenantId: string,
  ranks: readonly { id: string; rank: number }[],
): Promise<void> {
  if (ranks.length === 0) return;
  await db.query(
    `update pms_suspect p set rank_score = r.rank
       from jsonb_to_recordset($2::jsonb) as r(id bigint, rank float8)
      where p.id = r.id and p.tenant_id = $1`,
    [tenantId, JSON.stringify(ranks)],
  );
}

export interface SuspectRow {
  id: string;
  energy_type: number;
  subject_type: SubjectType;
  subject_id: string;
  kind: string;
  score: number;
  rank_score: number;
  evidence_from: Date;
  evidence_to: Date;
  figures: unknown;
  state: SuspectState;
  reason: string | null;
  update_user: string | null;
  update_time: Date;
  meter_code: string | null;
  room_name: string | null;
  building_name: string | null;
  node_name: string | null;
}

/** Every suspect row with its labels joined: the meter's address, its room and building, its node. */
const LABELLED = `
  select s.id::text as id, s.energy_type, s.subject_type, s.subject_id::text as subject_id, s.kind, s.score,
         s.rank_score, s.evidence_from, s.evidence_to, s.figures, s.state, s.reason, s.update_user,
         s.update_time, coalesce(em.product_code, wm.product_code) as meter_code, r.room_name,
         a.area_name as building_name, coalesce(n.node_title, ln.node_title) as node_name
    from pms_suspect s
    left join pms_meter em on s.subject_type = 'meter' and s.energy_type = 1
         and em.id = s.subject_id and em.tenant_id = s.tenant_id
    left join pms_water wm on s.subject_type = 'meter' and s.energy_type = 2
         and wm.id = s.subject_id and wm.tenant_id = s.tenant_id
    left join lateral (
      select rm.room_id from pms_room_meter rm
       where s.subject_type = 'meter' and rm.tenant_id = s.tenant_id and rm.meter_id = s.subject_id
         and rm.energy_type = s.energy_type and rm.is_deleted = 0 limit 1) rml on true
    left join pms_room r on r.id = rml.room_id and r.tenant_id = s.tenant_id
    left join pms_area a on a.id = r.area_id and a.tenant_id = s.tenant_id
    left join pms_metering_node n on s.subject_type = 'node' and n.id = s.subject_id and n.tenant_id = s.tenant_id
    left join lateral (
      select nn.node_title from pms_metering_node_meter l
        join pms_metering_node nn on nn.id = l.node_id and nn.tenant_id = l.tenant_id and nn.is_deleted = 0
       where s.subject_type = 'meter' and l.tenant_id = s.tenant_id and l.meter_id = s.subject_id
         and l.energy_type = s.energy_type and l.is_deleted = 0 limit 1) ln on true`;

export interface SuspectFilter {
  state?: SuspectState;
  kind?: string;
  energyType?: EnergyType;
  /** A metering node: its suspects and those of the nodes under it and of the meters counted under them. */
  nodeId?: string;
}

/** A page of the tenant's suspects, best rank first, with the total. */
export async function pageSuspects(
  db: Queryable,
  tenantId: string,
  filter: SuspectFilter,
  size: number,
  offset: number,
): Promise<{ rows: SuspectRow[]; total: number }> {
  // The node and every node below it (its ancestors column lists the path from the root).
  const subtree = `select sn.id from pms_metering_node sn
     where sn.tenant_id = $1 and sn.is_deleted = 0
       and (sn.id = $5::bigint or (',' || sn.ancestors || ',') like '%,' || $5::text || ',%')`;
  const where = `s.tenant_id = $1 and ($2::text is null or s.state = $2) and ($3::text is null or s.kind = $3)
    and ($4::int is null or s.energy_type = $4)
    and ($5::bigint is null
      or (s.subject_type = 'node' and s.subject_id in (${subtree}))
      or (s.subject_type = 'meter' and exists (
        select 1 from pms_metering_node_meter nm
         where nm.tenant_id = s.tenant_id and nm.meter_id = s.subject_id and nm.energy_type = s.energy_type
           and nm.is_deleted = 0 and nm.node_id in (${subtree}))))`;
  const params = [
    tenantId,
    filter.state ?? null,
    filter.kind ?? null,
    filter.energyType ?? null,
    filter.nodeId ?? null,
  ];
  const [rows, [count]] = await Promise.all([
    db.query<SuspectRow>(
      `${LABELLED} where ${where} order by s.rank_score desc, s.score desc, s.id limit $6 offset $7`,
      [...params, size, offset],
    ),
    db.query<{ total: string }>(`select count(*)::text as total from pms_suspect s where ${where}`, params),
  ]);
  return { rows, total: Number(count?.total ?? 0) };
}

/** One suspect of the tenant, labelled; undefined when it is not the tenant's. */
export async function suspectById(
  db: Queryable,
  tenantId: string,
  id: string,
): Promise<SuspectRow | undefined> {
  const [row] = await db.query<SuspectRow>(`${LABELLED} where s.tenant_id = $1 and s.id = $2`, [
    tenantId,
    id,
  ]);
  return row;
}

/** The tenant's open suspects (for re-ranking): kind, score and subject. */
export async function openSuspects(
  db: Queryable,
  tenantId: string,
): Promise<{ id: string; subject_type: SubjectType; subject_id: string; kind: string; score: number }[]> {
  return db.query(
    `select id::text as id, subject_type, subject_id::text as subject_id, kind, score
       from pms_suspect where tenant_id = $1`,
    [tenantId],
  );
}

/** Sets a suspect's state and reason, checking the state it leaves (no lost update between two inspectors). */
export async function writeState(
  db: Queryable,
  tenantId: string,
  id: string,
  from: readonly SuspectState[],
  to: SuspectState,
  reason: string | null,
  user: string,
): Promise<boolean> {
  const rows = await db.query(
    `update pms_suspect set state = $4, reason = $5, update_user = $6, update_time = now()
      where tenant_id = $1 and id = $2 and state = any($3::text[]) returning id`,
    [tenantId, id, from, to, reason, user],
  );
  return rows.length > 0;
}

/** Claims a tenant's daily sweep for a local day: true for the one process that gets it. */
export async function claimDailySweep(db: Queryable, tenantId: string, day: string): Promise<boolean> {
  const rows = await db.query(
    `insert into pms_suspect_sweep (tenant_id, sweep_day) values ($1, $2::date)
     on conflict do nothing returning tenant_id`,
    [tenantId, day],
  );
  return rows.length > 0;
}

/** Tenants with meters: the ones a daily sweep visits. */
export async function sweptTenants(db: Queryable): Promise<string[]> {
  const rows = await db.query<{ tenant_id: string }>(
    "select tenant_id from pms_meter where is_deleted = 0 union select tenant_id from pms_water where is_deleted = 0",
  );
  return rows.map((row) => row.tenant_id);
}

/** Per electric meter, the cover-open and reverse-energy alarms raised since `since` (set-based). */
export async function meterEventCounts(
  db: Queryable,
  tenantId: string,
  since: Date,
): Promise<
  { meter_id: string; cover_opened: number; reverse_energy: number; first_at: Date; last_at: Date }[]
> {
  return db.query(
    `select meter_id::text as meter_id,
            count(*) filter (where rule_code = 'cover_open')::int as cover_opened,
            count(*) filter (where rule_code = 'reverse_energy')::int as reverse_energy,
            min(create_time) as first_at, max(last_check_time) as last_at
       from pms_check_record
      where tenant_id = $1 and energy_type = 1 and is_deleted = 0 and create_time >= $2
        and rule_code in ('cover_open', 'reverse_energy')
      group by meter_id`,
    [tenantId, since.toISOString()],
  );
}

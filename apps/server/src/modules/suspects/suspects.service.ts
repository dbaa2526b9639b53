import {
  loadWithoutEnergy,
  minimumHourlyFlow,
  nightFlow,
  type RegisterRead,
  rankSuspects,
  relayBypass,
  type Suspicion,
  type SuspicionKind,
  sustainedDrop,
  unmeteredNightFlow,
  valueAt,
} from "@meterline/analytics";
import { badRequest, notFound } from "../../contract/errors.ts";
import type { Queryable } from "../../db/client.ts";
import { nextId } from "../../db/ids.ts";
import { raiseNodeDayAlarms } from "../alarm/alarm.service.ts";
import { dayBoundaries, type EnergyType } from "../line-loss/line-loss.repository.ts";
import { metersOfNode, nodeHistory, sortedReadsAround, topologyOf } from "../line-loss/line-loss.service.ts";
import { treeLossAlarms } from "../line-loss/loss-alarms.ts";
import { type PeriodLoss, periodLoss } from "../line-loss/node-figures.ts";
import { daysBack, localDay } from "../metering/usage-periods.ts";
import { meterEvents } from "./meter-events.ts";
import {
  claimDailySweep,
  dailyUsageAndPower,
  dayLoads,
  meterEventCounts,
  midnights,
  nightReads,
  openSuspects,
  pageSuspects,
  relaySamples,
  type SubjectType,
  type SuspectFilter,
  type SuspectRow,
  type SuspectState,
  type SuspectWrite,
  suspectById,
  sweptTenants,
  updateRanks,
  upsertSuspects,
  verdictsOf,
  writeState,
} from "./suspects.repository.ts";

/** How far back a sweep reads: the detectors' longest window (35 days) with room to spare. */
export const SWEEP_DAYS = 45;
/** Days of history a sustained drop is judged on: 28 of baseline and the 7 judged. */
const DROP_DAYS = 35;
/**
 * Days a sweep judges each node's loss on: yesterday, and the two before it for a day whose reads
 * came in late or a sweep that did not run (a day already raised is never raised again).
 */
const LOSS_ALARM_DAYS = 3;
/** Days a load without energy is looked for in, to yesterday. */
const LOAD_DAYS = 14;
/** Nights a night-flow run is looked for in (it must reach the last night). */
const NIGHTS = 14;
const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
/** 0.0001 kWh or m³ (aligned units) per kWh or m³. */
const ALIGNED_PER_UNIT = 10_000;

interface Found {
  energyType: EnergyType;
  subjectType: SubjectType;
  suspicion: Suspicion;
}

/** Each listed meter's usage per local day (NaN where a bound has no value) and each node's loss. */
async function dailyFigures(
  db: Queryable,
  tenantId: string,
  energyType: EnergyType,
  lastDay: string,
  timeZone: string,
) {
  const topology = await topologyOf(db, tenantId, energyType);
  const instants = await dayBoundaries(db, daysBack(lastDay, DROP_DAYS), lastDay, timeZone);
  const meterIds = new Set<string>();
  for (const node of topology.nodes) {
    for (const id of node.listedMeterIds) meterIds.add(id);
    for (const id of metersOfNode(node, topology.outflow.get(node.id)!)) meterIds.add(id);
  }
  const reads = await sortedReadsAround(db, tenantId, energyType, meterIds, instants);
  const days = instants.slice(0, -1).map((_, d) => daysBack(lastDay, DROP_DAYS - d));
  const usage = (id: string) =>
    instants.slice(0, -1).map((from, d) => {
      const start = valueAt(reads.get(id) ?? [], from);
      const end = valueAt(reads.get(id) ?? [], instants[d + 1]!);
      if (start.kind !== "value" || end.kind !== "value" || end.value < start.value) return Number.NaN;
      return Number(end.value - start.value) / ALIGNED_PER_UNIT;
    });
  const losses = (nodeIndex: number): PeriodLoss[] => {
    const node = topology.nodes[nodeIndex]!;
    return instants
      .slice(0, -1)
      .map((from, d) => periodLoss(node, topology.outflow.get(node.id)!, reads, from, instants[d + 1]!));
  };
  const loss = (nodeIndex: number) =>
    losses(nodeIndex).map((figure) =>
      figure.kind === "loss" || figure.kind === "negative"
        ? Number(figure.loss) / ALIGNED_PER_UNIT
        : Number.NaN,
    );
  return { energyType, topology, firstDay: instants[0]!, days, usage, losses, loss };
}

type DailyFigures = Awaited<ReturnType<typeof dailyFigures>>;

const complete = (series: readonly number[]) => series.every((value) => !Number.isNaN(value));

/** Meters whose usage fell and stayed low against their peers under the same node while its loss rose. */
function drops({ energyType, topology, firstDay, usage, loss }: DailyFigures) {
  const found: Found[] = [];
  topology.nodes.forEach((node, index) => {
    const series = new Map(node.listedMeterIds.map((id) => [id, usage(id)]));
    const nodeLoss = loss(index);
    for (const [meterId, daily] of series) {
      if (!complete(daily)) continue;
      const peers = [...series].filter(([id, s]) => id !== meterId && complete(s)).map(([, s]) => s);
      const suspicion = sustainedDrop({
        meterId,
        firstDay,
        daily,
        peers,
        ...(complete(nodeLoss) ? { nodeLoss } : {}),
      });
      if (suspicion) found.push({ energyType, subjectType: "meter", suspicion });
    }
  });
  return found;
}

/** The nodes' days that left their band (or went negative) among the last ones, as alarm findings. */
const nodeDayAlarms = ({ energyType, topology, days, losses }: DailyFigures) =>
  treeLossAlarms(topology, energyType, days, losses, LOSS_ALARM_DAYS);

/** Water meters with flow through every quiet hour for nights in a row, and nodes leaking before their meters. */
async function nightFlows(db: Queryable, tenantId: string, now: Date, timeZone: string) {
  const today = localDay(now, timeZone);
  const nights = (await midnights(db, daysBack(today, NIGHTS), today, timeZone)).filter(
    (night) => night.at + 5 * HOUR_MS <= now.getTime(),
  );
  if (nights.length === 0) return [];
  const reads = await nightReads(db, tenantId, new Date(nights[0]!.at - 3 * HOUR_MS), timeZone);
  const perNight = (flowOf: (from: number, to: number) => number | undefined) =>
    nights.map((night) => ({ at: night.at, flow: flowOf(night.at, night.at + 5 * HOUR_MS) }));
  const topology = await topologyOf(db, tenantId, 2);
  // A node's master is judged by what its sub-meters leave unexplained (node-leak), not on its own.
  const masters = new Set(topology.nodes.map((node) => node.masterMeterId));
  const found: Found[] = [];
  for (const [meterId, meterReads] of reads) {
    if (masters.has(meterId)) continue;
    const suspicion = nightFlow(
      meterId,
      perNight((from, to) => minimumHourlyFlow([meterReads], from, to)),
    );
    if (suspicion) found.push({ energyType: 2, subjectType: "meter", suspicion });
  }
  for (const node of topology.nodes) {
    if (!node.masterMeterId) continue;
    const master = reads.get(node.masterMeterId) ?? [];
    const subs: RegisterRead[][] = topology.outflow
      .get(node.id)!
      .subMeterIds.map((id) => reads.get(id) ?? []);
    const suspicion = nightFlow(
      node.id,
      perNight((from, to) => unmeteredNightFlow(master, subs, from, to)),
      "node-leak",
    );
    if (suspicion) found.push({ energyType: 2, subjectType: "node", suspicion });
  }
  return found;
}

/** The key rankSuspects groups by: one entry per meter or node. */
const subjectKey = (type: SubjectType, id: string) => `${type}:${id}`;

/**
 * Every suspect of the tenant ranked again, its kinds weighed by the tenant's verdicts so far: a
 * kind that keeps sending inspectors to nothing sinks, one that keeps proving right rises.
 */
export async function rerank(db: Queryable, tenantId: string): Promise<void> {
  const [rows, verdicts] = await Promise.all([openSuspects(db, tenantId), verdictsOf(db, tenantId)]);
  const ranked = rankSuspects(
    rows.map((row) => ({
      kind: row.kind as SuspicionKind,
      subject: subjectKey(row.subject_type, row.subject_id),
      score: row.score,
      from: 0,
      to: 0,
      figures: [],
    })),
    verdicts.map((verdict) => ({ kind: verdict.kind as SuspicionKind, state: verdict.state })),
  );
  const rankOf = new Map(ranked.map((entry) => [entry.subject, entry.rank]));
  await updateRanks(
    db,
    tenantId,
    rows.map((row) => ({ id: row.id, rank: rankOf.get(subjectKey(row.subject_type, row.subject_id)) ?? 0 })),
  );
}

/**
 * Runs every detector over the tenant's last 45 days: relay bypass on electric reads, cover-open
 * and reverse-energy alarms, days of load without energy (the meters' highest power per day against
 * their daily usage), sustained
 * drops of electric and water meters against their node's peers and loss, night flow of water
 * meters and unmetered night flow of water nodes. Findings are stored (a known one keeps its
 * state and reason) and the whole list is ranked again. The same daily losses raise the line-loss
 * alarms of the nodes' last days (告警记录). Set-based: a handful of statements per tenant
 * whatever its number of meters.
 */
export async function sweep(db: Queryable, tenantId: string, timeZone: string, now = new Date()) {
  const lastDay = daysBack(localDay(now, timeZone), 2);
  const found: Found[] = [];
  const since = new Date(now.getTime() - SWEEP_DAYS * DAY_MS);
  for (const [meterId, samples] of await relaySamples(db, tenantId, since)) {
    const suspicion = relayBypass(meterId, samples);
    if (suspicion) found.push({ energyType: 1, subjectType: "meter", suspicion });
  }
  for (const row of await meterEventCounts(db, tenantId, since)) {
    const suspicion = meterEvents(row.meter_id, {
      coverOpened: row.cover_opened,
      reverseEnergy: row.reverse_energy,
      from: new Date(row.first_at).getTime(),
      to: new Date(row.last_at).getTime(),
    });
    if (suspicion) found.push({ energyType: 1, subjectType: "meter", suspicion });
  }
  for (const [meterId, days] of await dayLoads(
    db,
    tenantId,
    daysBack(lastDay, LOAD_DAYS),
    lastDay,
    timeZone,
  )) {
    const suspicion = loadWithoutEnergy(meterId, days);
    if (suspicion) found.push({ energyType: 1, subjectType: "meter", suspicion });
  }
  const electric = await dailyFigures(db, tenantId, 1, lastDay, timeZone);
  const water = await dailyFigures(db, tenantId, 2, lastDay, timeZone);
  found.push(...drops(electric), ...drops(water));
  found.push(...(await nightFlows(db, tenantId, now, timeZone)));
  const rows: SuspectWrite[] = found.map(({ energyType, subjectType, suspicion }) => ({
    energyType,
    subjectType,
    subjectId: suspicion.subject,
    kind: suspicion.kind,
    score: suspicion.score,
    rank: 0,
    from: suspicion.from,
    to: suspicion.to,
    figures: suspicion.figures,
  }));
  await upsertSuspects(
    db,
    tenantId,
    rows.map(() => nextId()),
    rows,
    now,
  );
  await rerank(db, tenantId);
  const lossAlarms = await raiseNodeDayAlarms(
    db,
    tenantId,
    [...nodeDayAlarms(electric), ...nodeDayAlarms(water)],
    now,
  );
  return { found: rows.length, lossAlarms };
}

/**
 * Each tenant's sweep of a local day runs once, in whichever process claims it first, once the
 * quiet hours of the night are over (from 06:00) so that the night's flow is in. Answers the
 * tenants this call swept.
 */
export async function sweepDailyIfDue(db: Queryable, now: Date, timeZone: string): Promise<string[]> {
  const hour = Number(
    new Intl.DateTimeFormat("en-GB", { hour: "2-digit", hourCycle: "h23", timeZone }).format(now),
  );
  if (hour < 6) return [];
  const day = localDay(now, timeZone);
  const swept: string[] = [];
  for (const tenantId of await sweptTenants(db)) {
    if (!(await claimDailySweep(db, tenantId, day))) continue;
    await sweep(db, tenantId, timeZone, now);
    swept.push(tenantId);
  }
  return swept;
}

/** One suspect on the wire. */
export function suspectView(row: SuspectRow) {
  return {
    id: row.id,
    energyType: row.energy_type,
    subjectType: row.subject_type,
    subjectId: row.subject_id,
    kind: row.kind,
    score: Math.round(row.score * 1000) / 1000,
    rank: Math.round(row.rank_score * 1000) / 1000,
    evidenceFrom: new Date(row.evidence_from).getTime(),
    evidenceTo: new Date(row.evidence_to).getTime(),
    figures: row.figures,
    state: row.state,
    reason: row.reason,
    updateUser: row.update_user,
    meterCode: row.meter_code,
    roomName: row.room_name,
    buildingName: row.building_name,
    nodeName: row.node_name,
  };
}

export async function suspectsPage(
  db: Queryable,
  tenantId: string,
  filter: SuspectFilter,
  current: number,
  size: number,
) {
  const { rows, total } = await pageSuspects(db, tenantId, filter, size, (current - 1) * size);
  return { records: rows.map(suspectView), total };
}

/**
 * One suspect with its evidence and the subject's daily series over the sweep's window: a meter's
 * usage per day, a node's loss per day (null for a day without a figure); for a load without
 * energy, the meter's usage rows and its highest power per day (`power`).
 */
export async function suspectDetail(db: Queryable, tenantId: string, id: string, timeZone: string) {
  const row = await suspectById(db, tenantId, id);
  if (!row) throw notFound("id: 嫌疑记录不存在");
  const lastDay = daysBack(localDay(new Date(), timeZone), 2);
  const energyType: EnergyType = row.energy_type === 2 ? 2 : 1;
  let series: { day: string; value: string | null }[];
  if (row.kind === "load-without-energy") {
    // The figures the detector judged: the usage rows and the highest power of each day.
    const days = await dailyUsageAndPower(
      db,
      tenantId,
      row.subject_id,
      daysBack(lastDay, SWEEP_DAYS),
      lastDay,
    );
    return {
      ...suspectView(row),
      series: days.map((day) => ({ day: day.day, value: day.usage })),
      power: days.map((day) => ({ day: day.day, value: day.max_power })),
    };
  }
  if (row.subject_type === "node") {
    const history = await nodeHistory(db, tenantId, row.subject_id, lastDay, SWEEP_DAYS, timeZone);
    series = history.days.map((day) => ({ day: day.day, value: day.loss }));
  } else {
    const instants = await dayBoundaries(db, daysBack(lastDay, SWEEP_DAYS), lastDay, timeZone);
    const reads =
      (await sortedReadsAround(db, tenantId, energyType, [row.subject_id], instants)).get(row.subject_id) ??
      [];
    series = instants.slice(0, -1).map((from, d) => {
      const start = valueAt(reads, from);
      const end = valueAt(reads, instants[d + 1]!);
      const value =
        start.kind === "value" && end.kind === "value" && end.value >= start.value
          ? (Number(end.value - start.value) / ALIGNED_PER_UNIT).toFixed(2)
          : null;
      return { day: daysBack(lastDay, SWEEP_DAYS - d), value };
    });
  }
  return { ...suspectView(row), series };
}

/**
 * The states a suspect may move to from each: a visit is planned (new → visiting), judged
 * (→ confirmed or dismissed, from a visit or straight from the list when the evidence suffices), and
 * a dismissed one reopened (→ new or visiting) when it shows again.
 */
const ALLOWED_FROM: Record<SuspectState, readonly SuspectState[]> = {
  new: ["dismissed"],
  visiting: ["new", "dismissed"],
  confirmed: ["new", "visiting"],
  dismissed: ["new", "visiting"],
};

export const SUSPECT_STATES = Object.keys(ALLOWED_FROM) as SuspectState[];

export async function changeState(
  db: Queryable,
  tenantId: string,
  id: string,
  state: SuspectState,
  reason: string | undefined,
  user: string,
) {
  if ((state === "confirmed" || state === "dismissed") && !reason)
    throw badRequest("reason: 确认或排除须填写原因");
  const before = await suspectById(db, tenantId, id);
  if (!before) throw notFound("id: 嫌疑记录不存在");
  const changed = await writeState(db, tenantId, id, ALLOWED_FROM[state], state, reason ?? null, user);
  if (!changed) throw badRequest(`state: 不能从「${before.state}」改为「${state}」`);
  // A verdict moves its kind's weight for every suspect of the tenant.
  if (
    state === "confirmed" ||
    state === "dismissed" ||
    before.state === "confirmed" ||
    before.state === "dismissed"
  )
    await rerank(db, tenantId);
  return suspectView((await suspectById(db, tenantId, id))!);
}

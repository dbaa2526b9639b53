/**
 * Analytics against injected truth: a site model (apps/simulator/src/site-model.ts) runs N days
 * with a random anomaly plan, the detectors run over its reads as the server would, and each is
 * scored against the plan.
 *   npm run bench:analytics -- --seeds 1,2,3 --meters 1000 --prevalence 0.05 --days 45
 *
 * Matching rules (a meter is found when a suspicion of a matching kind names it):
 *   theft (under-registering, tamper)  sustained-drop, no-energy-under-load or meter-event
 *   relay-bypass                       relay-bypass
 *   leak                               night-flow, first raised within 3 nights of the leak's start
 *   node-leak                          node-leak on the node
 * Any suspicion of those kinds on another meter or node is a false positive. Line loss: computed
 * % on registered topology against the model's true technical % per node and day, on nodes with
 * no node anomaly (and, apart, on nodes with no anomaly at all).
 */
import { parseArgs } from "node:util";
import { randomAnomalyPlan } from "../apps/simulator/src/anomalies.ts";
import { LOCAL_OFFSET_MS, type Site, simulateSite, siteLayout } from "../apps/simulator/src/site-model.ts";
import {
  backtest,
  type DaySpend,
  type ElectricSample,
  type LossMeter,
  minimumHourlyFlow,
  nightFlow,
  nodeLoss,
  noEnergyUnderLoad,
  rankSuspects,
  relayBypass,
  type Suspicion,
  sortedReads,
  sustainedDrop,
  unmeteredNightFlow,
  valueAt,
} from "../packages/analytics/src/index.ts";

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

const { values } = parseArgs({
  options: {
    seed: { type: "string" },
    seeds: { type: "string" },
    meters: { type: "string", default: "1000" },
    prevalence: { type: "string", default: "0.05" },
    days: { type: "string", default: "45" },
  },
});
const METERS = Number(values.meters);
const DAYS = Number(values.days);
const PREVALENCE = Number(values.prevalence);
if (!(Number.isInteger(METERS) && METERS > 0 && METERS <= 100_000)) throw new Error("--meters: 1..100000");
if (!(Number.isInteger(DAYS) && DAYS >= 36 && DAYS <= 366)) throw new Error("--days: 36..366");
if (!(PREVALENCE >= 0 && PREVALENCE <= 1)) throw new Error("--prevalence: 0..1");
const SEEDS = (values.seed ?? values.seeds ?? "1,2,3")
  .split(",")
  .map((seed) => seed.trim())
  .filter(Boolean);

interface Score {
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
}

function scoreOf(found: Set<string>, truth: Set<string>): Score {
  let truePositives = 0;
  for (const subject of found) if (truth.has(subject)) truePositives++;
  return {
    truePositives,
    falsePositives: found.size - truePositives,
    falseNegatives: truth.size - truePositives,
  };
}

function format(name: string, score: Score): string {
  const { truePositives: tp, falsePositives: fp, falseNegatives: fn } = score;
  const precision = tp + fp === 0 ? Number.NaN : tp / (tp + fp);
  const recall = tp + fn === 0 ? Number.NaN : tp / (tp + fn);
  const f1 = (2 * precision * recall) / (precision + recall);
  const figure = (value: number) => (Number.isFinite(value) ? value.toFixed(3) : "  -  ");
  return `  ${name.padEnd(28)} precision ${figure(precision)}  recall ${figure(recall)}  F1 ${figure(f1)}  (tp ${tp}, fp ${fp}, fn ${fn})`;
}

const percentile = (values: number[], p: number) => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
};

/** Usage per local day from a register's reads, in units (NaN where a bound has no value). */
function dailyUsage(reads: LossMeter["reads"], site: Site): number[] {
  const bounds = Array.from({ length: site.days + 1 }, (_, day) =>
    valueAt(reads, site.firstDay + day * DAY_MS),
  );
  return bounds.slice(1).map((end, day) => {
    const start = bounds[day]!;
    return start.kind === "value" && end.kind === "value"
      ? Number(end.value - start.value) / 10_000
      : Number.NaN;
  });
}

const filled = (series: number[]) => series.map((value) => (Number.isFinite(value) ? value : 0));

function run(seed: string): void {
  const began = performance.now();
  const layout = siteLayout({ seed, meters: METERS, days: DAYS });
  const firstDay = layout.options.firstDay;
  // Anomalies start after four weeks of history and at least five days before the end.
  const plan = randomAnomalyPlan(layout.candidates, {
    seed,
    prevalence: PREVALENCE,
    from: firstDay + 28 * DAY_MS,
    to: firstDay + (DAYS - 5) * DAY_MS,
  });
  const site = simulateSite(layout, plan);
  const simulated = performance.now();
  const reads = new Map(site.meters.map((meter) => [meter.id, sortedReads(meter.reads)]));
  const suspicions: Suspicion[] = [];

  // Line loss per node and day, on the registered topology.
  const lossKwh = new Map<string, number[]>();
  const lossErrors: number[] = [];
  const cleanErrors: number[] = [];
  const nodeAnomaly = new Set(
    plan.anomalies.filter((a) => a.kind === "node-leak" || a.kind === "faulty-master").map((a) => a.target),
  );
  const touched = new Set<string>(nodeAnomaly);
  const meterById = new Map(site.meters.map((meter) => [meter.id, meter]));
  for (const anomaly of plan.anomalies) {
    const meter = meterById.get(anomaly.target);
    if (meter) touched.add(meter.feedingNode).add(meter.registeredNode);
  }
  for (const node of site.nodes) {
    const subs = site.meters
      .filter(
        (meter) => meter.registeredNode === node.id && (meter.role === "room" || meter.role === "common"),
      )
      .map((meter) => ({ id: meter.id, reads: reads.get(meter.id)! }));
    const master = { id: node.electricMaster, reads: reads.get(node.electricMaster)! };
    const series: number[] = [];
    for (let day = 0; day < site.days; day++) {
      const from = site.firstDay + day * DAY_MS;
      const loss = nodeLoss({ master, subs, from, to: from + DAY_MS });
      if (loss.kind !== "loss" && loss.kind !== "negative") {
        series.push(Number.NaN);
        continue;
      }
      series.push(Number(loss.loss) / 10_000);
      if (loss.percent === null) continue;
      const error = Math.abs(loss.percent - node.trueLossPercent[day]!);
      if (!nodeAnomaly.has(node.id)) lossErrors.push(error);
      if (!touched.has(node.id)) cleanErrors.push(error);
    }
    lossKwh.set(node.id, filled(series));
  }

  // Electricity per room: relay and load over the polls, sustained drop against the node's peers.
  const rooms = site.meters.filter((meter) => meter.role === "room");
  const daily = new Map(rooms.map((meter) => [meter.id, filled(dailyUsage(reads.get(meter.id)!, site))]));
  const forecastErrors: number[] = [];
  for (const meter of rooms) {
    const samples: ElectricSample[] = meter.reads.map((read) => ({
      at: read.at,
      energy: read.value,
      ...(read.relay ? { relay: read.relay } : {}),
      ...(read.powerKw === undefined ? {} : { powerKw: read.powerKw }),
    }));
    const bypass = relayBypass(meter.id, samples);
    if (bypass) suspicions.push(bypass);
    const still = noEnergyUnderLoad(meter.id, samples);
    if (still) suspicions.push(still);
    for (const event of meter.events)
      suspicions.push({
        kind: "meter-event",
        subject: meter.id,
        score: 0.9,
        from: event.at,
        to: event.at,
        figures: [],
      });
    const peers = rooms
      .filter((peer) => peer.registeredNode === meter.registeredNode && peer.id !== meter.id)
      .map((peer) => daily.get(peer.id)!);
    // A room whose account is closed has no tenant: the server does not judge its usage.
    const drop =
      meter.accountClosedAt !== undefined
        ? undefined
        : sustainedDrop({
            meterId: meter.id,
            firstDay: site.firstDay,
            daily: daily.get(meter.id)!,
            peers,
            nodeLoss: lossKwh.get(meter.registeredNode),
          });
    if (drop) suspicions.push(drop);
    const charges: DaySpend[] = daily.get(meter.id)!.map((kwh, day) => ({
      day: new Date(site.firstDay + LOCAL_OFFSET_MS + day * DAY_MS).toISOString().slice(0, 10),
      fen: Math.round(kwh * 60),
    }));
    const { meanAbsoluteError, cases } = backtest(charges);
    if (cases > 0) forecastErrors.push(meanAbsoluteError);
  }

  // Water: each night's smallest hour 00:00–05:00 local, judged night by night as the server would.
  const nightStart = (night: number) => site.firstDay + night * DAY_MS;
  const leakFirstRaised = new Map<string, number>();
  const judgeNights = (
    subject: string,
    flowOf: (night: number) => number | undefined,
    kind: "night-flow" | "node-leak",
  ) => {
    const perNight: { at: number; flow: number | undefined }[] = [];
    for (let night = 0; night < site.days; night++) {
      perNight.push({ at: nightStart(night), flow: flowOf(night) });
      const found = nightFlow(subject, perNight, kind);
      if (found) {
        suspicions.push(found);
        leakFirstRaised.set(subject, nightStart(night) + 5 * HOUR_MS);
        return;
      }
    }
  };
  for (const meter of site.meters.filter((meter) => meter.role === "water-room")) {
    const series = reads.get(meter.id)!;
    judgeNights(
      meter.id,
      (night) => minimumHourlyFlow([series], nightStart(night), nightStart(night) + 5 * HOUR_MS),
      "night-flow",
    );
  }
  for (const node of site.nodes) {
    const subs = site.meters
      .filter((meter) => meter.role === "water-room" && meter.registeredNode === node.id)
      .map((meter) => reads.get(meter.id)!);
    const master = reads.get(node.waterMaster)!;
    judgeNights(
      node.id,
      (night) => unmeteredNightFlow(master, subs, nightStart(night), nightStart(night) + 5 * HOUR_MS),
      "node-leak",
    );
  }
  const ranked = rankSuspects(suspicions);
  const detected = performance.now();

  const subjectsOf = (kinds: Suspicion["kind"][]) =>
    new Set(suspicions.filter((s) => kinds.includes(s.kind)).map((s) => s.subject));
  const truthOf = (kinds: string[]) =>
    new Set(plan.anomalies.filter((a) => kinds.includes(a.kind)).map((a) => a.target));
  const theftTruth = truthOf(["under-registering", "tamper"]);
  const leakTruth = plan.anomalies.filter((a) => a.kind === "leak");
  const leaksInTime = new Set(
    leakTruth
      .filter((a) => {
        // The third quiet night wholly after the start ends at 05:00 two days after the first one.
        const firstNight = Math.ceil((a.start - site.firstDay) / DAY_MS);
        return (leakFirstRaised.get(a.target) ?? Infinity) <= nightStart(firstNight + 2) + 5 * HOUR_MS;
      })
      .map((a) => a.target),
  );
  const leakFound = subjectsOf(["night-flow"]);
  const leakScore = scoreOf(leakFound, truthOf(["leak"]));
  const leakInTime = {
    ...leakScore,
    truePositives: leaksInTime.size,
    falseNegatives: leakTruth.length - leaksInTime.size,
  };
  const allTruth = new Set(
    plan.anomalies.filter((a) => a.kind !== "mis-mapped" && a.kind !== "faulty-master").map((a) => a.target),
  );
  const top = new Set(ranked.slice(0, allTruth.size).map((entry) => entry.subject));

  // NaN where nothing was measured (e.g. no node free of anomalies at a high prevalence).
  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
  console.log(
    `seed ${seed}: ${METERS} room meters (+${METERS} water, ${site.nodes.length} nodes), ${DAYS} days, prevalence ${PREVALENCE}; ${plan.anomalies.length} anomalies; simulated in ${((simulated - began) / 1000).toFixed(1)} s, analysed in ${((detected - simulated) / 1000).toFixed(1)} s`,
  );
  console.log(
    format(
      "theft (under-reg., tamper)",
      scoreOf(subjectsOf(["sustained-drop", "no-energy-under-load", "meter-event"]), theftTruth),
    ),
  );
  console.log(format("  of which sustained-drop", scoreOf(subjectsOf(["sustained-drop"]), theftTruth)));
  console.log(
    format("  of which no-energy-under-load", scoreOf(subjectsOf(["no-energy-under-load"]), theftTruth)),
  );
  console.log(format("  of which meter-event", scoreOf(subjectsOf(["meter-event"]), truthOf(["tamper"]))));
  console.log(format("relay-bypass", scoreOf(subjectsOf(["relay-bypass"]), truthOf(["relay-bypass"]))));
  console.log(format("leak (any time)", leakScore));
  console.log(format("leak (by its 3rd night)", leakInTime));
  console.log(format("node-leak", scoreOf(subjectsOf(["node-leak"]), truthOf(["node-leak"]))));
  console.log(format(`ranked list, top ${allTruth.size}`, scoreOf(top, allTruth)));
  console.log(
    `  line loss against the true technical loss, nodes with no anomaly: mean ${mean(cleanErrors).toFixed(3)} pp, p95 ${percentile(cleanErrors, 0.95).toFixed(3)} pp (${cleanErrors.length} node-days)`,
  );
  console.log(
    `    (nodes without a node anomaly, theft and mis-mapping included, which move the loss as they should: mean ${mean(lossErrors).toFixed(3)} pp, p95 ${percentile(lossErrors, 0.95).toFixed(3)} pp, ${lossErrors.length} node-days)`,
  );
  console.log(
    `  forecast days-until-spent MAE: ${mean(forecastErrors).toFixed(2)} days (mean over ${forecastErrors.length} accounts, 10-day budgets)`,
  );
}

for (const seed of SEEDS) run(seed);

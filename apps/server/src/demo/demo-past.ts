import { protectionEnds, type Tariff, type Thresholds, tariffOf, toUnits } from "@meterline/billing";
import { type PlanOptions, registerHistory, startingSteps } from "@meterline/simulator";
import type { Queryable } from "../db/client.ts";
import { lockAccount } from "../modules/money/account.repository.ts";
import { settleSupply } from "../modules/money/arrears.ts";
import {
  DEMO_UTC_OFFSET_MINUTES,
  type DemoMeter,
  demoDay,
  HISTORY_DAYS,
  type MeterHistory,
  meterHistories,
  writeReadings,
} from "./demo-history.ts";
import { accountPast, addAdjustments, assignMethods, type DemoRole, writeAccounts } from "./demo-money.ts";
import {
  type DemoCases,
  type DemoNode,
  nodeHistories,
  withLeak,
  withShunt,
  withTrip,
} from "./demo-topology.ts";

const ZONE = "Asia/Shanghai";

/** What the past of the demo site is made from: its meters, schemes and the instant the fleet starts. */
export interface DemoSiteFacts {
  tenantId: string;
  plan: PlanOptions;
  meters: DemoMeter[];
  /** The buildings' metering nodes, whose masters and common meters get reads too. */
  nodes: DemoNode[];
  /** What goes wrong, and since when: the truth 线损分析 and 窃电与漏水 are judged against. */
  cases: DemoCases;
  alarmSchemeId: string;
  operator: { id: string; name: string };
  startsAt: number;
}

/**
 * Gives the demo site 60 days of past before its first start: the reads and daily usage of every
 * meter, every meter's account opened with a deposit, its usage priced, recharges by every payment
 * method, a few refunds and corrections, every day closed; a few accounts are low and one is in
 * arrears with its supply cut through the command queue at a moment outside the protection windows.
 */
export async function seedDemoPast(db: Queryable, site: DemoSiteFacts): Promise<void> {
  const histories = meterHistories(site.meters, { seed: site.plan.seed, startsAt: site.startsAt });
  const topology = injectCases(histories, site);
  const tariffs = await tariffsOf(db, site.tenantId);
  const alarm = await alarmOf(db, site.alarmSchemeId);
  const remote = histories.filter((h) => h.meter.ownerId && h.meter.controlStatus === 1);
  const roles = new Map<string, DemoRole>();
  // Low (ALARM_LEVEL 1 and 2) without recharges, spread over electric and water.
  const lows: [number, bigint][] = [
    [3, 4_200n],
    [17, 3_300n],
    [29, 2_600n],
    [41, 1_500n],
    [55, 700n],
  ];
  for (const [i, finalFen] of lows) roles.set(remote[i]!.meter.id, { kind: "low", finalFen });
  // The arrears account: an electric one cut at its last read outside the protection windows.
  const cut = remote.find((h, i) => h.meter.energyType === 1 && i > 5 && !roles.has(h.meter.id))!;
  roles.set(cut.meter.id, { kind: "arrears", cutAt: cutMoment(cut.times, cut.registers, alarm.windows) });
  const accounts = histories
    .filter((h) => h.meter.ownerId)
    .map((h) =>
      accountPast(
        h,
        tariffs.get(h.meter.chargingSchemeId),
        roles.get(h.meter.id) ?? { kind: "ordinary" },
        BigInt(h.meter.planned.balanceFen),
        -alarm.thresholds.arrearsLimit,
      ),
    );
  addAdjustments(accounts, site.startsAt);
  assignMethods(accounts);
  // A local-prepaid meter's own balance at each read is what its account shadows.
  const balances = new Map(
    accounts
      .filter((a) => a.history.meter.controlStatus === 0)
      .map((a) => [
        a.history.meter.id,
        (at: number) => a.events.reduce((s, e) => (e.at <= at ? s + e.amount : s), 0n),
      ]),
  );
  await writeReadings(db, site.tenantId, histories, balances);
  await writeReadings(db, site.tenantId, topology, new Map(), { daily: false });
  const today = demoDay(site.startsAt);
  const closeDays = Array.from({ length: HISTORY_DAYS }, (_, i) =>
    demoDay(Date.parse(`${today}T12:00:00Z`) - (HISTORY_DAYS - i) * 86_400_000),
  );
  await writeAccounts(db, site.tenantId, accounts, {
    thresholds: alarm.thresholds,
    operator: site.operator,
    closeDays,
  });
  // The days are closed: the minute tick's daily close finds them done.
  await db.query("insert into pms_day_close (day) select unnest($1::date[]) on conflict do nothing", [
    closeDays,
  ]);
  const account = accounts.find((a) => a.cutAt !== undefined)!;
  const locked = await lockAccount(db, site.tenantId, account.id);
  if (!locked) throw new Error("the demo's arrears account vanished");
  await settleSupply(db, locked, new Date(account.cutAt!), ZONE);
  // The cut was queued when the balance reached the line; the gateway carries it out at the start.
  await db.query(
    "update pms_meter_command set create_time = $3 where tenant_id = $1 and meter_id = $2 and state = 'queued'",
    [site.tenantId, account.history.meter.id, new Date(account.cutAt!)],
  );
}

/**
 * The cases act on the rooms' histories in the order a site sees them: a leak is water that truly
 * flows (the master counts it too), so it comes before the masters are summed; a shunt hides energy
 * the master still counts, so it comes after; a bridged relay only changes what the reads say of
 * the relay. Answers the masters' and common meters' histories.
 */
function injectCases(histories: MeterHistory[], site: DemoSiteFacts) {
  const of = (address: string) => {
    const h = histories.find((x) => x.meter.planned.address === address);
    if (!h) throw new Error(`demo: no meter ${address} for an injected case`);
    return h;
  };
  const { bypass, relay, leak } = site.cases;
  const leaking = of(leak.address);
  withLeak(leaking, leak.anomaly, site.startsAt, startingSteps(leaking.meter.planned));
  const topology = nodeHistories(site.nodes, histories, { seed: site.plan.seed, startsAt: site.startsAt });
  const shunted = of(bypass.address);
  const [atStart] = registerHistory(shunted.meter.planned, [bypass.anomaly.start], {
    seed: site.plan.seed,
    utcOffsetMinutes: DEMO_UTC_OFFSET_MINUTES,
    startsAt: site.startsAt,
  });
  withShunt(shunted, bypass.anomaly, atStart!, startingSteps(shunted.meter.planned));
  withTrip(of(relay.address), relay.trippedFrom, relay.trippedTo);
  return topology;
}

/** The last read (a few days back at most) that used energy and fell outside every protection window. */
function cutMoment(
  times: number[],
  registers: number[][],
  windows: Parameters<typeof protectionEnds>[2],
): number {
  const used = (i: number) => registers[i]!.some((v, band) => v > registers[i - 1]![band]!);
  for (let i = times.length - 1; i > times.length - 40; i--) {
    const at = new Date(times[i]!);
    if (used(i) && protectionEnds(at, ZONE, windows)?.getTime() === at.getTime()) return times[i]!;
  }
  throw new Error("no read outside the protection windows in the last ten days");
}

async function tariffsOf(db: Queryable, tenantId: string): Promise<Map<string, Tariff>> {
  const rows = await db.query<Record<string, string | number | null>>(
    `select id::text as id, price_mode, price::text as price, ladder_cycle, ladder, tip_price::text as tip_price,
            peak_price::text as peak_price, peace_price::text as peace_price, low_price::text as low_price,
            monthly_fee::text as monthly_fee
       from pms_charging_scheme where tenant_id = $1 and is_deleted = 0`,
    [tenantId],
  );
  const text = (v: string | number | null | undefined) => (v === null || v === undefined ? null : String(v));
  return new Map(
    rows.map((r) => [
      String(r.id),
      tariffOf({
        priceMode: Number(r.price_mode),
        price: text(r.price),
        ladderCycle: r.ladder_cycle === null ? null : Number(r.ladder_cycle),
        ladder: text(r.ladder),
        tipPrice: text(r.tip_price),
        peakPrice: text(r.peak_price),
        peacePrice: text(r.peace_price) ?? text(r.price),
        lowPrice: text(r.low_price),
        monthlyFee: text(r.monthly_fee),
      }),
    ]),
  );
}

async function alarmOf(db: Queryable, id: string) {
  const [row] = await db.query<{
    first_alarm: string;
    second_alarm: string;
    arrears_limit: string;
    trip_on_arrears: number;
    protect_times: string;
    protect_dates: string;
  }>(
    `select first_alarm::text as first_alarm, second_alarm::text as second_alarm, arrears_limit::text as arrears_limit,
            trip_on_arrears, protect_times, protect_dates from pms_alarm_scheme where id = $1`,
    [id],
  );
  if (!row) throw new Error("the demo's alarm scheme is missing");
  const thresholds: Thresholds = {
    firstAlarm: toUnits(row.first_alarm, 2),
    secondAlarm: toUnits(row.second_alarm, 2),
    arrearsLimit: toUnits(row.arrears_limit, 2),
    tripOnArrears: row.trip_on_arrears === 1,
  };
  return {
    thresholds,
    windows: { times: JSON.parse(row.protect_times), dates: JSON.parse(row.protect_dates) },
  };
}

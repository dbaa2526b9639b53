import { dlt645, parseScaled } from "@meterline/protocols";
import { badRequest } from "../../contract/errors.ts";
import type { Queryable } from "../../db/client.ts";
import { SchemeError } from "../pms/scheme-rules.ts";
import type { QueuedWrite } from "./meter-purchase.ts";
import { meterDayTable } from "./tou-day-table.ts";

/** DL/T 645-2007 tariff prices 1..4 (State Grid order: tip, peak, flat, valley), XXXX.XXXX yuan/kWh. */
const PRICE_DIS = ["04050101", "04050102", "04050103", "04050104"] as const;
/** Alarm amount 1, alarm amount 2 and the overdraft limit, XXXXXX.XX yuan (metering-domain.md §1.5). */
const ALARM_DIS = { first: "04001001", second: "04001002", overdraft: "04001003" } as const;

interface SchemeRow {
  price_mode: number | null;
  price: string | null;
  ladder: string | null;
  ladder_cycle: number | null;
  tip_price: string | null;
  peak_price: string | null;
  peace_price: string | null;
  low_price: string | null;
  tou_periods: string | null;
  first_alarm: string | null;
  second_alarm: string | null;
  arrears_limit: string | null;
}

/** The ladder tables of the first set (codec: 040600nn thresholds, 040601nn prices) and its cycle. */
const LADDER = { thresholds: 14, prices: 15, cycle: dlt645.DI.LADDER_CYCLE } as const;

export function ladderTiers(ladder: string | null): { limit: string | null; price: string }[] {
  try {
    const tiers = JSON.parse(ladder ?? "[]") as { limit?: unknown; price?: unknown }[];
    return Array.isArray(tiers)
      ? tiers.map((tier, i) => ({
          limit: typeof tier.limit === "string" && i < tiers.length - 1 ? tier.limit : null,
          price: typeof tier.price === "string" ? tier.price : "0",
        }))
      : [];
  } catch {
    return [];
  }
}

/**
 * The four tariff prices the meter deducts by. The meter adds the ladder step's price to the band's
 * tariff price (as State Grid cost-control meters do), so a ladder scheme writes zero tariff prices
 * and its steps carry the whole price; flat and time-of-use schemes write their prices here.
 */
function tariffPrices(row: SchemeRow): (string | null)[] {
  if (row.price_mode === 3) {
    // A band the scheme leaves unpriced is charged at the flat band's price, as the server prices it.
    const peace = row.peace_price ?? row.price;
    return [row.tip_price ?? peace, row.peak_price ?? peace, peace, row.low_price ?? peace];
  }
  if (row.price_mode === 2) return ["0", "0", "0", "0"];
  return [row.price, row.price, row.price, row.price];
}

/**
 * The ladder writes: every step's threshold (kWh per cycle) and price, a zero threshold after the
 * last so steps a previous scheme left in the meter end there, and the cycle (1 month, 2 year),
 * whose write starts the meter's count again. Any other scheme clears the ladder: threshold 1 and
 * price 1 zero, so the meter charges its tariff prices alone.
 */
function ladderWrites(row: SchemeRow): [string, string][] {
  if (row.price_mode !== 2)
    return [
      [dlt645.ladderThresholdDi(1), "0"],
      [dlt645.ladderPriceDi(1), "0"],
    ];
  const tiers = ladderTiers(row.ladder);
  if (tiers.length === 0) throw badRequest("chargingSchemeId: 阶梯方案没有阶梯");
  if (tiers.length > LADDER.prices)
    throw badRequest(`chargingSchemeId: 表计最多支持 ${LADDER.prices} 档阶梯电价`);
  const writes: [string, string][] = [];
  tiers.forEach((tier, i) => {
    if (tier.limit !== null) writes.push([dlt645.ladderThresholdDi(i + 1), tier.limit]);
    writes.push([dlt645.ladderPriceDi(i + 1), tier.price]);
  });
  if (tiers.length <= LADDER.thresholds) writes.push([dlt645.ladderThresholdDi(tiers.length), "0"]);
  writes.push([LADDER.cycle, row.ladder_cycle === 2 ? "2" : "1"]);
  return writes;
}

/**
 * When each tariff price applies, for a time-of-use scheme: one year zone (from 1 January, day
 * table 1) and day table 1 from the scheme's periods (tou-day-table.ts), with the counts the
 * meter checks them against (1 zone, 1 day table, the periods, 4 tariffs), counts first. Flat
 * and ladder schemes write the same price to every tariff, so whatever table the meter holds
 * charges them alike and none is written.
 */
function touWrites(row: SchemeRow): [string, string][] {
  if (row.price_mode !== 3) return [];
  let table: dlt645.DayPeriod[];
  try {
    table = meterDayTable(row.tou_periods);
  } catch (error) {
    if (error instanceof SchemeError) throw badRequest(error.message);
    throw error;
  }
  const { TOU_COUNT_DI: COUNT } = dlt645;
  return [
    [COUNT.zones, "1"],
    [COUNT.dayTables, "1"],
    [COUNT.periods, String(table.length)],
    [COUNT.tariffs, "4"],
    [dlt645.zoneTableDi(), dlt645.zoneTableValue([{ month: 1, day: 1, table: 1 }])],
    [dlt645.dayTableDi(1), dlt645.dayTableValue(table)],
  ];
}

/** Which half of the schemes to write: the charging scheme's prices, the alarm scheme's limits, or both. */
export type SchemePart = "price" | "alarm" | "all";

/**
 * The largest value each register holds (metering-domain.md §1.5): prices XXXX.XXXX yuan/kWh,
 * ladder thresholds XXXXXX.XX kWh, money limits XXXXXX.XX yuan. The server's schemes allow more
 * than some of these (an alarm of 1,000,000 yuan), so a write is checked here, before anything is
 * queued, rather than failing on the gateway when the frame is built.
 */
const REGISTER = {
  price: { scale: 4, max: 99_999_999n },
  energy: { scale: 2, max: 99_999_999n },
  money: { scale: 2, max: 99_999_999n },
} as const;

/** The scheme field behind each DI, named in a refusal. */
function fieldOf(di: string): { field: string; register: keyof typeof REGISTER } | null {
  const band = PRICE_DIS.indexOf(di as (typeof PRICE_DIS)[number]);
  if (band >= 0)
    return { field: ["tipPrice", "peakPrice", "peacePrice", "lowPrice"][band]!, register: "price" };
  if (di === ALARM_DIS.first) return { field: "firstAlarm", register: "money" };
  if (di === ALARM_DIS.second) return { field: "secondAlarm", register: "money" };
  if (di === ALARM_DIS.overdraft) return { field: "arrearsLimit", register: "money" };
  if (di.startsWith("040600")) return { field: "ladder", register: "energy" };
  if (di.startsWith("040601")) return { field: "ladder", register: "price" };
  return null;
}

/** 400 naming the scheme field when a value does not fit the meter's register. */
export function checkRegisterValue(di: string, value: string): void {
  const target = fieldOf(di);
  if (!target) return;
  const { scale, max } = REGISTER[target.register];
  checkFits(target.field, value, scale, max);
}

/** 400 naming `field` unless `value` has at most `scale` decimals and lies within 0..max (scaled). */
export function checkFits(field: string, value: string, scale: number, max: bigint): void {
  let scaled: bigint;
  try {
    scaled = parseScaled(value, scale);
  } catch {
    throw badRequest(`${field}: ${value} 不能写入表计(最多 ${scale} 位小数)`);
  }
  const whole = max / 10n ** BigInt(scale);
  const limit = scale === 0 ? `${whole}` : `${whole}.${"9".repeat(scale)}`;
  if (scaled < 0n || scaled > max) throw badRequest(`${field}: ${value} 超出表计可写范围 0–${limit}`);
}

/**
 * The 'write' commands that put a meter's schemes into a local-prepaid meter (at opening, when
 * the account's schemes change, and on a price or alarm write batch): its tariff prices, its ladder
 * tables and cycle, its time-of-use tables, and its alarm 1, alarm 2 and overdraft limits (the meter warns and trips by
 * them itself). Values the scheme leaves empty are not written; a value no register can hold is
 * refused with a 400 naming its field.
 */
export async function schemeWrites(
  tx: Queryable,
  chargingSchemeId: string | null,
  alarmSchemeId: string | null,
  part: SchemePart = "all",
): Promise<QueuedWrite[]> {
  const [row] = await tx.query<SchemeRow>(
    `select cs.price_mode, cs.price::text as price, cs.ladder, cs.ladder_cycle, cs.tip_price::text as tip_price,
            cs.peak_price::text as peak_price, cs.peace_price::text as peace_price, cs.low_price::text as low_price,
            cs.tou_periods,
            s.first_alarm::text as first_alarm, s.second_alarm::text as second_alarm,
            s.arrears_limit::text as arrears_limit
       from (select 1) one
       left join pms_charging_scheme cs on cs.id = $1 and cs.is_deleted = 0
       left join pms_alarm_scheme s on s.id = $2 and s.is_deleted = 0`,
    [chargingSchemeId, alarmSchemeId],
  );
  if (!row) return [];
  const priced = row.price_mode !== null;
  const prices: [string, string | null][] = [
    ...tariffPrices(row).map((value, band): [string, string | null] => [PRICE_DIS[band]!, value]),
    ...(priced ? ladderWrites(row) : []),
    ...touWrites(row),
  ];
  const alarms: [string, string | null][] = [
    [ALARM_DIS.first, row.first_alarm],
    [ALARM_DIS.second, row.second_alarm],
    [ALARM_DIS.overdraft, row.arrears_limit],
  ];
  const values = [...(part === "alarm" ? [] : prices), ...(part === "price" ? [] : alarms)];
  return values.flatMap(([di, value]) => {
    if (value === null) return [];
    checkRegisterValue(di, value);
    return [{ commandType: "write" as const, payload: { di, value } }];
  });
}

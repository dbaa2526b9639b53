import type { Queryable } from "../../db/client.ts";
import type { QueuedWrite } from "./meter-purchase.ts";

/** DL/T 645-2007 tariff prices 1..4 (State Grid order: tip, peak, flat, valley), XXXX.XXXX yuan/kWh. */
const PRICE_DIS = ["04050101", "04050102", "04050103", "04050104"] as const;
/** Alarm amount 1, alarm amount 2 and the overdraft limit, XXXXXX.XX yuan (metering-domain.md §1.5). */
const ALARM_DIS = { first: "04001001", second: "04001002", overdraft: "04001003" } as const;

interface SchemeRow {
  price_mode: number | null;
  price: string | null;
  ladder: string | null;
  tip_price: string | null;
  peak_price: string | null;
  peace_price: string | null;
  low_price: string | null;
  first_alarm: string | null;
  second_alarm: string | null;
  arrears_limit: string | null;
}

/** The first tier's price of a ladder: the meter's own ladder tables (0406…) are not written. */
function firstTierPrice(ladder: string | null): string | null {
  try {
    const tiers = JSON.parse(ladder ?? "[]") as { price?: unknown }[];
    return typeof tiers[0]?.price === "string" ? tiers[0].price : null;
  } catch {
    return null;
  }
}

/** The four tariff prices the meter deducts by: one price in every band unless the scheme is time-of-use. */
function tariffPrices(row: SchemeRow): (string | null)[] {
  if (row.price_mode === 3)
    return [row.tip_price, row.peak_price, row.peace_price ?? row.price, row.low_price];
  const flat = row.price_mode === 2 ? (firstTierPrice(row.ladder) ?? row.price) : row.price;
  return [flat, flat, flat, flat];
}

/**
 * The 'write' commands that put a meter's schemes into a local-prepaid meter at opening: its tariff
 * prices and its alarm 1, alarm 2 and overdraft limits (the meter warns and trips by them itself).
 * Ladder tiers have no common DI layout (vendors differ, §1.5 "0406xxxx"): a ladder scheme writes its
 * first tier's price; values the scheme leaves empty are not written.
 */
export async function schemeWrites(
  tx: Queryable,
  chargingSchemeId: string | null,
  alarmSchemeId: string | null,
): Promise<QueuedWrite[]> {
  const [row] = await tx.query<SchemeRow>(
    `select cs.price_mode, cs.price::text as price, cs.ladder, cs.tip_price::text as tip_price,
            cs.peak_price::text as peak_price, cs.peace_price::text as peace_price, cs.low_price::text as low_price,
            s.first_alarm::text as first_alarm, s.second_alarm::text as second_alarm,
            s.arrears_limit::text as arrears_limit
       from (select 1) one
       left join pms_charging_scheme cs on cs.id = $1 and cs.is_deleted = 0
       left join pms_alarm_scheme s on s.id = $2 and s.is_deleted = 0`,
    [chargingSchemeId, alarmSchemeId],
  );
  if (!row) return [];
  const values: [string, string | null][] = [
    ...tariffPrices(row).map((value, band): [string, string | null] => [PRICE_DIS[band]!, value]),
    [ALARM_DIS.first, row.first_alarm],
    [ALARM_DIS.second, row.second_alarm],
    [ALARM_DIS.overdraft, row.arrears_limit],
  ];
  return values.flatMap(([di, value]) =>
    value === null ? [] : [{ commandType: "write" as const, payload: { di, value } }],
  );
}

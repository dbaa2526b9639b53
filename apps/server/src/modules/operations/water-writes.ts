import type { SwitchOutcome } from "@meterline/contracts";
import { type cjt188, parseScaled } from "@meterline/protocols";
import { badRequest } from "../../contract/errors.ts";
import type { Queryable } from "../../db/client.ts";
import type { CurrentUser } from "../auth/current-user.ts";
import { checkFits, ladderTiers } from "../money/scheme-writes.ts";
import { type CommandSink, enqueueCommands, type QueuedCommand } from "../pms/command-queue.ts";
import { pendingInJobSql } from "./batch-jobs/pending-items.ts";
import { batchMeterIds } from "./water-batch.ts";

/** The command types of water meter parameter writes (their names put them in the price and alarm records). */
export const WATER_WRITE = { price: "waterPrice", alarm: "waterAlarm" } as const;
export type WaterWritePart = keyof typeof WATER_WRITE;

interface WaterRow {
  id: string;
  product_code: string;
  collector_id: string | null;
  account_id: string | null;
  price_mode: number | null;
  price: string | null;
  ladder: string | null;
  first_alarm: string | null;
  second_alarm: string | null;
  pending: boolean;
}

/** Exact text with exactly `scale` decimals, after the 400 check of `checkFits`. */
function fitted(field: string, value: string, scale: number, max: bigint): string {
  checkFits(field, value, scale, max);
  const scaled = parseScaled(value, scale);
  if (scale === 0) return scaled.toString();
  const unit = 10n ** BigInt(scale);
  return `${scaled / unit}.${(scaled % unit).toString().padStart(scale, "0")}`;
}

const PRICE_MAX = 999_999n; // XXXX.XX yuan/m³
const THRESHOLD_MAX = 999_999n; // XXXXXX m³
const AMOUNT_MAX = 99_999_999n; // XXXXXX.XX yuan

/**
 * The price table a charging scheme puts into a CJ/T 188 meter (codec parameters.ts): a flat price
 * fills all three steps (thresholds 0, so every m³ is at step 3, the same price); a ladder of up
 * to three tiers gives its prices and the limits where tiers 1 and 2 end (a two-tier ladder repeats
 * its second price and limit). A value the meter cannot hold is a 400 naming the scheme field;
 * undefined means the scheme has nothing a water meter can hold (time-of-use bands).
 */
export function waterPriceTable(
  scheme: Pick<WaterRow, "price_mode" | "price" | "ladder">,
): cjt188.WaterPriceTable | undefined {
  if (scheme.price_mode === 1) {
    const price = fitted("price", scheme.price ?? "0", 2, PRICE_MAX);
    return { prices: [price, price, price], thresholds: ["0", "0"] };
  }
  if (scheme.price_mode !== 2) return undefined;
  const tiers = ladderTiers(scheme.ladder);
  if (tiers.length === 0) throw badRequest("ladder: 阶梯方案没有阶梯");
  if (tiers.length > 3) throw badRequest("ladder: 水表价格表最多 3 档阶梯水价");
  const prices = tiers.map((tier) => fitted("ladder", tier.price, 2, PRICE_MAX));
  const limits = tiers.flatMap((tier) =>
    tier.limit === null ? [] : [fitted("ladder", tier.limit, 0, THRESHOLD_MAX)],
  );
  const price = (i: number) => prices[Math.min(i, prices.length - 1)]!;
  const limit = (i: number) => limits[Math.min(i, limits.length - 1)] ?? "0";
  return { prices: [price(0), price(1), price(2)], thresholds: [limit(0), limit(1)] };
}

/**
 * Alarm amounts 1 and 2 of an alarm scheme (vendor convention A0F1: the meter holds both, so a
 * level the scheme leaves empty is written as 0, no warning). Undefined when it sets neither.
 */
export function waterAlarmAmounts(
  scheme: Pick<WaterRow, "first_alarm" | "second_alarm">,
): cjt188.WaterAlarmAmounts | undefined {
  if (scheme.first_alarm === null && scheme.second_alarm === null) return undefined;
  return {
    first: fitted("firstAlarm", scheme.first_alarm ?? "0", 2, AMOUNT_MAX),
    second: fitted("secondAlarm", scheme.second_alarm ?? "0", 2, AMOUNT_MAX),
  };
}

/**
 * Queues the price table (waterparam/modWaterPriceBatch) or alarm amounts (modWaterAlarmBatch) of
 * water meters: for each meter, the values of its open account's charging or alarm scheme as one
 * CJ/T 188 write, sent once by the gateway and settled by the meter's acknowledgement verified by
 * a read-back, or, after a timeout, by the read-back alone (design.md §5).
 *
 * Every value is checked before anything is queued: one the meter cannot hold refuses the whole
 * batch with a 400 naming its field. A meter that cannot be written (unknown, another tenant's or
 * outside the caller's scope, no open account, no collector, a write of the same kind unsettled,
 * no scheme to write) is named in `skipped` with why, and the others are queued.
 */
export async function queueWaterWriteBatch(
  db: Queryable,
  user: CurrentUser,
  tenantId: string,
  meterIds: readonly string[],
  part: WaterWritePart,
  source: string,
  options: { startDay: number; hidden?: readonly string[] },
  sink: CommandSink = enqueueCommands,
): Promise<SwitchOutcome> {
  const { all, wanted } = batchMeterIds(meterIds, options.hidden);
  // Locked in id order so two batches on the same meters queue one after the other, never both.
  await db.query(
    "select id from pms_water where id = any($1::bigint[]) and tenant_id = $2 order by id for update",
    [wanted, tenantId],
  );
  const rows = await db.query<WaterRow>(
    `select m.id::text as id, m.product_code, m.collector_id::text as collector_id, a.id::text as account_id,
            cs.price_mode, cs.price::text as price, cs.ladder,
            s.first_alarm::text as first_alarm, s.second_alarm::text as second_alarm,
            exists (select 1 from pms_meter_command c
                     where c.tenant_id = m.tenant_id and c.energy_type = 2 and c.meter_id = m.id
                       and c.command_type = $3 and c.state in ('queued', 'sent'))
            or ${pendingInJobSql("m", [part === "price" ? "waterPrice" : "waterAlarm"], 2)} as pending
       from pms_water m
       left join pms_account a on a.meter_id = m.id and a.energy_type = 2 and a.status = 1
                              and a.tenant_id = m.tenant_id
       left join pms_charging_scheme cs on cs.id = a.charging_scheme_id and cs.is_deleted = 0
       left join pms_alarm_scheme s on s.id = a.alarm_scheme_id and s.is_deleted = 0
      where m.id = any($1::bigint[]) and m.tenant_id = $2 and m.is_deleted = 0`,
    [wanted, tenantId, WATER_WRITE[part]],
  );
  const found = new Map(rows.map((row) => [row.id, row]));
  // Another tenant's meter reads as absent, like any id the caller may not see.
  const skipped: SwitchOutcome["skipped"] = all
    .filter((id) => !found.has(id))
    .map((meterId) => ({ meterId, productCode: "", reason: "表计不存在" }));
  const commands: QueuedCommand[] = [];
  for (const meter of [...found.values()].sort((a, b) => a.product_code.localeCompare(b.product_code))) {
    const skip = (reason: string) =>
      skipped.push({ meterId: meter.id, productCode: meter.product_code, reason });
    if (!meter.account_id) skip("表计未开户");
    else if (!meter.collector_id) skip("未绑定采集器");
    else if (meter.pending) skip("仍有未完成的同类写表命令");
    else if (part === "price") {
      const table = waterPriceTable(meter);
      if (!table) skip(meter.price_mode === null ? "账户未设置收费方案" : "水表不支持分时计价方案");
      else commands.push(command(meter, part, { ...table, startDay: options.startDay }));
    } else {
      const amounts = waterAlarmAmounts(meter);
      if (!amounts) skip("账户未设置告警方案");
      else commands.push(command(meter, part, { ...amounts }));
    }
  }
  if (commands.length === 0) return { batchId: null, queued: 0, skipped };
  const batch = await sink(db, user, tenantId, commands, source);
  return { batchId: batch.batchId, queued: batch.queued, skipped };
}

function command(meter: WaterRow, part: WaterWritePart, payload: Record<string, unknown>): QueuedCommand {
  return {
    energyType: 2,
    meterId: meter.id,
    productCode: meter.product_code,
    commandType: WATER_WRITE[part],
    payload,
  };
}

import { cycleKey, fenToYuan, toUnits } from "@meterline/billing";
import { badRequest, notFound } from "../../contract/errors.ts";
import type { Db, Queryable } from "../../db/client.ts";
import { nextId } from "../../db/ids.ts";
import { localDay } from "../metering/usage-periods.ts";
import { lockAccount, METER_TABLE } from "./account.repository.ts";
import { type Actor, book, LEDGER_TYPE } from "./account-book.ts";
import { settleSupply } from "./arrears.ts";
import { knownPurchaseCount, purchaseWrite, queueMeterWrites } from "./meter-purchase.ts";
import { purchaseCountNeeded } from "./opening-needs.ts";
import { restoreOnOpening } from "./opening-supply.ts";
import { schemeWrites } from "./scheme-writes.ts";

interface MeterForOpening {
  id: string;
  account_status: number;
  control_status: number;
  charging_scheme_id: string | null;
  alarm_scheme_id: string | null;
  room_id: string | null;
  owner_id: string | null;
  price_mode: number | null;
  ladder_cycle: number | null;
  read_time: Date | null;
  total_value: string | null;
  tip_value: string | null;
  peak_value: string | null;
  peace_value: string | null;
  low_value: string | null;
}

/** A register as opening reads it: the latest reading, else the initial reading stored at install. */
const register = (column: string) =>
  `case when cd.read_time is not null then cd.${column} else ov.${column} end as ${column}`;

/**
 * Locks the meter and reads what opening needs: its room's owner, its schemes, its registers now
 * (never read yet: the registers at install, so the first priced usage starts from them).
 */
async function meterForOpening(tx: Queryable, tenantId: string, energyType: 1 | 2, meterId: string) {
  const table = METER_TABLE[energyType];
  // Water meters have no CONTROL_STATUS field: the server always keeps their balance.
  const control = energyType === 1 ? "m.control_status" : "1";
  const [row] = await tx.query<MeterForOpening>(
    `select m.id, m.account_status, ${control} as control_status, m.charging_scheme_id, m.alarm_scheme_id,
            rm.room_id, orr.owner_id, cs.price_mode, cs.ladder_cycle, ${register("read_time")},
            ${["total_value", "tip_value", "peak_value", "peace_value", "low_value"].map(register).join(", ")}
       from ${table} m
       left join pms_room_meter rm on rm.meter_id = m.id and rm.energy_type = $3 and rm.is_deleted = 0
       left join pms_owner_room orr on orr.room_id = rm.room_id and orr.is_deleted = 0
       left join pms_charging_scheme cs on cs.id = m.charging_scheme_id and cs.is_deleted = 0
       left join pms_meter_current_data cd on cd.meter_id = m.id and cd.energy_type = $3 and cd.tenant_id = m.tenant_id
       left join pms_meter_orig_value ov on ov.meter_id = m.id and ov.energy_type = $3 and ov.tenant_id = m.tenant_id
                                        and ov.is_deleted = 0
      where m.id = $1 and m.tenant_id = $2 and m.is_deleted = 0
        for update of m`,
    [meterId, tenantId, energyType],
  );
  return row;
}

const units = (value: string | null) => (value === null ? null : toUnits(value, 2).toString());

export interface OpenedAccount {
  accountId: string;
  meterId: string;
  balance: string;
  /**
   * Local-prepaid meters: the commands queued to write the schemes and then the deposit (the last
   * one, when there is a deposit) to the meter; the deposit is booked once the meter confirms it.
   */
  meterWrites?: { commandIds: string[]; depositCommandId: string | null };
}

/** A meter to open, its deposit (fen) and how the deposit was paid (PAYMENT_METHOD, cash if unsaid). */
export interface OpeningTarget {
  energyType: 1 | 2;
  meterId: string;
  deposit: bigint;
  paymentMethod?: number;
}

/**
 * Opens the account of a meter for the owner of its room, with the meter's charging and alarm
 * schemes, and books the opening deposit. Usage before this moment is never charged: the meter's
 * registers now are where pricing starts.
 */
export async function openAccount(
  tx: Queryable,
  tenantId: string,
  target: OpeningTarget,
  actor: Actor,
  timeZone: string,
): Promise<OpenedAccount> {
  const meter = await meterForOpening(tx, tenantId, target.energyType, target.meterId);
  if (!meter) throw notFound("meterId: 表计不存在");
  if (meter.account_status === 1) throw badRequest(`meterId: 表计 ${target.meterId} 已开户`);
  if (!meter.room_id) throw badRequest("meterId: 表计未绑定房间");
  if (!meter.owner_id) throw badRequest("meterId: 表计所在房间没有业主");
  if (meter.control_status === 1 && meter.price_mode === null)
    throw badRequest("chargingSchemeId: 表计未设置收费方案,不能开户");
  if (meter.control_status === 0 && target.energyType === 1 && target.deposit > 0n) {
    // Said before anything is written, in words the operator acts on (not only "count unknown").
    if ((await knownPurchaseCount(tx, target.meterId)) === undefined)
      throw badRequest(`deposit: ${await purchaseCountNeeded(tx, tenantId, target.meterId)}`);
  }
  // A yearly ladder accumulates over the year; every other price's rounding restarts monthly.
  const cycle = meter.price_mode === 2 && meter.ladder_cycle === 2 ? "year" : "month";
  const accountId = nextId();
  await tx.query(
    `insert into pms_account (id, tenant_id, owner_id, room_id, energy_type, meter_id, control_status,
                              charging_scheme_id, alarm_scheme_id, cycle_key, register_total, register_tip,
                              register_peak, register_peace, register_low, priced_time, open_user, priced_from, deposit_method)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $16, $18)`,
    [
      accountId,
      tenantId,
      meter.owner_id,
      meter.room_id,
      target.energyType,
      target.meterId,
      meter.control_status,
      meter.charging_scheme_id,
      meter.alarm_scheme_id,
      cycleKey(localDay(new Date(), timeZone), cycle),
      units(meter.total_value),
      units(meter.tip_value),
      units(meter.peak_value),
      units(meter.peace_value),
      units(meter.low_value),
      // Pricing goes on from the reading the registers came from.
      meter.read_time,
      actor.userId || null,
      target.deposit > 0n ? (target.paymentMethod ?? 1) : null,
    ],
  );
  await tx.query(`update ${METER_TABLE[target.energyType]} set account_status = 1 where id = $1`, [
    target.meterId,
  ]);
  const account = await lockAccount(tx, tenantId, accountId);
  if (!account) throw new Error(`account ${accountId} vanished inside its own transaction`);
  if (account.control_status === 0 && account.energy_type === 1) {
    const meterWrites = await writeToMeter(tx, account, meter, target.deposit, actor);
    return { accountId, meterId: target.meterId, balance: fenToYuan(BigInt(account.balance)), meterWrites };
  }
  if (target.deposit > 0n) {
    await book(tx, account, {
      type: LEDGER_TYPE.openingDeposit,
      amount: target.deposit,
      cause: "开户预存",
      actor,
    });
  }
  // Opened without enough to cover the overdraft line: supply goes off like any account in arrears.
  if (account.control_status === 1) {
    // `book` moved the locked row's balance: both read the balance the deposit left.
    await settleSupply(tx, account, new Date(), timeZone);
    await restoreOnOpening(tx, account, actor);
  }
  return { accountId, meterId: target.meterId, balance: fenToYuan(BigInt(account.balance)) };
}

/**
 * A local-prepaid meter keeps the balance itself: its schemes' prices and limits are written to it,
 * and the deposit goes in as a purchase (booked when the meter confirms it, see purchase-settlement.ts).
 */
async function writeToMeter(
  tx: Queryable,
  account: NonNullable<Awaited<ReturnType<typeof lockAccount>>>,
  meter: MeterForOpening,
  deposit: bigint,
  actor: Actor,
): Promise<NonNullable<OpenedAccount["meterWrites"]>> {
  const writes = await schemeWrites(tx, meter.charging_scheme_id, meter.alarm_scheme_id);
  if (deposit > 0n) writes.push(await purchaseWrite(tx, account, deposit, { deposit: true }, "deposit"));
  if (writes.length === 0) return { commandIds: [], depositCommandId: null };
  const commandIds = await queueMeterWrites(tx, account, writes, "account/open", actor);
  return { commandIds, depositCommandId: deposit > 0n ? commandIds.at(-1)! : null };
}

/** Opens several meters' accounts, all or nothing (a batch from the open-account tree). */
export function openAccounts(
  db: Db,
  tenantId: string,
  targets: OpeningTarget[],
  actor: Actor,
  timeZone: string,
): Promise<OpenedAccount[]> {
  return db.transaction(async (tx) => {
    const opened: OpenedAccount[] = [];
    for (const target of targets) opened.push(await openAccount(tx, tenantId, target, actor, timeZone));
    return opened;
  });
}

import {
  advance,
  BANDS,
  balanceLevel,
  type ChargePart,
  type CycleUsage,
  chargeBetween,
  chargeParts,
  cycleKey,
  cycleOf,
  monthlyFeeFen,
  settleParts,
  type Tariff,
  type Thresholds,
} from "@meterline/billing";
import { createRandom, DEFAULT_METER_PRICES } from "@meterline/simulator";
import type { Queryable } from "../db/client.ts";
import { nextId } from "../db/ids.ts";
import { wholePart } from "../modules/money/account.repository.ts";
import { LEDGER_TYPE } from "../modules/money/account-book.ts";
import { insertRows } from "./bulk-insert.ts";
import { demoDay, type MeterHistory } from "./demo-history.ts";

/** One balance change of the demo's past, before it becomes a ledger row. */
interface MoneyEvent {
  at: number;
  type: number;
  amount: bigint;
  cause: string;
  creator: string;
  usage?: bigint;
  usageDay?: string;
  /** For usage charges: the split by tier or band, as live pricing writes it. */
  parts?: ChargePart[];
  /** For recharges, refunds and corrections: RECHARGE_TYPE and PAYMENT_METHOD. */
  recharge?: { type: 1 | 2 | 3 | 4; method: number; remark: string };
}

/** An account of the demo with its whole past, ready to be written. */
export interface DemoAccount {
  id: string;
  history: MeterHistory;
  openedAt: number;
  events: MoneyEvent[];
  /** The pricing position at the last read: cycle, cycle-to-date usage, registers, fee month. */
  cycle: { key: string; usage: CycleUsage; registers: number[]; pricedAt: number; feeMonth: string | null };
  /** Set on the account cut for arrears: when its balance reached the cut line. */
  cutAt?: number;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** The demo's days are Beijing days (UTC+8). */
const OFFSET_MS = 8 * HOUR_MS;
/** A remote-control owner recharges when the balance falls below this (fen), within a few hours. */
const RECHARGE_BELOW = 8_000n;
const AMOUNTS = [10_000n, 20_000n, 30_000n, 50_000n];
/** PAYMENT_METHOD: 1 cash, 2 UnionPay, 3 WeChat, 4 Alipay, 5 WeChat online, 0 other. */
const METHODS = [1, 2, 3, 4, 5, 0];
const PRICING = "计费";
const METER_DEDUCTION = "表内扣费";

/** The pricing of one read: its usage step per band, priced by the account's tariff as live pricing does. */
function usageStep(history: MeterHistory, i: number): CycleUsage {
  const now = history.registers[i]!;
  const before = history.registers[i - 1]!;
  const steps = now.map((v, band) => BigInt(Math.max(0, v - before[band]!)));
  const total = steps.reduce((a, b) => a + b, 0n);
  if (history.meter.energyType === 2) return { total, bands: { peace: total } };
  return { total, bands: Object.fromEntries(BANDS.map((band, i) => [band, steps[i]!])) };
}

/**
 * The charges an account's reads booked: remote-control accounts by their scheme through the same
 * rounding as live pricing (cycle-to-date cost rounded, each read charged its step) plus the fixed
 * fee at a month's first read; local-prepaid accounts by the meter's own band prices and its own
 * rule (whole fen taken as the cost reaches them), so the account follows the meter's balance.
 * Pricing starts from the read before the opening, as opening an account does.
 */
function chargeEvents(history: MeterHistory, tariff: Tariff | undefined, openedAt: number) {
  const events: MoneyEvent[] = [];
  const first = history.times.findIndex((t) => t > openedAt);
  const remote = history.meter.controlStatus === 1 && tariff !== undefined;
  let position: CycleUsage = { total: 0n, bands: { tip: 0n, peak: 0n, peace: 0n, low: 0n } };
  let key = "";
  let feeMonth: string | null = null;
  let micro = 0n;
  let taken = 0n;
  let dayUsage = 0n;
  // The meter's day by band, for the charge's split (its own band prices, rounded as the meter takes fen).
  const freshBands = () => BANDS.map((part) => ({ part: part as string, usage: 0n, micro: 0n }));
  let dayBands = freshBands();
  for (let i = first; i < history.times.length; i++) {
    const at = history.times[i]!;
    const day = demoDay(at);
    const step = usageStep(history, i);
    if (remote) {
      const nextKey = cycleKey(day, cycleOf(tariff));
      if (nextKey !== key) position = { total: 0n, bands: { tip: 0n, peak: 0n, peace: 0n, low: 0n } };
      key = nextKey;
      const moved = advance(position, step);
      const charge = chargeBetween(tariff, position, moved);
      const parts = chargeParts(tariff, position, moved);
      position = moved;
      if (charge > 0n)
        events.push({
          at,
          type: LEDGER_TYPE.usageCharge,
          amount: -charge,
          cause: `用量 ${day}`,
          creator: PRICING,
          usage: step.total,
          usageDay: day,
          parts,
        });
      if (feeMonth !== day.slice(0, 7)) {
        feeMonth = day.slice(0, 7);
        const fee = monthlyFeeFen(tariff);
        if (fee > 0n)
          events.push({
            at: at + 1,
            type: LEDGER_TYPE.monthlyFee,
            amount: -fee,
            cause: `月固定费 ${feeMonth}`,
            creator: PRICING,
            usageDay: day,
          });
      }
    } else {
      // The meter takes whole fen as its cost reaches them; its account shadows that once a day.
      BANDS.forEach((band, b) => {
        const usage = step.bands?.[band] ?? 0n;
        const cost = usage * BigInt(DEFAULT_METER_PRICES[b]!);
        micro += cost;
        dayBands[b]!.usage += usage;
        dayBands[b]!.micro += cost;
      });
      dayUsage += step.total;
      const endOfDay = i === history.times.length - 1 || demoDay(history.times[i + 1]!) !== day;
      const charge = micro / 10_000n - taken;
      if (endOfDay && charge > 0n) {
        taken += charge;
        events.push({
          at,
          type: LEDGER_TYPE.usageCharge,
          amount: -charge,
          cause: `表内扣费 ${day}`,
          creator: METER_DEDUCTION,
          usage: dayUsage,
          usageDay: day,
          parts: settleParts(dayBands, charge),
        });
      }
      if (endOfDay) {
        dayUsage = 0n;
        dayBands = freshBands();
      }
    }
  }
  const last = history.times.length - 1;
  return {
    events,
    cycle: {
      key,
      usage: position,
      registers: history.registers[last]!,
      pricedAt: history.times[last]!,
      feeMonth,
    },
  };
}

const sumOf = (events: readonly MoneyEvent[]) => events.reduce((sum, e) => sum + e.amount, 0n);

/** Where an account's money ends, chosen so the demo shows every balance level. */
export type DemoRole =
  | { kind: "ordinary" }
  | { kind: "low"; finalFen: bigint }
  | { kind: "arrears"; cutAt: number };

/**
 * The money past of one account: the opening deposit, the charges of its reads and, for an
 * ordinary remote-control account, the recharges its owner made whenever the balance ran low.
 * A low account recharged nothing and ends at `finalFen`; the arrears account's deposit runs out
 * so its balance reaches the cut line exactly at `cutAt`. Local-prepaid accounts end at the
 * balance their meter reports when the fleet starts.
 */
export function accountPast(
  history: MeterHistory,
  tariff: Tariff | undefined,
  role: DemoRole,
  meterBalanceFen: bigint,
  cutLine: bigint,
): DemoAccount {
  const openedAt = history.times[0]! + 8.5 * HOUR_MS + history.meter.planned.index * 60_000;
  const { events: charges, cycle } = chargeEvents(history, tariff, openedAt);
  const random = createRandom(`demo-money:${history.meter.planned.address}`);
  const deposit = (amount: bigint): MoneyEvent => ({
    at: openedAt,
    type: LEDGER_TYPE.openingDeposit,
    amount,
    cause: "开户预存",
    creator: "演示数据",
  });
  const account = { id: nextId(), history, openedAt, cycle };
  if (history.meter.controlStatus === 0)
    return { ...account, events: [deposit(meterBalanceFen - sumOf(charges)), ...charges] };
  if (role.kind === "low")
    return { ...account, events: [deposit(role.finalFen - sumOf(charges)), ...charges] };
  if (role.kind === "arrears") {
    const upToCut = sumOf(charges.filter((e) => e.at <= role.cutAt));
    return { ...account, cutAt: role.cutAt, events: [deposit(cutLine - upToCut), ...charges] };
  }
  const events = [deposit(20_000n + BigInt(random.int(4)) * 10_000n)];
  let balance = events[0]!.amount;
  const lastRead = history.times.at(-1)!;
  for (const charge of charges) {
    events.push(charge);
    balance += charge.amount;
    if (balance >= RECHARGE_BELOW || charge.type === LEDGER_TYPE.monthlyFee) continue;
    const at = charge.at + HOUR_MS + random.int(4 * 60) * 60_000;
    // The past ends at the last read: a visit due after it is left to the live demo.
    if (at >= lastRead) continue;
    const amount = AMOUNTS[random.int(AMOUNTS.length)]!;
    events.push({
      at,
      type: LEDGER_TYPE.recharge,
      amount,
      cause: "",
      creator: "",
      recharge: { type: 1, method: -1, remark: "" },
    });
    balance += amount;
  }
  return { ...account, events };
}

/**
 * Refunds and corrections: a few, on ordinary accounts, at fixed days back so every period of the
 * home page's pies has each kind. Added after the recharges, each where the account's balance allows it.
 */
export function addAdjustments(accounts: readonly DemoAccount[], startsAt: number): void {
  const plan: { daysBack: number; type: 2 | 3 | 4; amount: bigint; remark: string }[] = [
    { daysBack: 1, type: 2, amount: 3_000n, remark: "业主申请退款" },
    { daysBack: 2, type: 3, amount: 1_000n, remark: "补录漏记充值" },
    { daysBack: 3, type: 4, amount: 500n, remark: "重复录入,冲正" },
    { daysBack: 9, type: 2, amount: 2_000n, remark: "业主申请退款" },
    { daysBack: 16, type: 3, amount: 2_000n, remark: "补录漏记充值" },
    { daysBack: 24, type: 4, amount: 1_000n, remark: "金额录入错误,冲正" },
    { daysBack: 37, type: 2, amount: 5_000n, remark: "退租退款" },
    { daysBack: 51, type: 3, amount: 500n, remark: "补录漏记充值" },
  ];
  const ordinary = accounts.filter((a) => a.events.some((e) => e.recharge));
  for (const [k, item] of plan.entries()) {
    const at = startsAt - item.daysBack * 24 * HOUR_MS - 3 * HOUR_MS + k * 60_000;
    for (let tries = 0; tries < ordinary.length; tries++) {
      const account = ordinary[(k * 7 + tries) % ordinary.length]!;
      const before = sumOf(account.events.filter((e) => e.at <= at));
      // A refund or a correction minus never takes an owner below the recharge line.
      if (item.type !== 3 && before - item.amount < RECHARGE_BELOW * 2n) continue;
      const sign = item.type === 3 ? 1n : -1n;
      const type = { 2: LEDGER_TYPE.refund, 3: LEDGER_TYPE.correctionPlus, 4: LEDGER_TYPE.correctionMinus }[
        item.type
      ];
      account.events.push({
        at,
        type,
        amount: sign * item.amount,
        cause: item.remark,
        creator: "",
        recharge: { type: item.type, method: item.type === 2 ? 1 : 0, remark: item.remark },
      });
      break;
    }
  }
}

/** Recharges take the payment methods in turn, in time order: every method in every period. */
export function assignMethods(accounts: readonly DemoAccount[]): void {
  const recharges = accounts
    .flatMap((a) => a.events)
    .filter((e) => e.recharge?.type === 1)
    .sort((a, b) => a.at - b.at);
  recharges.forEach((e, i) => {
    e.recharge!.method = METHODS[i % METHODS.length]!;
  });
}

const receiptNo = (id: string, at: number) => `R${demoDay(at).replaceAll("-", "")}${id.slice(-10)}`;

/**
 * Writes the accounts, their ledgers and recharges with the times they happened, each account's
 * balance, level and pricing position where its last entry left them, and the owners' balances.
 */
export async function writeAccounts(
  db: Queryable,
  tenantId: string,
  accounts: readonly DemoAccount[],
  options: {
    thresholds: Thresholds;
    operator: { id: string; name: string };
    /** Days (yyyy-MM-dd) to close, oldest first: one pms_account_day row per account and day. */
    closeDays: readonly string[];
  },
): Promise<void> {
  const closed: unknown[][] = [];
  const ledger: unknown[][] = [];
  const parts: unknown[][] = [];
  const recharges: unknown[][] = [];
  const rows: unknown[][] = [];
  for (const account of accounts) {
    const { meter } = account.history;
    const events = [...account.events].sort((a, b) => a.at - b.at || a.type - b.type);
    let balance = 0n;
    for (const e of events) {
      balance += e.amount;
      const ledgerId = nextId();
      const rechargeId = e.recharge ? nextId() : null;
      const creator = e.creator || options.operator.name;
      // As pricing books them: a charge whole in one part keeps it on its entry, others in rows.
      const part = wholePart(e.parts ?? [], e.usage, e.amount);
      ledger.push([
        ledgerId,
        tenantId,
        account.id,
        meter.ownerId,
        e.type,
        e.amount.toString(),
        balance.toString(),
        rechargeId,
        e.usage?.toString() ?? null,
        e.usageDay ?? null,
        e.cause,
        e.creator ? null : options.operator.id,
        creator,
        new Date(e.at),
        part,
      ]);
      if (part === null)
        for (const p of e.parts ?? [])
          parts.push([
            ledgerId,
            tenantId,
            account.id,
            p.part,
            p.usage.toString(),
            p.charge.toString(),
            new Date(e.at),
          ]);
      if (e.recharge && rechargeId)
        recharges.push([
          rechargeId,
          tenantId,
          account.id,
          meter.ownerId,
          meter.energyType,
          meter.id,
          e.recharge.type,
          e.recharge.method,
          (e.amount < 0n ? -e.amount : e.amount).toString(),
          balance.toString(),
          ledgerId,
          receiptNo(rechargeId, e.at),
          `demo-${rechargeId}`,
          creator,
          e.recharge.remark,
          options.operator.id,
          new Date(e.at),
          new Date(e.at),
        ]);
    }
    for (const row of closeDays(account.id, events, options.closeDays)) closed.push([tenantId, ...row]);
    const level = balanceLevel(balance, options.thresholds);
    const { cycle } = account;
    const water = meter.energyType === 2;
    const registers = water ? [null, null, null, null] : cycle.registers.map(String);
    rows.push([
      account.id,
      tenantId,
      meter.ownerId,
      meter.roomId,
      meter.energyType,
      meter.id,
      meter.controlStatus,
      meter.chargingSchemeId,
      meter.alarmSchemeId,
      balance.toString(),
      level,
      level === 3 ? 1 : 0,
      cycle.key || null,
      cycle.usage.total.toString(),
      ...BANDS.map((b) => (cycle.usage.bands?.[b] ?? 0n).toString()),
      String(cycle.registers.reduce((a, b) => a + b, 0)),
      ...registers,
      new Date(cycle.pricedAt),
      cycle.feeMonth,
      new Date(account.openedAt),
      options.operator.id,
    ]);
  }
  await insertRows(db, "pms_account", ACCOUNT_COLUMNS, rows);
  await insertRows(db, "pms_ledger", LEDGER_COLUMNS, ledger);
  await insertRows(db, "pms_ledger_part", PART_COLUMNS, parts);
  await insertRows(db, "pms_recharge", RECHARGE_COLUMNS, recharges);
  await recordDemoPayments(db, tenantId);
  await insertRows(db, "pms_account_day", ACCOUNT_DAY_COLUMNS, closed);
  await db.query(
    `update pms_owner o set balance = s.total / 100.0
       from (select owner_id, sum(balance) as total from pms_account where tenant_id = $1 group by owner_id) s
      where o.id = s.owner_id and o.tenant_id = $1`,
    [tenantId],
  );
}

/**
 * The daily close of an account's days, by the rules of closeDay (daily-close.ts): the day's usage
 * and usage charges, fixed fees, money in, money out otherwise, the balances before and after it and
 * the number of entries. Worked out here from the entries the demo writes rather than by 60 runs of
 * the close, which would take longer than the rest of the demo's start together.
 */
function closeDays(accountId: string, events: readonly MoneyEvent[], days: readonly string[]) {
  const rows: unknown[][] = [];
  let i = 0;
  let balance = 0n;
  for (const day of days) {
    const end = Date.parse(`${day}T00:00:00Z`) + DAY_MS - OFFSET_MS;
    const opening = balance;
    const sums = { usage: 0n, charge: 0n, fee: 0n, credit: 0n, debit: 0n, entries: 0 };
    for (; i < events.length && events[i]!.at < end; i++) {
      const e = events[i]!;
      balance += e.amount;
      sums.entries++;
      if (e.type === LEDGER_TYPE.usageCharge) {
        sums.usage += e.usage ?? 0n;
        sums.charge -= e.amount;
      } else if (e.type === LEDGER_TYPE.monthlyFee) sums.fee -= e.amount;
      if (e.amount > 0n) sums.credit += e.amount;
      else if (e.type !== LEDGER_TYPE.usageCharge && e.type !== LEDGER_TYPE.monthlyFee)
        sums.debit -= e.amount;
    }
    rows.push(
      [
        accountId,
        day,
        opening,
        sums.usage,
        sums.charge,
        sums.fee,
        sums.credit,
        sums.debit,
        balance,
        sums.entries,
      ].map(String),
    );
  }
  return rows;
}

const cols = (spec: string) =>
  spec.split(",").map((c) => {
    const [name, type] = c.trim().split(" ");
    return [name!, type!] as const;
  });
const ACCOUNT_COLUMNS = cols(
  "id bigint, tenant_id text, owner_id bigint, room_id bigint, energy_type int, meter_id bigint, control_status int, charging_scheme_id bigint, alarm_scheme_id bigint, balance bigint, alarm_level int, arrears_status int, cycle_key text, cycle_total bigint, cycle_tip bigint, cycle_peak bigint, cycle_peace bigint, cycle_low bigint, register_total bigint, register_tip bigint, register_peak bigint, register_peace bigint, register_low bigint, priced_time timestamptz, fee_month text, opened_time timestamptz, open_user bigint",
);
const LEDGER_COLUMNS = cols(
  "id bigint, tenant_id text, account_id bigint, owner_id bigint, entry_type int, amount bigint, balance_after bigint, recharge_id bigint, usage bigint, usage_day date, cause text, create_user bigint, creator text, create_time timestamptz, part text",
);
const PART_COLUMNS = cols(
  "ledger_id bigint, tenant_id text, account_id bigint, part text, usage bigint, charge bigint, create_time timestamptz",
);
const ACCOUNT_DAY_COLUMNS = cols(
  "tenant_id text, account_id bigint, day date, opening_balance bigint, usage bigint, usage_charge bigint, fee bigint, credit bigint, debit bigint, closing_balance bigint, entries int",
);
const RECHARGE_COLUMNS = cols(
  "id bigint, tenant_id text, account_id bigint, owner_id bigint, energy_type int, meter_id bigint, recharge_type int, payment_method int, amount bigint, balance_after bigint, ledger_id bigint, receipt_no text, idempotency_key text, operator text, remark text, create_user bigint, create_time timestamptz, update_time timestamptz",
);

/**
 * Money the demo's past took in is money received: each recharge gets its paid payment, dated with
 * it, as one taken at the counter (or online for WeChat online) would have recorded it.
 */
async function recordDemoPayments(db: Queryable, tenantId: string): Promise<void> {
  const taken = await db.query<{ id: string }>(
    "select id::text as id from pms_recharge where tenant_id = $1 and recharge_type = 1 and payment_id is null",
    [tenantId],
  );
  if (taken.length === 0) return;
  await db.query(
    `with m as (select unnest($2::bigint[]) as recharge_id, unnest($3::bigint[]) as payment_id),
          paid as (
            insert into pms_payment (id, tenant_id, owner_id, account_id, energy_type, meter_id, amount, payment_method,
                                     channel, state, transaction_no, paid_time, remark, operator, create_user,
                                     create_time, update_time)
            select m.payment_id, r.tenant_id, r.owner_id, r.account_id, r.energy_type, r.meter_id, r.amount,
                   r.payment_method, case when r.payment_method = 5 then 'online' else 'counter' end, 1,
                   r.receipt_no, r.create_time, r.remark, r.operator, r.create_user, r.create_time, r.create_time
              from m join pms_recharge r on r.id = m.recharge_id and r.tenant_id = $1
            returning id)
     update pms_recharge r set payment_id = m.payment_id from m where r.id = m.recharge_id and r.tenant_id = $1`,
    [tenantId, taken.map((row) => row.id), taken.map(() => nextId())],
  );
}

import { fenToYuan } from "@meterline/billing";
import { page } from "../../contract/envelope.ts";
import { badRequest, notFound } from "../../contract/errors.ts";
import { optionalId, optionalString } from "../../contract/params.ts";
import type { Queryable } from "../../db/client.ts";
import {
  type AccountMonthRow,
  accountMonths,
  countAccountMonths,
  type MonthBounds,
  monthBounds,
  monthParts,
  type ScopeKind,
  scopeName,
  tenantName,
} from "./month-statement.repository.ts";
import { METER_PRICED } from "./shadow-balance.ts";

const SCOPES: readonly ScopeKind[] = ["account", "owner", "room", "building", "site"];
/** Accounts read per round trip when a statement sums its whole scope: memory holds one batch. */
const BATCH = 1000;
/** The part of a usage charge booked without a split (before parts were kept, or by a meter of its own). */
export const UNSPLIT = "unsplit";

export interface MonthStatementRequest {
  month: string;
  kind: ScopeKind;
  scopeId: string | null;
}

/** `month` (yyyy-MM), `scope` and, unless the whole site, `scopeId`; 400 naming the field otherwise. */
export function monthStatementRequest(params: Record<string, unknown>): MonthStatementRequest {
  const month = optionalString(params, "month")?.trim();
  if (!month || !/^\d{4}-(0[1-9]|1[0-2])$/.test(month)) throw badRequest("month: 请选择月份 (yyyy-MM)");
  const kind = (optionalString(params, "scope")?.trim() || "site") as ScopeKind;
  if (!SCOPES.includes(kind)) throw badRequest("scope: 只能是 account、owner、room、building 或 site");
  if (kind === "site") return { month, kind, scopeId: null };
  const scopeId = optionalId(params, "scopeId");
  if (!scopeId) throw badRequest("scopeId: 请选择对账范围");
  return { month, kind, scopeId };
}

/** Money of a month in fen, summed over accounts. */
class Sums {
  opening = 0n;
  deposit = 0n;
  recharge = 0n;
  refund = 0n;
  correction = 0n;
  usageCorrection = 0n;
  apportion = 0n;
  usageCharge = 0n;
  fee = 0n;
  closing = 0n;
  accounts = 0;
  /** Per energy type: usage and usage charge, and their split by tier or band. */
  energy = new Map<
    number,
    { usage: bigint; charge: bigint; parts: Map<string, { usage: bigint; charge: bigint }> }
  >();

  add(row: AccountMonthRow) {
    this.opening += BigInt(row.opening);
    this.deposit += BigInt(row.deposit);
    this.recharge += BigInt(row.recharge);
    this.refund += BigInt(row.refund);
    this.correction += BigInt(row.correction);
    this.usageCorrection += BigInt(row.usage_correction);
    this.apportion += BigInt(row.apportion);
    this.usageCharge += BigInt(row.usage_charge);
    this.fee += BigInt(row.fee);
    this.closing += BigInt(row.closing);
    this.accounts++;
    const energy = this.energyOf(row.energy_type);
    energy.usage += BigInt(row.usage);
    energy.charge += BigInt(row.usage_charge);
  }

  energyOf(type: number) {
    let energy = this.energy.get(type);
    if (!energy) {
      energy = { usage: 0n, charge: 0n, parts: new Map() };
      this.energy.set(type, energy);
    }
    return energy;
  }
}

/**
 * The order parts are listed in: ladder tiers, then time-of-use bands, flat, what local-prepaid
 * meters priced themselves, what was not split.
 */
const partOrder = (part: string) => {
  const tier = /^tier(\d+)$/.exec(part);
  if (tier) return Number(tier[1]);
  const fixed = ["tip", "peak", "peace", "low", "flat", METER_PRICED, UNSPLIT].indexOf(part);
  return 100 + (fixed < 0 ? 99 : fixed);
};

/** The statement's account rows in yuan. */
export function accountMonthView(row: AccountMonthRow) {
  const y = (fen: string) => fenToYuan(BigInt(fen));
  return {
    accountId: row.id,
    energyType: row.energy_type,
    ownerName: row.owner_name ?? "",
    roomName: row.room_name ?? "",
    productCode: row.product_code ?? "",
    openingBalance: y(row.opening),
    deposit: y(row.deposit),
    recharge: y(row.recharge),
    refund: y(row.refund),
    correction: y(row.correction),
    usageCorrection: y(row.usage_correction),
    apportion: y(row.apportion),
    usage: y(row.usage),
    usageCharge: y(row.usage_charge),
    fee: y(row.fee),
    closingBalance: y(row.closing),
  };
}

export type AccountMonthView = ReturnType<typeof accountMonthView>;

/** Where a statement's scope and month are, checked against the tenant (404 when the scope is not its). */
export async function resolveStatement(
  db: Queryable,
  tenantId: string,
  request: MonthStatementRequest,
  timeZone: string,
) {
  const name =
    request.kind === "site" || request.scopeId === null
      ? await tenantName(db, tenantId)
      : await scopeName(db, tenantId, request.kind, request.scopeId);
  if (name === undefined) throw notFound();
  const bounds = await monthBounds(db, tenantId, request.month, timeZone);
  return { ...request, name, bounds };
}

export type ResolvedStatement = Awaited<ReturnType<typeof resolveStatement>>;

/** Each batch of the scope's account rows in id order, for sums and sheets that never hold them all. */
export async function* scopeBatches(db: Queryable, s: ResolvedStatement): AsyncGenerator<AccountMonthRow[]> {
  let after = "0";
  for (;;) {
    const rows = await accountMonths(db, s.bounds, s.kind, s.scopeId, after, BATCH);
    if (rows.length === 0) return;
    yield rows;
    after = rows.at(-1)!.id;
    if (rows.length < BATCH) return;
  }
}

/**
 * The month's statement of a scope: opening balance, money in (deposits, recharges), refunds,
 * corrections, usage by energy type with its split by tier and band, fixed fees, closing balance.
 * Every figure is summed from the ledger in fen; `balanced` says opening + in − out = closing.
 */
export async function monthTotals(db: Queryable, s: ResolvedStatement) {
  const sums = new Sums();
  for await (const rows of scopeBatches(db, s)) {
    for (const row of rows) sums.add(row);
    for (const part of await monthParts(
      db,
      s.bounds,
      rows.map((r) => r.id),
    )) {
      const parts = sums.energyOf(part.energy_type).parts;
      const was = parts.get(part.part) ?? { usage: 0n, charge: 0n };
      parts.set(part.part, {
        usage: was.usage + BigInt(part.usage),
        charge: was.charge + BigInt(part.charge),
      });
    }
  }
  const expected =
    sums.opening +
    sums.deposit +
    sums.recharge -
    sums.refund +
    sums.correction +
    sums.usageCorrection -
    sums.apportion -
    sums.usageCharge -
    sums.fee;
  const usage = [...sums.energy.entries()]
    .sort(([a], [b]) => a - b)
    .flatMap(([energyType, energy]) => {
      const parts = [...energy.parts.entries()].map(([part, p]) => ({ part, ...p }));
      const split = parts.reduce((t, p) => ({ usage: t.usage + p.usage, charge: t.charge + p.charge }), {
        usage: 0n,
        charge: 0n,
      });
      if (split.usage !== energy.usage || split.charge !== energy.charge)
        parts.push({
          part: UNSPLIT,
          usage: energy.usage - split.usage,
          charge: energy.charge - split.charge,
        });
      return parts
        .sort((a, b) => partOrder(a.part) - partOrder(b.part))
        .map((p) => ({
          energyType,
          part: p.part,
          usage: fenToYuan(p.usage),
          charge: fenToYuan(p.charge),
        }))
        .concat({
          energyType,
          part: "total",
          usage: fenToYuan(energy.usage),
          charge: fenToYuan(energy.charge),
        });
    });
  return {
    openingBalance: fenToYuan(sums.opening),
    deposit: fenToYuan(sums.deposit),
    recharge: fenToYuan(sums.recharge),
    refund: fenToYuan(sums.refund),
    correction: fenToYuan(sums.correction),
    usageCorrection: fenToYuan(sums.usageCorrection),
    apportion: fenToYuan(sums.apportion),
    usageCharge: fenToYuan(sums.usageCharge),
    fee: fenToYuan(sums.fee),
    closingBalance: fenToYuan(sums.closing),
    accounts: sums.accounts,
    balanced: expected === sums.closing,
    usage,
  };
}

/** The month's first and last day (yyyy-MM-dd). */
export function monthDays(month: string): { from: string; to: string } {
  const [year, mm] = month.split("-").map(Number) as [number, number];
  const last = new Date(Date.UTC(year, mm, 0)).getUTCDate();
  return { from: `${month}-01`, to: `${month}-${String(last).padStart(2, "0")}` };
}

/** The statement with one page of its accounts (statement/month). */
export async function monthStatement(
  db: Queryable,
  s: ResolvedStatement,
  paging: { current: number; size: number; offset: number },
) {
  const totals = await monthTotals(db, s);
  const rows = await accountMonths(db, s.bounds, s.kind, s.scopeId, "0", paging.size, paging.offset);
  const total = await countAccountMonths(db, s.bounds, s.kind, s.scopeId);
  return {
    month: s.month,
    ...monthDays(s.month),
    scope: { kind: s.kind, id: s.scopeId ?? "", name: s.name },
    ...totals,
    accountPage: page(rows.map(accountMonthView), total, paging.current, paging.size),
  };
}

export type MonthStatement = Awaited<ReturnType<typeof monthStatement>>;
export type { MonthBounds };
export type MonthStatementTotals = Awaited<ReturnType<typeof monthTotals>>;

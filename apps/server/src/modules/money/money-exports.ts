import { fenToYuan } from "@meterline/billing";
import type { Queryable } from "../../db/client.ts";
import {
  CHANNEL_LABEL,
  CLOSE_STATE_LABEL,
  CONTROL_STATUS_LABEL,
  closingSupplyLabel,
  ENERGY_TYPE_LABEL,
  labelOf,
  PAYMENT_METHOD_LABEL,
  PAYMENT_STATE_LABEL,
  RECHARGE_STATE_LABEL,
  RECHARGE_TYPE_LABEL,
} from "./money-labels.ts";
import {
  accountOperationRows,
  accountOperationsSearch,
  type RechargeRow,
  rechargeRows,
  rechargeSearch,
  rechargeTotals,
  rechargeView,
} from "./money-reads.ts";
import type { MoneySheet, SheetColumn } from "./money-sheet.ts";
import { paymentRows, paymentSearch, paymentTotals, paymentView } from "./payment-reads.ts";
import type { accountStatement } from "./statement.ts";

type Params = Record<string, unknown>;

/** Across tenants (the platform administrator naming none) a sheet's first column says whose each row is. */
const tenantColumns = <T extends { tenantId: string; tenantName: string }>(
  tenantId: string | null,
): SheetColumn<T>[] =>
  tenantId === null
    ? [
        { header: "租户编号", value: (r) => r.tenantId, width: 10 },
        { header: "租户", value: (r) => r.tenantName },
      ]
    : [];

/** datarecharge/export: the recharge search as its page shows it, money in and out summed at the end. */
export async function rechargeSheet(
  db: Queryable,
  tenantId: string | null,
  params: Params,
  timeZone: string,
): Promise<MoneySheet<ReturnType<typeof rechargeView>>> {
  const search = rechargeSearch(tenantId, params, timeZone);
  const totals = await rechargeTotals(db, search);
  const columns: SheetColumn<ReturnType<typeof rechargeView>>[] = [
    ...tenantColumns<ReturnType<typeof rechargeView>>(tenantId),
    { header: "收据号", value: (r) => r.receiptNo, width: 22 },
    { header: "业主", value: (r) => r.ownerName },
    { header: "电话", value: (r) => r.phone },
    { header: "区域", value: (r) => r.areaName },
    { header: "房间", value: (r) => r.roomName },
    { header: "能源类型", value: (r) => labelOf(ENERGY_TYPE_LABEL, r.energyType), width: 10 },
    { header: "表号", value: (r) => r.productCode, width: 18 },
    { header: "充值类型", value: (r) => labelOf(RECHARGE_TYPE_LABEL, r.rechargeType), width: 10 },
    { header: "支付方式", value: (r) => labelOf(PAYMENT_METHOD_LABEL, r.paymentMethod) },
    { header: "金额(元)", value: (r) => r.amount, money: true },
    { header: "充值后余额(元)", value: (r) => r.balanceAfter, money: true, width: 16 },
    { header: "状态", value: (r) => labelOf(RECHARGE_STATE_LABEL, r.state), width: 10 },
    { header: "操作员", value: (r) => r.operator },
    { header: "备注", value: (r) => r.remark, width: 30 },
    { header: "时间", value: (r) => r.createTime, width: 20 },
  ];
  return {
    title: "充值记录",
    columns,
    count: totals.count,
    rows: async (limit, offset) =>
      (await rechargeRows(db, search, limit, offset)).map((r: RechargeRow) => rechargeView(r, timeZone)),
    // In (recharges, corrections plus) under 金额, out (refunds, corrections minus) beside it.
    totals: {
      备注: `收入 ${totals.credit} 元,支出 ${totals.debit} 元;充值 ${totals.income} 元,退费 ${totals.refund} 元,净收 ${totals.net} 元`,
      "金额(元)": totals.credit,
    },
  };
}

/** payment/export: the payment search as payment/list shows it, sums paid and unpaid at the end. */
export async function paymentSheet(
  db: Queryable,
  tenantId: string | null,
  params: Params,
  timeZone: string,
): Promise<MoneySheet<ReturnType<typeof paymentView>>> {
  const search = paymentSearch(tenantId, params, timeZone);
  const totals = await paymentTotals(db, search);
  return {
    title: "支付记录",
    columns: [
      ...tenantColumns<ReturnType<typeof paymentView>>(tenantId),
      { header: "支付单号", value: (p) => p.id, width: 22 },
      { header: "业主", value: (p) => p.ownerName },
      { header: "电话", value: (p) => p.phone },
      { header: "区域", value: (p) => p.areaName },
      { header: "房间", value: (p) => p.roomName },
      { header: "能源类型", value: (p) => labelOf(ENERGY_TYPE_LABEL, p.energyType), width: 10 },
      { header: "表号", value: (p) => p.productCode, width: 18 },
      { header: "金额(元)", value: (p) => p.amount, money: true },
      { header: "支付方式", value: (p) => labelOf(PAYMENT_METHOD_LABEL, p.paymentMethod) },
      { header: "渠道", value: (p) => labelOf(CHANNEL_LABEL, p.channel), width: 10 },
      { header: "状态", value: (p) => labelOf(PAYMENT_STATE_LABEL, p.state), width: 10 },
      { header: "交易号", value: (p) => p.transactionNo, width: 22 },
      { header: "支付时间", value: (p) => p.paidTime, width: 20 },
      { header: "操作员", value: (p) => p.operator },
      { header: "备注", value: (p) => p.remark, width: 30 },
      { header: "创建时间", value: (p) => p.createTime, width: 20 },
    ],
    count: totals.count,
    rows: async (limit, offset) =>
      (await paymentRows(db, search, limit, offset)).map((p) => paymentView(p, timeZone)),
    totals: { "金额(元)": totals.paid, 备注: `已支付 ${totals.paid} 元,未支付 ${totals.unpaid} 元` },
  };
}

type Operation = Awaited<ReturnType<typeof accountOperationRows>>[number];
type OperationField = (row: Operation, name: string) => string;

/** An opening's own columns: how the deposit was paid (none before it was recorded, or without a deposit). */
const openingColumns = (field: OperationField): SheetColumn<Operation>[] => [
  {
    header: "支付方式",
    value: (r) =>
      field(r, "paymentMethod") === "" ? "" : labelOf(PAYMENT_METHOD_LABEL, field(r, "paymentMethod")),
  },
];

/** A closing's own columns: the debt left, its state, the final reading and what became of supply. */
const closingColumns = (field: OperationField): SheetColumn<Operation>[] => [
  { header: "欠费(元)", value: (r) => field(r, "debt"), money: true },
  { header: "状态", value: (r) => labelOf(CLOSE_STATE_LABEL, field(r, "closeState")), width: 12 },
  { header: "最终读数", value: (r) => field(r, "finalReading"), width: 14 },
  { header: "抄表时间", value: (r) => field(r, "finalReadTime"), width: 20 },
  {
    header: "供电",
    value: (r) =>
      closingSupplyLabel(
        field(r, "closeSupply"),
        field(r, "closeSupplyState"),
        field(r, "closeSupplyReason"),
      ),
    width: 24,
  },
];

/** dataopenaccount/export and datacloseaccount/export: openings with deposits, closings with refunds and debts. */
export async function accountOperationsSheet(
  db: Queryable,
  tenantId: string | null,
  params: Params,
  closing: boolean,
  timeZone: string,
): Promise<MoneySheet<Operation>> {
  const search = accountOperationsSearch(tenantId, params, closing, timeZone);
  const [count] = await db.query<{ n: string; debt: string }>(
    `select count(*)::text as n,
            coalesce(sum(greatest(-a.balance, 0)), 0)::text as debt
       ${search.from}`,
    search.sql.values,
  );
  const field = (row: Operation, name: string) => String((row as Record<string, unknown>)[name] ?? "");
  const amountHeader = closing ? "退款(元)" : "预存(元)";
  const columns: SheetColumn<Operation>[] = [
    ...tenantColumns<Operation>(tenantId),
    { header: "业主", value: (r) => r.ownerName },
    { header: "房间", value: (r) => r.roomName },
    { header: "能源类型", value: (r) => labelOf(ENERGY_TYPE_LABEL, r.energyType), width: 10 },
    { header: "表号", value: (r) => r.productCode, width: 18 },
    { header: "控制模式", value: (r) => labelOf(CONTROL_STATUS_LABEL, r.controlStatus), width: 10 },
    { header: "收据号", value: (r) => r.receiptNo, width: 18 },
    { header: amountHeader, value: (r) => field(r, closing ? "refund" : "deposit"), money: true },
    ...(closing ? closingColumns(field) : openingColumns(field)),
    { header: "操作员", value: (r) => r.operator },
    {
      header: closing ? "销户时间" : "开户时间",
      value: (r) => field(r, closing ? "closeTime" : "openTime"),
      width: 20,
    },
  ];
  // The deposits or refunds summed from the rows' ledger entries, once, for the totals row.
  const [sum] = await db.query<{ amount: string }>(
    `select coalesce(sum((select abs(l.amount) from pms_ledger l where l.account_id = a.id and l.entry_type = ${search.entryType}
                          order by l.create_time limit 1)), 0)::text as amount ${search.from}`,
    search.sql.values,
  );
  const yuanOf = (fen: string) => fenToYuan(BigInt(fen));
  return {
    title: closing ? "销户记录" : "开户记录",
    columns,
    count: Number(count?.n ?? 0),
    rows: (limit, offset) => accountOperationRows(db, search, limit, offset, timeZone),
    totals: {
      [amountHeader]: yuanOf(sum?.amount ?? "0"),
      ...(closing ? { "欠费(元)": yuanOf(count?.debt ?? "0") } : {}),
    },
  };
}

type Statement = NonNullable<Awaited<ReturnType<typeof accountStatement>>>;
type StatementDay = Statement["days"][number];

/** account/statementExport: the statement's days, with the period's totals as the last row. */
export function statementSheet(statement: Statement): MoneySheet<StatementDay> {
  const unit = statement.account.energyType === 2 ? "m³" : "kWh";
  return {
    title: `对账单 ${statement.account.productCode} ${statement.from}~${statement.to}`,
    columns: [
      { header: "日期", value: (d) => d.day ?? "", width: 12 },
      { header: "期初余额(元)", value: (d) => d.openingBalance, money: true },
      { header: `用量(${unit})`, value: (d) => d.usage, money: true },
      { header: "用量费用(元)", value: (d) => d.usageCharge, money: true },
      { header: "月租(元)", value: (d) => d.fee, money: true },
      { header: "收入(元)", value: (d) => d.credit, money: true },
      { header: "支出(元)", value: (d) => d.debit, money: true },
      { header: "用量更正(元)", value: (d) => d.correction, money: true },
      { header: "期末余额(元)", value: (d) => d.closingBalance, money: true },
    ],
    count: statement.days.length,
    rows: async (limit, offset) => statement.days.slice(offset, offset + limit),
    totals: {
      [`用量(${unit})`]: statement.totals.usage,
      "用量费用(元)": statement.totals.usageCharge,
      "月租(元)": statement.totals.fee,
      "收入(元)": statement.totals.credit,
      "支出(元)": statement.totals.debit,
      "用量更正(元)": statement.totals.correction,
      ...(statement.openingBalance === null ? {} : { "期初余额(元)": statement.openingBalance }),
      ...(statement.closingBalance === null ? {} : { "期末余额(元)": statement.closingBalance }),
    },
  };
}

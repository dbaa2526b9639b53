/**
 * WeChat Pay's daily trade bill (GET /v3/bill/tradebill, bill_type ALL), the file only: no I/O.
 * The file is a header line, one line per trade whose every field starts with a backtick (so a
 * spreadsheet keeps long numbers as text), a second header naming the totals and one line of
 * totals. Amounts are yuan with two decimals (the fee five) and become exact integers here; the
 * totals are checked against the rows, so a cut or altered file is refused, naming its line.
 */

export const TRADE_HEADER = [
  "交易时间",
  "公众账号ID",
  "商户号",
  "特约商户号",
  "设备号",
  "微信订单号",
  "商户订单号",
  "用户标识",
  "交易类型",
  "交易状态",
  "付款银行",
  "货币种类",
  "应结订单金额",
  "代金券金额",
  "微信退款单号",
  "商户退款单号",
  "退款金额",
  "充值券退款金额",
  "退款类型",
  "退款状态",
  "商品名称",
  "商户数据包",
  "手续费",
  "费率",
  "订单金额",
  "申请退款金额",
  "费率备注",
] as const;

export const SUMMARY_HEADER = [
  "总交易单数",
  "应结订单总金额",
  "退款总金额",
  "充值券退款总金额",
  "手续费总金额",
  "订单总金额",
  "申请退款总金额",
] as const;

export type BillTradeState = "SUCCESS" | "REFUND" | "REVOKED";
const STATES: readonly string[] = ["SUCCESS", "REFUND", "REVOKED"];

/** One trade of the bill; amounts in fen, the fee in 1/100000 yuan (WeChat Pay's own precision). */
export interface BillTrade {
  tradeTime: string;
  appid: string;
  mchid: string;
  subMchid: string;
  deviceInfo: string;
  transactionId: string;
  outTradeNo: string;
  openid: string;
  tradeType: string;
  tradeState: BillTradeState;
  bankType: string;
  currency: string;
  settlementFen: bigint;
  couponFen: bigint;
  refundId: string;
  outRefundNo: string;
  refundFen: bigint;
  couponRefundFen: bigint;
  refundType: string;
  refundStatus: string;
  body: string;
  attach: string;
  feeMicro: bigint;
  rate: string;
  orderFen: bigint;
  requestedRefundFen: bigint;
  rateNote: string;
}

export interface BillTotals {
  count: number;
  settlementFen: bigint;
  refundFen: bigint;
  couponRefundFen: bigint;
  feeMicro: bigint;
  orderFen: bigint;
  requestedRefundFen: bigint;
}

export interface TradeBill {
  trades: BillTrade[];
  totals: BillTotals;
}

/** A file that is not a well-formed bill: the 1-based line where it went wrong, and why. */
export class BillFormatError extends Error {
  constructor(
    readonly line: number,
    readonly reason: string,
  ) {
    super(`line ${line}: ${reason}`);
    this.name = "BillFormatError";
  }
}

/** "12.34" with exactly `scale` decimals (or fewer for the fee) to an integer of 10^-scale yuan. */
export function parseDecimal(text: string, scale: number, exact = true): bigint | undefined {
  const match = /^(-?)(\d{1,15})(?:\.(\d+))?$/.exec(text);
  if (!match) return undefined;
  const decimals = match[3] ?? "";
  if (exact ? decimals.length !== scale : decimals.length > scale) return undefined;
  const value =
    BigInt(match[2] as string) * 10n ** BigInt(scale) + BigInt(decimals.padEnd(scale, "0") || "0");
  return match[1] ? -value : value;
}

/** An integer of 10^-scale yuan written with exactly `scale` decimals. */
export function formatDecimal(value: bigint, scale: number): string {
  const sign = value < 0n ? "-" : "";
  const abs = value < 0n ? -value : value;
  const unit = 10n ** BigInt(scale);
  return `${sign}${abs / unit}.${(abs % unit).toString().padStart(scale, "0")}`;
}

export const yuanText = (fen: bigint) => formatDecimal(fen, 2);

/** The fields of one line, each stripped of its backtick; undefined when any field lacks it. */
function fields(line: string): string[] | undefined {
  const parts = line.split(",");
  if (!parts.every((part) => part.startsWith("`"))) return undefined;
  return parts.map((part) => part.slice(1));
}

function tradeOf(cells: string[], line: number): BillTrade {
  const amount = (index: number) => {
    const value = parseDecimal(cells[index] as string, 2);
    if (value === undefined)
      throw new BillFormatError(line, `${TRADE_HEADER[index]} is not an amount: ${cells[index]}`);
    return value;
  };
  const state = cells[9] as string;
  if (!STATES.includes(state)) throw new BillFormatError(line, `交易状态 is not known: ${state}`);
  const fee = parseDecimal(cells[22] as string, 5, false);
  if (fee === undefined) throw new BillFormatError(line, `手续费 is not an amount: ${cells[22]}`);
  if (!cells[6]) throw new BillFormatError(line, "商户订单号 is empty");
  return {
    tradeTime: cells[0] as string,
    appid: cells[1] as string,
    mchid: cells[2] as string,
    subMchid: cells[3] as string,
    deviceInfo: cells[4] as string,
    transactionId: cells[5] as string,
    outTradeNo: cells[6] as string,
    openid: cells[7] as string,
    tradeType: cells[8] as string,
    tradeState: state as BillTradeState,
    bankType: cells[10] as string,
    currency: cells[11] as string,
    settlementFen: amount(12),
    couponFen: amount(13),
    refundId: cells[14] as string,
    outRefundNo: cells[15] as string,
    refundFen: amount(16),
    couponRefundFen: amount(17),
    refundType: cells[18] as string,
    refundStatus: cells[19] as string,
    body: cells[20] as string,
    attach: cells[21] as string,
    feeMicro: fee,
    rate: cells[23] as string,
    orderFen: amount(24),
    requestedRefundFen: amount(25),
    rateNote: cells[26] as string,
  };
}

/** What the totals line must say of these trades. */
export function totalsOf(trades: readonly BillTrade[]): BillTotals {
  const sum = (pick: (t: BillTrade) => bigint) => trades.reduce((total, t) => total + pick(t), 0n);
  return {
    count: trades.length,
    settlementFen: sum((t) => t.settlementFen),
    refundFen: sum((t) => t.refundFen),
    couponRefundFen: sum((t) => t.couponRefundFen),
    feeMicro: sum((t) => t.feeMicro),
    orderFen: sum((t) => t.orderFen),
    requestedRefundFen: sum((t) => t.requestedRefundFen),
  };
}

function totalsLine(cells: string[], line: number): BillTotals {
  if (cells.length !== SUMMARY_HEADER.length)
    throw new BillFormatError(line, `the totals have ${cells.length} fields, not ${SUMMARY_HEADER.length}`);
  const amount = (index: number, scale = 2) => {
    const value = parseDecimal(cells[index] as string, scale, scale === 2);
    if (value === undefined)
      throw new BillFormatError(line, `${SUMMARY_HEADER[index]} is not an amount: ${cells[index]}`);
    return value;
  };
  if (!/^\d{1,9}$/.test(cells[0] as string))
    throw new BillFormatError(line, `总交易单数 is not a count: ${cells[0]}`);
  return {
    count: Number(cells[0]),
    settlementFen: amount(1),
    refundFen: amount(2),
    couponRefundFen: amount(3),
    feeMicro: amount(4, 5),
    orderFen: amount(5),
    requestedRefundFen: amount(6),
  };
}

const TOTAL_NAMES: Record<keyof BillTotals, string> = {
  count: "总交易单数",
  settlementFen: "应结订单总金额",
  refundFen: "退款总金额",
  couponRefundFen: "充值券退款总金额",
  feeMicro: "手续费总金额",
  orderFen: "订单总金额",
  requestedRefundFen: "申请退款总金额",
};

/**
 * Parses a trade bill. Refused (BillFormatError naming the line): a header other than the
 * 27 columns, a trade line with another count of fields or a field without its backtick, an
 * amount that is not yuan with two decimals, an unknown trade state, a missing or malformed
 * totals part, anything after it, or totals that differ from the sums of the rows.
 */
export function parseTradeBill(text: string): TradeBill {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  if (lines[0] !== TRADE_HEADER.join(",")) throw new BillFormatError(1, "not the trade bill's header");
  const trades: BillTrade[] = [];
  let index = 1;
  for (; index < lines.length; index++) {
    const line = lines[index] as string;
    if (line === SUMMARY_HEADER.join(",")) break;
    const cells = fields(line);
    if (!cells) throw new BillFormatError(index + 1, "a field does not start with a backtick");
    if (cells.length !== TRADE_HEADER.length)
      throw new BillFormatError(index + 1, `${cells.length} fields, not ${TRADE_HEADER.length}`);
    trades.push(tradeOf(cells, index + 1));
  }
  if (index >= lines.length) throw new BillFormatError(index + 1, "the totals are missing");
  const totalsAt = index + 2;
  const totalsCells = lines[index + 1] === undefined ? undefined : fields(lines[index + 1] as string);
  if (!totalsCells) throw new BillFormatError(totalsAt, "the totals line is missing or malformed");
  const stated = totalsLine(totalsCells, totalsAt);
  if (lines.length > index + 2) throw new BillFormatError(index + 3, "text after the totals");
  const summed = totalsOf(trades);
  for (const key of Object.keys(TOTAL_NAMES) as (keyof BillTotals)[]) {
    if (stated[key] !== summed[key])
      throw new BillFormatError(
        totalsAt,
        `${TOTAL_NAMES[key]} ${String(stated[key])} differs from the rows' ${String(summed[key])}`,
      );
  }
  return { trades, totals: stated };
}

/** Text a field may carry in the file: no comma, backtick or line break (they would split it). */
export const billSafe = (text: string) => text.replace(/[,`\r\n]/g, " ");

/** Writes trades as WeChat Pay does (the double serves this; the tests round-trip it). */
export function formatTradeBill(trades: readonly BillTrade[]): string {
  const cells = (values: string[]) => values.map((value) => `\`${billSafe(value)}`).join(",");
  const lines = trades.map((t) =>
    cells([
      t.tradeTime,
      t.appid,
      t.mchid,
      t.subMchid,
      t.deviceInfo,
      t.transactionId,
      t.outTradeNo,
      t.openid,
      t.tradeType,
      t.tradeState,
      t.bankType,
      t.currency,
      yuanText(t.settlementFen),
      yuanText(t.couponFen),
      t.refundId,
      t.outRefundNo,
      yuanText(t.refundFen),
      yuanText(t.couponRefundFen),
      t.refundType,
      t.refundStatus,
      t.body,
      t.attach,
      formatDecimal(t.feeMicro, 5),
      t.rate,
      yuanText(t.orderFen),
      yuanText(t.requestedRefundFen),
      t.rateNote,
    ]),
  );
  const totals = totalsOf(trades);
  return [
    TRADE_HEADER.join(","),
    ...lines,
    SUMMARY_HEADER.join(","),
    cells([
      String(totals.count),
      yuanText(totals.settlementFen),
      yuanText(totals.refundFen),
      yuanText(totals.couponRefundFen),
      formatDecimal(totals.feeMicro, 5),
      yuanText(totals.orderFen),
      yuanText(totals.requestedRefundFen),
    ]),
    "",
  ].join("\r\n");
}

/** An empty trade, for callers that fill in what they know (the double, tests). */
export const blankTrade = (): BillTrade => ({
  tradeTime: "",
  appid: "",
  mchid: "",
  subMchid: "0",
  deviceInfo: "",
  transactionId: "",
  outTradeNo: "",
  openid: "",
  tradeType: "",
  tradeState: "SUCCESS",
  bankType: "OTHERS",
  currency: "CNY",
  settlementFen: 0n,
  couponFen: 0n,
  refundId: "0",
  outRefundNo: "0",
  refundFen: 0n,
  couponRefundFen: 0n,
  refundType: "",
  refundStatus: "",
  body: "",
  attach: "",
  feeMicro: 0n,
  rate: "0.60%",
  orderFen: 0n,
  requestedRefundFen: 0n,
  rateNote: "",
});

import type { Queryable } from "../../db/client.ts";
import type { MoneySheet, SheetColumn } from "../money/money-sheet.ts";
import { type DiffView, diffCount, diffRows, diffSearch } from "./wxbill-reads.ts";

type Params = Record<string, unknown>;

const CHANNEL: Record<string, string> = { wechat: "微信支付", alipay: "支付宝" };
const KIND: Record<string, string> = {
  wechat_only: "微信有、本系统无",
  alipay_only: "支付宝有、本系统无",
  local_only: "本系统有、微信无",
  amount: "金额不一致",
  counter_only: "柜台记为微信、账单无",
};
/** A counter recharge the Alipay bill lacks was recorded as 支付宝. */
const ALIPAY_COUNTER_ONLY = "柜台记为支付宝、账单无";
const kindOf = (r: DiffView) =>
  r.channel === "alipay" && r.kind === "counter_only" ? ALIPAY_COUNTER_ONLY : (KIND[r.kind] ?? r.kind);
const STATE: Record<string, string> = { open: "未处理", held: "审批中", settled: "已处理" };
const ACTION: Record<string, string> = {
  book: "按账单入账",
  reverse: "冲正本系统充值",
  correct: "调整差额",
  acknowledge: "确认,不动资金",
};

/** wxbill/diff-export: the differences of the search as the screen lists them. */
export async function diffSheet(
  db: Queryable,
  tenantId: string,
  params: Params,
  timeZone: string,
): Promise<MoneySheet<DiffView>> {
  const search = diffSearch(tenantId, params);
  const columns: SheetColumn<DiffView>[] = [
    { header: "对账日期", value: (r) => r.billDate, width: 12 },
    { header: "类型", value: kindOf, width: 16 },
    { header: "商户订单号", value: (r) => r.outTradeNo, width: 26 },
    { header: "支付渠道交易号", value: (r) => r.transactionId, width: 30 },
    { header: "账单金额(元)", value: (r) => r.wechatAmount, money: true },
    { header: "本系统金额(元)", value: (r) => r.localAmount, money: true },
    { header: "处理状态", value: (r) => STATE[r.state] ?? r.state, width: 10 },
    { header: "处理方式", value: (r) => ACTION[r.action] ?? r.action, width: 16 },
    { header: "原因", value: (r) => r.reason, width: 30 },
    { header: "处理人", value: (r) => r.operator },
    { header: "处理时间", value: (r) => r.settleTime, width: 20 },
    // A counter recharge recorded with the channel's method: which one, whose, and who took the money.
    { header: "充值单号", value: (r) => r.receiptNo, width: 22 },
    { header: "业主", value: (r) => r.ownerName, width: 12 },
    { header: "房间", value: (r) => r.roomName, width: 18 },
    { header: "收款操作员", value: (r) => r.counterOperator, width: 12 },
    { header: "支付渠道", value: (r) => CHANNEL[r.channel] ?? r.channel, width: 10 },
  ];
  return {
    title:
      params.channel === "alipay"
        ? "支付宝对账差异"
        : params.channel === "wechat"
          ? "微信对账差异"
          : "支付对账差异",
    columns,
    count: await diffCount(db, search),
    rows: (limit, offset) => diffRows(db, search, limit, offset, timeZone),
  };
}

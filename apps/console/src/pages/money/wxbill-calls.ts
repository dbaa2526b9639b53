import type { Page } from "@meterline/contracts";
import { api } from "../../app/api.ts";
import { startDownload, withToken } from "../../app/download.ts";

const pms = "/api/blade-pms";

export const KINDS = ["wechat_only", "alipay_only", "local_only", "amount", "counter_only"] as const;
/** The channels whose daily bills are reconciled. */
export const CHANNELS = ["wechat", "alipay"] as const;
/** The kind of a trade paid at a channel that nothing here booked: the other channel's never shows. */
export const ONLY_KIND: Record<string, string> = { wechat: "wechat_only", alipay: "alipay_only" };

/** A reconciled day as wxbill/list answers it (amounts in yuan text). */
export interface Bill extends Record<string, unknown> {
  id: string;
  /** wechat or alipay. */
  channel: string;
  /** The channel's merchant (WeChat Pay's merchant number, Alipay's app id); empty for a run that failed for want of one. */
  mchid: string;
  billDate: string;
  state: string;
  successCount: number;
  settlementTotal: string;
  refundCount: number;
  refundTotal: string;
  /** The channel's orders paid here on the day. */
  localCount: number;
  localTotal: string;
  /** Counter recharges recorded with the channel's payment method on the day. */
  counterCount: number;
  counterTotal: string;
  openCount: number;
  downloadedTime: string;
  /** Why a run failed: a code (MERCHANT, NETWORK, BILL_HASH, …) and the message as it came. */
  errorCode: string;
  error: string;
}

/** A difference as wxbill/diff-list answers it. */
export interface BillDiff extends Record<string, unknown> {
  id: string;
  channel: string;
  billDate: string;
  kind: string;
  outTradeNo: string;
  transactionId: string;
  wechatAmount: string | null;
  localAmount: string | null;
  state: string;
  action: string;
  reason: string;
  operator: string;
  settleTime: string;
  /** counter_only: the counter recharge recorded with the channel's method, whose it is and who took it. */
  receiptNo: string;
  ownerName: string;
  roomName: string;
  counterOperator: string;
}

export interface DiffFilter {
  /** Lists one channel's bills and differences; both when not set. */
  channel?: string | undefined;
  billDate?: string | undefined;
  kind?: string | undefined;
  state?: string | undefined;
}

const defined = (query: Record<string, string | undefined>) =>
  Object.fromEntries(Object.entries(query).filter(([, value]) => value)) as Record<string, string>;

export const wxbillPage = (channel: string | undefined) =>
  api.get<Page<Bill>>(`${pms}/wxbill/list`, defined({ current: "1", size: "60", channel }));

export const wxbillDiffs = (filter: DiffFilter) =>
  api.get<Page<BillDiff>>(`${pms}/wxbill/diff-list`, defined({ current: "1", size: "200", ...filter }));

export const reconcileDay = (billDate: string, channel: string) =>
  api.post<Bill>(`${pms}/wxbill/reconcile`, { billDate, channel });

export const settleDiff = (id: string, action: string, reason: string) =>
  api.post<{ id: string; held: boolean }>(`${pms}/wxbill/settle`, { id, action, reason });

/** The differences of the filter as .xlsx (wxbill_export). */
export const exportDiffs = (filter: DiffFilter) =>
  startDownload(withToken(`${pms}/wxbill/diff-export`, defined({ ...filter })));

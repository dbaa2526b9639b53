import { ALIPAY_BILL } from "../alipay/alipay-bill-channel.ts";
import type { BillChannel } from "./bill-channel.ts";
import type { BillChannelName } from "./wxbill-compare.ts";
import { WECHAT_BILL } from "./wxbill-wechat.ts";

/** The reconciled channels by name, as bills and differences store it. */
export const BILL_CHANNEL_OF: Record<BillChannelName, BillChannel> = {
  wechat: WECHAT_BILL,
  alipay: ALIPAY_BILL,
};

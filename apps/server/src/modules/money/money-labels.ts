/**
 * The Chinese labels of the money columns' values, as the seeded dictionaries name them
 * (PAYMENT_METHOD, RECHARGE_TYPE, energy_type, CONTROL_STATUS): exported sheets are read by people.
 */
export const PAYMENT_METHOD_LABEL: Record<number, string> = {
  0: "其他",
  1: "现金",
  2: "银联",
  3: "微信",
  4: "支付宝",
  5: "微信在线支付",
};
export const RECHARGE_TYPE_LABEL: Record<number, string> = {
  1: "充值",
  2: "退费",
  3: "冲正加",
  4: "冲正减",
};
export const ENERGY_TYPE_LABEL: Record<number, string> = { 1: "电", 2: "水" };
export const CONTROL_STATUS_LABEL: Record<number, string> = { 0: "本地费控", 1: "远程费控" };
export const PAYMENT_STATE_LABEL: Record<number, string> = { 0: "未支付", 1: "已支付", 2: "失败/关闭" };
export const CHANNEL_LABEL: Record<string, string> = {
  counter: "柜台",
  online: "线上",
  bank: "银行转账",
  other: "其他",
};
export const RECHARGE_STATE_LABEL: Record<number, string> = { 0: "待表计确认", 1: "已入账", 2: "写表失败" };

/** A closing's state (as 销户记录 shows it). */
export const CLOSE_STATE_LABEL: Record<number, string> = {
  1: "已销户",
  0: "待表计确认",
  2: "表计未清零",
  3: "待审批",
};

/** What a closing did to supply, as the closing's slip says it (close_supply, its command's state, the reason). */
export function closingSupplyLabel(supply: string, state: string, reason: string): string {
  if (supply === "2") return `保持供电：${reason}`;
  if (supply === "1") {
    if (state === "success") return "已拉闸（回读确认）";
    if (state === "queued" || state === "sent" || state === "") return "拉闸中，待回读确认";
    return `拉闸未确认：${state}`;
  }
  if (supply === "0") return reason ? `未断电：${reason}` : "未断电";
  return "";
}

/** A label, or the raw value when a dictionary has grown since. */
export const labelOf = (labels: Record<string | number, string>, value: string | number) =>
  labels[value] ?? String(value);

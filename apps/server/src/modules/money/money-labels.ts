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

/** A label, or the raw value when a dictionary has grown since. */
export const labelOf = (labels: Record<string | number, string>, value: string | number) =>
  labels[value] ?? String(value);

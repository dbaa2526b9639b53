import type { PayChannel } from "./api.ts";

/** Where the owner page runs: inside WeChat, inside the Alipay app, a phone's browser, a desktop. */
export type Surroundings = "wechat" | "alipay" | "phone" | "desktop";

export function surroundingsOf(userAgent: string): Surroundings {
  if (/MicroMessenger/i.test(userAgent)) return "wechat";
  if (/AlipayClient/i.test(userAgent)) return "alipay";
  return /Mobi|Android|iPhone|iPad|iPod|HarmonyOS/i.test(userAgent) ? "phone" : "desktop";
}

/**
 * The channels offered, of those the property has switched on: inside an app only its own (WeChat
 * cannot open Alipay's cashier, nor Alipay WeChat's), elsewhere both, WeChat Pay first.
 */
export function offeredChannels(where: Surroundings, on: Record<PayChannel, boolean>): PayChannel[] {
  if (where === "wechat") return on.wxpay ? ["wxpay"] : [];
  if (where === "alipay") return on.alipay ? ["alipay"] : [];
  return (["wxpay", "alipay"] as const).filter((channel) => on[channel]);
}

/** Alipay's way on this device: its cashier page on a phone, a QR code to scan on a desktop. */
export const alipayTradeType = (where: Surroundings): "wap" | "qr" => (where === "desktop" ? "qr" : "wap");

/** Where Alipay's cashier sends the owner back: this page, for the same tenant, on the result. */
export function alipayReturnUrl(current: Location): string {
  const params = new URLSearchParams(current.search);
  for (const name of ["order", "out_trade_no", "trade_no", "total_amount"]) params.delete(name);
  params.set("pay", "alipay");
  return `${current.origin}${current.pathname}?${params}`;
}

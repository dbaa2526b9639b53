/**
 * Payment codes (付款码) as a USB scanner types them at the counter. The two channels publish
 * disjoint number ranges, so the code alone says which one to ask.
 */

/** WeChat Pay payment codes: 18 digits beginning 10 to 15. */
export const WECHAT_AUTH_CODE = /^1[0-5]\d{16}$/;
/** Alipay payment codes: 16–24 digits beginning 25 to 30. */
export const ALIPAY_AUTH_CODE = /^(2[5-9]|30)\d{14,22}$/;

export type CodeChannel = "wechat" | "alipay";

/** Which channel a scanned payment code belongs to, by its prefix; undefined for anything else. */
export function paymentCodeChannel(code: string): CodeChannel | undefined {
  const digits = code.trim();
  if (WECHAT_AUTH_CODE.test(digits)) return "wechat";
  if (ALIPAY_AUTH_CODE.test(digits)) return "alipay";
  return undefined;
}

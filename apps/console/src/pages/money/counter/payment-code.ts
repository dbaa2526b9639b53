/**
 * Which channel a scanned payment code belongs to, by its published prefix (the server decides
 * the same way and refuses anything else): WeChat Pay 18 digits from 10 to 15, Alipay 16–24
 * digits from 25 to 30. The counter uses it to say whose app the owner confirms in.
 */
export function codeChannel(code: string): "wechat" | "alipay" | undefined {
  const digits = code.trim();
  if (/^1[0-5]\d{16}$/.test(digits)) return "wechat";
  if (/^(2[5-9]|30)\d{14,22}$/.test(digits)) return "alipay";
  return undefined;
}

import { createHash } from "node:crypto";
import { BillFormatError, parseTradeBill, type TradeBill, totalsOf } from "./wxpay-bill.ts";
import { callWxpay, type Merchant, WxpayCallError } from "./wxpay-client.ts";
import { authorization } from "./wxpay-protocol.ts";

/** A day's trade bill of one merchant is far below this; anything larger is refused unread. */
export const BILL_MAX_BYTES = 20 * 1024 * 1024;

interface BillAddress {
  hash_type?: string;
  hash_value?: string;
  download_url?: string;
}

/** Reads a body up to `limit` bytes, refusing (and aborting) anything larger. */
async function boundedBytes(res: Response, limit: number): Promise<Buffer> {
  const declared = Number(res.headers.get("content-length") ?? "0");
  if (declared > limit) throw new WxpayCallError(0, "BILL_TOO_LARGE", `账单超过 ${limit} 字节`);
  if (!res.body) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body) {
    size += chunk.length;
    if (size > limit) {
      await res.body.cancel().catch(() => undefined);
      throw new WxpayCallError(0, "BILL_TOO_LARGE", `账单超过 ${limit} 字节`);
    }
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}

/**
 * The merchant's trade bill of a China day (bill_type ALL): its address from a signed, verified
 * answer, then the file by a signed GET. The file's answer carries no signature, so its SHA-1 must
 * be the one the signed answer named; only then is it parsed (totals checked against the rows).
 * A day without trades (NO_STATEMENT_EXIST) is an empty bill.
 */
export async function downloadTradeBill(
  merchant: Merchant,
  day: string,
  limit = BILL_MAX_BYTES,
): Promise<TradeBill> {
  let address: BillAddress;
  try {
    address = (
      await callWxpay<BillAddress>(merchant, "GET", `/v3/bill/tradebill?bill_date=${day}&bill_type=ALL`)
    ).data;
  } catch (error) {
    if (error instanceof WxpayCallError && error.code === "NO_STATEMENT_EXIST")
      return { trades: [], totals: totalsOf([]) };
    throw error;
  }
  if (address.hash_type !== "SHA1" || !/^[0-9a-fA-F]{40}$/.test(address.hash_value ?? ""))
    throw new WxpayCallError(0, "BILL_HASH", "账单摘要类型或格式不正确");
  let url: URL;
  try {
    url = new URL(address.download_url ?? "");
  } catch {
    throw new WxpayCallError(0, "BILL_URL", "账单下载地址不正确");
  }
  // The signed request goes only to the merchant's own API host, never to another address.
  if (url.origin !== new URL(merchant.apiBase).origin)
    throw new WxpayCallError(0, "BILL_URL", "账单下载地址不是微信支付的地址");
  const pathAndQuery = `${url.pathname}${url.search}`;
  let res: Response;
  try {
    res = await fetch(url, {
      headers: {
        accept: "*/*",
        "user-agent": "Meterline",
        authorization: authorization(
          { mchid: merchant.mchid, serialNo: merchant.serialNo, privateKey: merchant.privateKey },
          { method: "GET", url: pathAndQuery, body: "" },
        ),
      },
      signal: AbortSignal.timeout(60_000),
    });
  } catch (error) {
    throw new WxpayCallError(0, "NETWORK", `账单下载失败: ${(error as Error).message}`);
  }
  const bytes = await boundedBytes(res, limit);
  if (res.status !== 200)
    throw new WxpayCallError(res.status, "BILL_DOWNLOAD", `账单下载失败 HTTP ${res.status}`);
  const digest = createHash("sha1").update(bytes).digest("hex");
  if (digest !== address.hash_value?.toLowerCase())
    throw new WxpayCallError(0, "BILL_HASH", "账单文件的 SHA1 与微信支付给出的不符");
  try {
    return parseTradeBill(bytes.toString("utf8"));
  } catch (error) {
    if (error instanceof BillFormatError)
      throw new WxpayCallError(0, "BILL_FORMAT", `账单格式错误: ${error.message}`);
    throw error;
  }
}

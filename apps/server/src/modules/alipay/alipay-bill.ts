import { unzipSync } from "fflate";
import type { AlipayApp } from "./alipay-app.ts";
import { AlipayCallError, callAlipay } from "./alipay-client.ts";
import { fen } from "./alipay-protocol.ts";

/** One line of Alipay's trade bill detail (业务明细): a payment or a refund, amounts in fen. */
export interface AlipayBillRow {
  tradeNo: string;
  outTradeNo: string;
  kind: "payment" | "refund";
  /** 商家实收: what the merchant received (negative for a refund). */
  receivedFen: bigint;
  /** 退款批次号/请求号: the refund's out_request_no. */
  requestNo: string;
  finishTime: string;
}

/**
 * Alipay writes its bills in GBK; the double in UTF-8. Strict UTF-8 first: GBK text with Chinese
 * is (almost) never valid UTF-8, so a failure means GBK.
 */
export function decodeBillText(bytes: Uint8Array): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder("gbk").decode(bytes);
  }
}

/** Alipay pads its numbers with a tab so spreadsheets keep them as text. */
const cell = (value: string | undefined) => (value ?? "").replace(/\t/g, "").trim();

/**
 * The rows of a detail file's text: comment lines (#) skipped, columns found by their header
 * names (their order has changed over the years), unreadable lines reported rather than guessed.
 */
export function parseBillDetail(text: string): { rows: AlipayBillRow[]; unreadable: string[] } {
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== "" && !line.startsWith("#"));
  const header = (lines.shift() ?? "").split(",").map((name) => cell(name));
  const at = (name: string) => header.indexOf(name);
  const columns = {
    tradeNo: at("支付宝交易号"),
    outTradeNo: at("商户订单号"),
    kind: at("业务类型"),
    finish: at("完成时间"),
    received: at("商家实收（元）"),
    requestNo: at("退款批次号/请求号"),
  };
  if (Object.values(columns).some((index) => index < 0)) return { rows: [], unreadable: lines };
  const rows: AlipayBillRow[] = [];
  const unreadable: string[] = [];
  for (const line of lines) {
    const cells = line.split(",");
    const kind = cell(cells[columns.kind]);
    const received = cell(cells[columns.received]);
    const amount = fen(received.replace(/^-/, ""));
    if ((kind !== "交易" && kind !== "退款") || amount === undefined) {
      unreadable.push(line);
      continue;
    }
    rows.push({
      tradeNo: cell(cells[columns.tradeNo]),
      outTradeNo: cell(cells[columns.outTradeNo]),
      kind: kind === "交易" ? "payment" : "refund",
      receivedFen: received.startsWith("-") ? -amount : amount,
      requestNo: cell(cells[columns.requestNo]),
      finishTime: cell(cells[columns.finish]),
    });
  }
  return { rows, unreadable };
}

/**
 * Downloads the application's trade bill of a day (`yyyy-MM-dd`, Asia/Shanghai): the URL from
 * alipay.data.dataservice.bill.downloadurl.query, then the zip whose 业务明细 file is read.
 * Undefined while Alipay has no bill for the day yet (isp.bill_not_exist).
 */
export async function downloadAlipayBill(app: AlipayApp, day: string) {
  let url: string;
  try {
    const answer = await callAlipay(app, "alipay.data.dataservice.bill.downloadurl.query", {
      bill_type: "trade",
      bill_date: day,
    });
    url = String(answer.bill_download_url ?? "");
  } catch (error) {
    if (error instanceof AlipayCallError && error.subCode === "isp.bill_not_exist") return undefined;
    throw error;
  }
  const res = await fetch(url, { signal: AbortSignal.timeout(30_000) });
  if (!res.ok)
    throw new AlipayCallError("BILL_DOWNLOAD", String(res.status), `支付宝账单下载失败 (${res.status})`);
  const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
  // The entry names are GBK without the zip's UTF-8 flag in Alipay's files: the detail is found by
  // its content (the only file with the trade number column), not by its name.
  const detail = Object.values(files)
    .map((bytes) => decodeBillText(bytes))
    .find((text) => text.includes("支付宝交易号,商户订单号"));
  if (detail === undefined) throw new AlipayCallError("BILL_FORMAT", "", "支付宝账单中没有业务明细文件");
  return parseBillDetail(detail);
}

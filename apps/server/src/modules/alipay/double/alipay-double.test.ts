import assert from "node:assert/strict";
import { generateKeyPairSync } from "node:crypto";
import { after, before, describe, test } from "node:test";
import { unzipSync } from "fflate";
import type { AlipayApp } from "../alipay-app.ts";
import { downloadAlipayBill } from "../alipay-bill.ts";
import { type AlipayCallError, callAlipay, wapPayUrl } from "../alipay-client.ts";
import { checkTradeNotification, formParams, shanghaiTime } from "../alipay-protocol.ts";
import { AlipayDouble } from "./alipay-double.ts";

const keys = () => {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  return {
    privateKey: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    publicKey: publicKey.export({ type: "spki", format: "pem" }).toString(),
  };
};

/** The double speaks gateway.do as Alipay does: signed calls in, signed answers and notifications out. */
describe("the Alipay gateway double", () => {
  const double = new AlipayDouble();
  const application = keys();
  let app: AlipayApp;
  const received: Record<string, string>[] = [];
  let notifyServer: import("node:http").Server;

  before(async () => {
    await double.listen();
    const http = await import("node:http");
    notifyServer = http.createServer((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        received.push(formParams(body));
        res.end("success");
      });
    });
    await new Promise<void>((resolve) => notifyServer.listen(0, "127.0.0.1", resolve));
    const port = (notifyServer.address() as { port: number }).port;
    double.addApp({ appId: "2021000117650001", publicKey: application.publicKey });
    app = {
      tenantId: "000000",
      appId: "2021000117650001",
      privateKey: application.privateKey,
      alipayPublicKey: double.alipayPublicKey,
      gateway: double.gateway,
      notifyUrl: `http://127.0.0.1:${port}/notify`,
      maxAmountFen: 500000n,
    };
  });
  after(async () => {
    await double.close();
    await new Promise<void>((resolve) => notifyServer.close(() => resolve()));
  });

  test("a QR order: precreate, not there until scanned, paid, notified with a signature the app accepts", async () => {
    const created = await callAlipay(
      app,
      "alipay.trade.precreate",
      { out_trade_no: "QR1", total_amount: "12.34", subject: "电费充值" },
      { notify: true },
    );
    assert.equal(created.code, "10000");
    assert.match(String(created.qr_code), /^http:\/\/127\.0\.0\.1:\d+\/cashier\/pay\?t=/);
    await assert.rejects(
      callAlipay(app, "alipay.trade.query", { out_trade_no: "QR1" }),
      (e: AlipayCallError) => {
        return e.subCode === "ACQ.TRADE_NOT_EXIST";
      },
    );
    double.scan(app.appId, "QR1");
    assert.equal(
      (await callAlipay(app, "alipay.trade.query", { out_trade_no: "QR1" })).trade_status,
      "WAIT_BUYER_PAY",
    );
    const [delivery] = await double.pay(app.appId, "QR1");
    assert.equal(delivery?.body, "success");
    const notification = received.at(-1) as Record<string, string>;
    assert.deepEqual(checkTradeNotification(notification, app, { outTradeNo: "QR1", amountFen: 1234n }), {
      ok: true,
    });
    const paid = await callAlipay(app, "alipay.trade.query", { out_trade_no: "QR1" });
    assert.equal(paid.trade_status, "TRADE_SUCCESS");
    assert.equal(paid.trade_no, notification.trade_no);
    assert.equal(paid.total_amount, "12.34");
  });

  test("a request the gateway cannot verify is refused; an unknown app gets the unsigned error", async () => {
    const stranger = keys();
    await assert.rejects(
      callAlipay({ ...app, privateKey: stranger.privateKey }, "alipay.trade.query", { out_trade_no: "QR1" }),
      (e: AlipayCallError) => e.subCode === "isv.invalid-signature",
    );
    await assert.rejects(
      callAlipay({ ...app, appId: "2021000000000000" }, "alipay.trade.query", { out_trade_no: "QR1" }),
      (e: AlipayCallError) => e.subCode === "isv.invalid-app-id",
    );
    // An answer signed by someone else than the configured Alipay key is not believed.
    await assert.rejects(
      callAlipay({ ...app, alipayPublicKey: stranger.publicKey }, "alipay.trade.query", {
        out_trade_no: "QR1",
      }),
      (e: AlipayCallError) => e.code === "ANSWER_NOT_TRUSTED",
    );
  });

  test("refunds: partial, the same request number answered again without paying twice, over the total refused", async () => {
    const first = await callAlipay(app, "alipay.trade.refund", {
      out_trade_no: "QR1",
      refund_amount: "2.34",
      out_request_no: "R1",
    });
    assert.deepEqual([first.fund_change, first.refund_fee], ["Y", "2.34"]);
    const again = await callAlipay(app, "alipay.trade.refund", {
      out_trade_no: "QR1",
      refund_amount: "2.34",
      out_request_no: "R1",
    });
    assert.deepEqual([again.fund_change, again.refund_fee], ["N", "2.34"]);
    await assert.rejects(
      callAlipay(app, "alipay.trade.refund", {
        out_trade_no: "QR1",
        refund_amount: "10.01",
        out_request_no: "R2",
      }),
      (e: AlipayCallError) => e.subCode === "ACQ.REFUND_AMT_NOT_EQUAL_TOTAL",
    );
  });

  test("wap pay: the signed URL opens a page, paying redirects back and notifies; close refuses a paid trade", async () => {
    const url = wapPayUrl(
      app,
      { out_trade_no: "WAP1", total_amount: "5.00", subject: "水费充值", product_code: "QUICK_WAP_WAY" },
      "http://127.0.0.1:1/back",
    );
    const page = await fetch(url);
    const html = await page.text();
    assert.equal(page.status, 200, html);
    const action = /action="([^"]+)"/.exec(html)?.[1] as string;
    const paid = await fetch(new URL(action.replaceAll("&amp;", "&"), double.base), {
      method: "POST",
      redirect: "manual",
    });
    assert.equal(paid.status, 302);
    assert.match(
      paid.headers.get("location") ?? "",
      /^http:\/\/127\.0\.0\.1:1\/back\?out_trade_no=WAP1&trade_no=/,
    );
    assert.equal(double.trade(app.appId, "WAP1")?.status, "TRADE_SUCCESS");
    assert.equal(received.at(-1)?.out_trade_no, "WAP1");
    await assert.rejects(
      callAlipay(app, "alipay.trade.close", { out_trade_no: "WAP1" }),
      (e: AlipayCallError) => e.subCode === "ACQ.TRADE_STATUS_ERROR",
    );
  });

  test("a code payment the owner confirms answers 10003, then pays; one never confirmed is cancelled", async () => {
    double.needsConfirmation("284771234567890123");
    const waiting = await callAlipay(app, "alipay.trade.pay", {
      out_trade_no: "CODE1",
      scene: "bar_code",
      auth_code: "284771234567890123",
      total_amount: "30.00",
      subject: "电费充值",
    });
    assert.equal(waiting.code, "10003");
    assert.equal(
      (await callAlipay(app, "alipay.trade.query", { out_trade_no: "CODE1" })).trade_status,
      "WAIT_BUYER_PAY",
    );
    await double.pay(app.appId, "CODE1");
    assert.equal(
      (await callAlipay(app, "alipay.trade.query", { out_trade_no: "CODE1" })).trade_status,
      "TRADE_SUCCESS",
    );

    const stuck = await callAlipay(app, "alipay.trade.pay", {
      out_trade_no: "CODE2",
      scene: "bar_code",
      auth_code: "284771234567890123",
      total_amount: "8.00",
      subject: "电费充值",
    });
    assert.equal(stuck.code, "10003");
    const cancelled = await callAlipay(app, "alipay.trade.cancel", { out_trade_no: "CODE2" });
    assert.deepEqual([cancelled.action, cancelled.retry_flag], ["close", "N"]);
    assert.equal(double.trade(app.appId, "CODE2")?.status, "TRADE_CLOSED");

    const atOnce = await callAlipay(app, "alipay.trade.pay", {
      out_trade_no: "CODE3",
      scene: "bar_code",
      auth_code: "281234567890123456",
      total_amount: "1.00",
      subject: "电费充值",
    });
    assert.deepEqual([atOnce.code, atOnce.total_amount], ["10000", "1.00"]);
    await assert.rejects(
      callAlipay(app, "alipay.trade.pay", {
        out_trade_no: "CODE4",
        scene: "bar_code",
        auth_code: "134567890123456789",
        total_amount: "1.00",
        subject: "电费充值",
      }),
      (e: AlipayCallError) => e.subCode === "ACQ.PAYMENT_AUTH_CODE_INVALID",
    );
  });

  test("the daily bill: a download URL for a past day, a zip whose detail lists the day's trades and refunds", async () => {
    await assert.rejects(
      callAlipay(app, "alipay.data.dataservice.bill.downloadurl.query", {
        bill_type: "trade",
        bill_date: shanghaiTime().slice(0, 10),
      }),
      (e: AlipayCallError) => e.subCode === "isp.bill_not_exist",
    );
    // The double's trades were paid today; a bill for today is asked through the file URL directly.
    const answer = await callAlipay(app, "alipay.data.dataservice.bill.downloadurl.query", {
      bill_type: "trade",
      bill_date: "2026-01-01",
    });
    const today = shanghaiTime().slice(0, 10);
    const file = await fetch(String(answer.bill_download_url).replace("2026-01-01", today));
    const files = unzipSync(new Uint8Array(await file.arrayBuffer()));
    const detailName = Object.keys(files).find((name) => name.endsWith("_业务明细.csv")) as string;
    const detail = Buffer.from(files[detailName] as Uint8Array).toString("utf8");
    assert.match(detail, /支付宝交易号,商户订单号,业务类型/);
    assert.match(detail, /\t,QR1\t,交易,电费充值,.*,12\.34,12\.34,/);
    assert.match(detail, /\t,QR1\t,退款,.*,0\.00,-2\.34,.*R1,/);
    assert.doesNotMatch(detail, /CODE2/, "a closed, unpaid trade is not in the bill");
  });

  test("the bill as the server downloads it: today's has no bill yet, a day's rows read back", async () => {
    assert.equal(await downloadAlipayBill(app, shanghaiTime().slice(0, 10)), undefined);
    const past = await downloadAlipayBill(app, "2026-01-01");
    assert.deepEqual(past, { rows: [], unreadable: [] }, "no trades that day");
  });
});

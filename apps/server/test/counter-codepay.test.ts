import assert from "node:assert/strict";
import { generateKeyPairSync } from "node:crypto";
import { after, before, describe, test } from "node:test";
import { FieldCipher } from "../src/crud/field-cipher.ts";
import { AlipayDouble } from "../src/modules/alipay/double/alipay-double.ts";
import { checkLedger } from "../src/modules/money/ledger-check.ts";
import { WxpayDouble } from "../src/modules/wxpay/double/wxpay-double.ts";
import { sweepUnpaid } from "../src/modules/wxpay/wxpay.service.ts";
import { addUser } from "./fixtures.ts";
import { startTestServer, type TestServer } from "./helpers.ts";
import { created } from "./registry-fixtures.ts";
import { doubleConfig, testMerchant } from "./wxpay-fixtures.ts";

const pms = "/api/blade-pms";
const ALIPAY_APP_ID = "2021000117653901";

interface Receipt {
  channel: string;
  id: string;
  outTradeNo: string;
  transactionNo: string;
  amount: string;
  state: number;
  rechargeId: string;
}

/**
 * The counter's scanned payment code over HTTP, against the local WeChat Pay and Alipay doubles:
 * each channel told by the code's prefix, paid at once or confirmed on the phone, reversed or
 * cancelled when never confirmed, a lost answer settled by a query; each booked exactly once.
 */
describe("counter/codepay against both doubles", () => {
  let server: TestServer;
  let admin: string;
  let meterId: string;
  let accountId: string;
  const wx = new WxpayDouble();
  const ali = new AlipayDouble();
  const merchant = testMerchant("1900003901", "wx3901390139013901", "counterCodePayApiV3Key0123456789");
  const alipayKeys = generateKeyPairSync("rsa", { modulusLength: 2048 });

  const pay = (body: Record<string, unknown>, token = admin) =>
    server.call("POST", `${pms}/counter/codepay`, token, { meterId, energyType: "1", ...body });
  const balance = async () =>
    BigInt(
      (
        await server.db.query<{ balance: string }>(
          "select balance::text as balance from pms_account where id = $1",
          [accountId],
        )
      )[0]!.balance,
    );
  /** The recharges booked for a code payment's order (through its payment), with the payment's number. */
  const booked = async (table: "pms_wx_pay" | "pms_alipay_pay", outTradeNo: string) =>
    server.db.query<{ amount: string; transaction_no: string; payment_method: number; cashier: boolean }>(
      // cashier: the recharge names the signed-in cashier who scanned, by user id, not the channel.
      `select r.amount::text as amount, p.transaction_no, r.payment_method,
              (r.create_user is not null and r.create_user = o.create_user) as cashier
         from ${table} o join pms_payment p on p.id = o.payment_id
         join pms_recharge r on r.payment_id = p.id where o.out_trade_no = $1`,
      [outTradeNo],
    );
  const wxCalls = (path: string, outTradeNo: string) =>
    wx.calls.filter(
      (c) => c.path.endsWith(path) && (c.body.out_trade_no === outTradeNo || c.path.includes(outTradeNo)),
    );

  before(async () => {
    // Short turns, so a payer who never confirms is reversed within the test's time.
    server = await startTestServer({ codePayTiming: { pollMs: 100, timeoutMs: 1_200 } });
    admin = (await server.login()).access_token;
    const base = await server.app.listen({ port: 0, host: "127.0.0.1" });
    await wx.listen();
    await ali.listen();
    wx.addMerchant(merchant);
    await created(server, admin, "wxconfig/submit", doubleConfig(merchant, wx, base, "000000"));
    ali.addApp({
      appId: ALIPAY_APP_ID,
      publicKey: alipayKeys.publicKey.export({ type: "spki", format: "pem" }).toString(),
    });
    await created(server, admin, "alipayconfig/submit", {
      appId: ALIPAY_APP_ID,
      environment: "sandbox",
      privateKey: alipayKeys.privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
      alipayPublicKey: ali.alipayPublicKey,
      gatewayUrl: ali.gateway,
      notifyUrl: `${base}${pms}/alipay/notify/000000`,
      maxAmount: "500",
    });
    const collector = await created(server, admin, "collector/submit", {
      collectorName: "DTU",
      collectorCode: "CODEPAY-DTU-1",
      registrationSecret: "codepay-test-secret-0001",
    });
    const area = await created(server, admin, "area/save", { areaName: "收银园区", areaType: 1 });
    const ownerId = await created(server, admin, "owner/submit", {
      ownerName: "钱七",
      ownerCode: "CP1",
      phone: "13800000039",
    });
    const room = await created(server, admin, "room/save", { areaId: area, roomName: "101" });
    await created(server, admin, "ownerroom/submit", { ownerId, roomId: room });
    const scheme = await created(server, admin, "chargingscheme/submit", {
      schemeName: "电价",
      energyType: 1,
      priceMode: 1,
      price: "0.5883",
    });
    meterId = await created(server, admin, "meter/save", {
      productCode: "201000003939",
      collectorId: collector,
      controlStatus: 1,
      chargingSchemeId: scheme,
    });
    await created(server, admin, "roommeter/submit", { roomId: room, energyType: 1, meterId });
    const opened = await server.call("POST", `${pms}/message/openAccount`, admin, {
      meterId,
      deposit: "100.00",
    });
    assert.equal(opened.statusCode, 200, opened.body);
    accountId = opened.json().data[0].accountId;
  });
  after(async () => {
    await wx.close();
    await ali.close();
    await server.close();
  });

  test("a WeChat code paid at once and an Alipay code paid at once: each channel by its prefix, booked once", async () => {
    const start = await balance();
    const wechat = await pay({ amount: "12.34", authCode: "134567890123456701" });
    assert.equal(wechat.statusCode, 200, wechat.body);
    const w = wechat.json().data as Receipt;
    assert.equal(w.channel, "wechat");
    assert.equal(w.state, 1);
    assert.equal(w.amount, "12.34");
    const order = wx.order(merchant.mchid, w.outTradeNo);
    assert.equal(order?.trade_type, "MICROPAY");
    assert.equal(order?.total, 1234, "WeChat Pay was asked for 1234 fen");
    assert.equal(w.transactionNo, order?.transaction_id);
    assert.match(w.transactionNo, /^4200\d+/);
    const wxBooked = await booked("pms_wx_pay", w.outTradeNo);
    assert.deepEqual(wxBooked, [
      { amount: "1234", transaction_no: w.transactionNo, payment_method: 5, cashier: true },
    ]);

    const alipay = await pay({ amount: "5.60", authCode: "281234567890123401" });
    assert.equal(alipay.statusCode, 200, alipay.body);
    const a = alipay.json().data as Receipt;
    assert.equal(a.channel, "alipay");
    assert.equal(a.state, 1);
    assert.equal(a.transactionNo, ali.trade(ALIPAY_APP_ID, a.outTradeNo)?.tradeNo);
    assert.equal(wxCalls("/codepay", a.outTradeNo).length, 0, "an Alipay code never goes to WeChat Pay");
    // Alipay also notifies a code payment; the order is booked once all the same.
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.deepEqual(await booked("pms_alipay_pay", a.outTradeNo), [
      { amount: "560", transaction_no: a.transactionNo, payment_method: 4, cashier: true },
    ]);
    assert.equal(await balance(), start + 1234n + 560n);

    // The receipt reads the channel's number back from the booked recharge.
    const detail = await server.call("GET", `${pms}/datarecharge/detail?id=${w.rechargeId}`, admin);
    assert.equal(detail.json().data.transactionNo, w.transactionNo);
    assert.deepEqual(await checkLedger(server.db), []);
  });

  test("a WeChat code the payer confirms on the phone: polled until paid, booked once", async () => {
    const start = await balance();
    const code = "101234567890123402";
    wx.needsConfirmation(code, 350);
    const res = await pay({ amount: "7.00", authCode: code });
    assert.equal(res.statusCode, 200, res.body);
    const r = res.json().data as Receipt;
    assert.equal(r.state, 1);
    assert.equal(wxCalls("/codepay", r.outTradeNo).length, 1, "the code was sent once");
    assert.ok(
      wx.calls.filter((c) => c.method === "GET" && c.path.includes(r.outTradeNo)).length >= 1,
      "followed by query",
    );
    assert.equal(wxCalls("/reverse", r.outTradeNo).length, 0, "nothing reversed");
    assert.equal((await booked("pms_wx_pay", r.outTradeNo)).length, 1);
    assert.equal(await balance(), start + 700n);
  });

  test("codes never confirmed are reversed (WeChat Pay) or cancelled (Alipay) when the time is up; nothing booked", async () => {
    const start = await balance();
    const wxCode = "151234567890123403";
    wx.needsConfirmation(wxCode);
    const w = await pay({ amount: "8.00", authCode: wxCode });
    assert.equal(w.statusCode, 200, w.body);
    const wr = w.json().data as Receipt;
    assert.equal(wr.state, 2, "closed");
    assert.equal(wr.transactionNo, "");
    assert.equal(wxCalls("/reverse", wr.outTradeNo).length, 1, "reversed once");
    assert.equal(wx.order(merchant.mchid, wr.outTradeNo)?.trade_state, "REVOKED");
    assert.equal((await booked("pms_wx_pay", wr.outTradeNo)).length, 0);
    const [payment] = await server.db.query<{ state: number }>(
      "select p.state from pms_wx_pay o join pms_payment p on p.id = o.payment_id where o.out_trade_no = $1",
      [wr.outTradeNo],
    );
    assert.equal(payment!.state, 2, "its payment closed");

    const aliCode = "301234567890123403";
    ali.needsConfirmation(aliCode);
    const a = await pay({ amount: "9.00", authCode: aliCode });
    assert.equal(a.statusCode, 200, a.body);
    const ar = a.json().data as Receipt;
    assert.equal(ar.channel, "alipay");
    assert.equal(ar.state, 2);
    assert.ok(
      ali.calls.some(
        (c) => c.method === "alipay.trade.cancel" && c.bizContent.out_trade_no === ar.outTradeNo,
      ),
    );
    assert.equal((await booked("pms_alipay_pay", ar.outTradeNo)).length, 0);
    assert.equal(await balance(), start);
    assert.deepEqual(await checkLedger(server.db), []);
  });

  test("an answer lost on the way is settled by query, never by paying twice, in both channels", async () => {
    const start = await balance();
    wx.loseNextAnswer("codepay");
    const w = await pay({ amount: "3.21", authCode: "121234567890123404" });
    assert.equal(w.statusCode, 200, w.body);
    const wr = w.json().data as Receipt;
    assert.equal(wr.state, 1);
    assert.equal(wr.transactionNo, wx.order(merchant.mchid, wr.outTradeNo)?.transaction_id);
    assert.equal(wxCalls("/codepay", wr.outTradeNo).length, 1, "paid once");
    assert.equal((await booked("pms_wx_pay", wr.outTradeNo)).length, 1);

    ali.loseNextAnswer("alipay.trade.pay");
    const a = await pay({ amount: "4.32", authCode: "251234567890123404" });
    assert.equal(a.statusCode, 200, a.body);
    const ar = a.json().data as Receipt;
    assert.equal(ar.state, 1);
    assert.equal(
      ali.calls.filter((c) => c.method === "alipay.trade.pay" && c.bizContent.out_trade_no === ar.outTradeNo)
        .length,
      1,
      "paid once",
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal((await booked("pms_alipay_pay", ar.outTradeNo)).length, 1);
    assert.equal(await balance(), start + 321n + 432n);
    assert.deepEqual(await checkLedger(server.db), []);
  });

  test("a reverse whose answer is lost leaves the order open (not booked); the query job then closes it", async () => {
    const start = await balance();
    const code = "111234567890123406";
    wx.needsConfirmation(code);
    wx.loseNextAnswer("reverse");
    const res = await pay({ amount: "6.00", authCode: code });
    assert.equal(res.statusCode, 200, res.body);
    const open = res.json().data as Receipt;
    assert.equal(open.state, 0, "not known here: neither booked nor closed");
    assert.equal(wx.order(merchant.mchid, open.outTradeNo)?.trade_state, "REVOKED");
    // Past its time, the query job learns the order was reversed and closes it; nothing is booked.
    await server.db.query(
      `update pms_wx_pay set create_time = now() - interval '20 minutes', expire_time = now() - interval '5 minutes'
        where out_trade_no = $1`,
      [open.outTradeNo],
    );
    const swept = await sweepUnpaid({
      db: server.db,
      cipher: new FieldCipher(server.dataKey),
      timeZone: "Asia/Shanghai",
      log: () => {},
    });
    assert.equal(swept.booked, 0);
    const [row] = await server.db.query<{ state: number }>(
      "select state from pms_wx_pay where out_trade_no = $1",
      [open.outTradeNo],
    );
    assert.equal(row!.state, 2);
    assert.equal((await booked("pms_wx_pay", open.outTradeNo)).length, 0);
    assert.equal(await balance(), start);
  });

  test("a code of neither kind, a used code, no permission: refused before anything is booked", async () => {
    const start = await balance();
    const callsBefore = wx.calls.length + ali.calls.length;
    for (const authCode of ["12345", "161234567890123456", "1345678901234567", "abcdefghijklmnopqr", ""]) {
      const res = await pay({ amount: "1.00", authCode });
      assert.equal(res.statusCode, 400, `${authCode}: ${res.body}`);
      assert.match(res.json().msg, /^authCode: /);
    }
    assert.equal(wx.calls.length + ali.calls.length, callsBefore, "no channel was asked");
    const bad = await pay({ amount: "abc", authCode: "134567890123456705" });
    assert.equal(bad.statusCode, 400);
    assert.match(bad.json().msg, /^amount: /);
    // A code already used (the first test's) is refused by WeChat Pay: the order fails, nothing is booked.
    const used = await pay({ amount: "1.00", authCode: "134567890123456701" });
    assert.equal(used.statusCode, 400, used.body);
    assert.match(used.json().msg, /TRADE_ERROR/);
    // A role with no grants at all: its user hears 403, not the 400 of the bad code.
    const role = (
      await server.call("POST", "/api/blade-system/role/submit", admin, {
        roleName: "无收款权限",
        roleAlias: "noCodePay",
      })
    ).json().data.id;
    await addUser(server.db, {
      tenantId: "000000",
      account: "nocodepay",
      password: "pw-nocodepay",
      roleIds: [role],
    });
    const reader = (await server.login("nocodepay", "pw-nocodepay")).access_token;
    const denied = await pay({ amount: "1.00", authCode: "nonsense" }, reader);
    assert.equal(denied.statusCode, 403, "403 before 400 for a caller without permission");
    assert.equal(await balance(), start);
  });
});

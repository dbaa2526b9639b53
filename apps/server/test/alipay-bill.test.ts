import assert from "node:assert/strict";
import { generateKeyPairSync } from "node:crypto";
import { after, before, describe, test } from "node:test";
import { FieldCipher } from "../src/crud/field-cipher.ts";
import { AlipayDouble } from "../src/modules/alipay/double/alipay-double.ts";
import { chinaDay } from "../src/modules/wxpay/wxbill-compare.ts";
import { reconcileYesterday } from "../src/modules/wxpay/wxbill-job.ts";
import type { WxpayDeps } from "../src/modules/wxpay/wxpay.service.ts";
import { startTestServer, type TestServer } from "./helpers.ts";
import { created } from "./registry-fixtures.ts";

const pms = "/api/blade-pms";
const APP_ID = "2021000117659001";

interface Diff {
  id: string;
  channel: string;
  kind: string;
  outTradeNo: string;
  transactionId: string;
  receiptNo: string;
  wxPayId: string;
  wechatAmount: string | null;
  localAmount: string | null;
  state: string;
  action: string;
  ledgerId: string;
}

/**
 * Alipay's daily trade bill reconciled by the same reconciliation as WeChat Pay's, over HTTP on a real
 * database against the local gateway double: a day with a planted difference of each kind, settled
 * through the ledger, balances exact, the day run again doubling nothing.
 */
describe("Alipay reconciliation: the daily bill against the Alipay orders and the ledger", () => {
  let server: TestServer;
  let admin: string;
  let base: string;
  let meterId: string;
  let accountId: string;
  let deps: WxpayDeps;
  const double = new AlipayDouble();
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const today = chinaDay(new Date());
  const yesterday = chinaDay(new Date(Date.now() - 24 * 3_600_000));
  /** Noon of yesterday in Beijing: when the day's trades were paid. */
  const paidAt = (minute: number) => new Date(Date.parse(`${yesterday}T04:00:00Z`) + minute * 60_000);
  /** Noon of today in Beijing: the daily job's run, after the bills are ready. */
  const noon = new Date(`${today}T04:00:00Z`);

  const post = (path: string, body: Record<string, unknown>) =>
    server.call("POST", `${pms}/${path}`, admin, body);
  const get = (path: string) => server.call("GET", `${pms}/${path}`, admin);
  const balance = async () =>
    BigInt(
      (
        await server.db.query<{ balance: string }>(
          "select balance::text as balance from pms_account where id = $1",
          [accountId],
        )
      )[0]!.balance,
    );
  const ledgerCount = async () =>
    Number(
      (
        await server.db.query<{ n: string }>(
          "select count(*)::text as n from pms_ledger where account_id = $1",
          [accountId],
        )
      )[0]!.n,
    );
  const order = async (amount: string) => {
    const res = await post("alipay/precreate", { meterId, amount });
    assert.equal(res.statusCode, 200, res.body);
    return res.json().data as { id: string; outTradeNo: string };
  };
  /** An order paid yesterday at `minute` past noon, its notification delivered (booked) or lost. */
  const paidYesterday = async (
    amount: string,
    minute: number,
    notification: "deliver" | "drop" = "deliver",
  ) => {
    const made = await order(amount);
    double.notifyPlan({ mode: notification });
    await double.payAt(APP_ID, made.outTradeNo, paidAt(minute));
    double.notifyPlan({ mode: "deliver" });
    return made;
  };
  const orderState = async (id: string) =>
    (await server.db.query<{ state: number }>("select state from pms_alipay_pay where id = $1", [id]))[0]
      ?.state;
  const diffs = async (query = "") => {
    const res = await get(`wxbill/diff-list?size=100&channel=alipay${query}`);
    assert.equal(res.statusCode, 200, res.body);
    return res.json().data.records as Diff[];
  };
  const diffOf = async (no: string) =>
    (await diffs()).find((d) => d.outTradeNo === no || d.receiptNo === no)!;
  const bill = async (day: string, channel = "alipay") => {
    const res = await get(`wxbill/list?billDate=${day}&channel=${channel}`);
    assert.equal(res.statusCode, 200, res.body);
    return res.json().data.records[0] as
      | {
          channel: string;
          mchid: string;
          state: string;
          successCount: number;
          settlementTotal: string;
          localCount: number;
          localTotal: string;
          counterCount: number;
          openCount: number;
          errorCode: string;
        }
      | undefined;
  };
  const settle = (id: string, action: string, reason: string) =>
    post("wxbill/settle", { id, action, reason });
  const reconcile = (billDate: string, channel = "alipay") => post("wxbill/reconcile", { billDate, channel });

  before(async () => {
    server = await startTestServer();
    admin = (await server.login()).access_token;
    base = await server.app.listen({ port: 0, host: "127.0.0.1" });
    await double.listen();
    double.addApp({ appId: APP_ID, publicKey: publicKey.export({ type: "spki", format: "pem" }).toString() });
    await created(server, admin, "alipayconfig/submit", {
      appId: APP_ID,
      environment: "sandbox",
      privateKey: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
      alipayPublicKey: double.alipayPublicKey,
      gatewayUrl: double.gateway,
      notifyUrl: `${base}${pms}/alipay/notify/000000`,
    });
    deps = {
      db: server.db,
      cipher: new FieldCipher(server.dataKey),
      timeZone: "Asia/Shanghai",
      log: () => {},
    };
    const collector = await created(server, admin, "collector/submit", {
      collectorName: "DTU",
      collectorCode: "ALIBILL-DTU-1",
      registrationSecret: "alipay-bill-secret-01",
    });
    const area = await created(server, admin, "area/save", { areaName: "支付宝对账园区", areaType: 1 });
    const ownerId = await created(server, admin, "owner/submit", {
      ownerName: "钱七",
      ownerCode: "ALB1",
      phone: "13800000029",
    });
    const room = await created(server, admin, "room/save", { areaId: area, roomName: "601" });
    await created(server, admin, "ownerroom/submit", { ownerId, roomId: room });
    const scheme = await created(server, admin, "chargingscheme/submit", {
      schemeName: "电价",
      energyType: 1,
      priceMode: 1,
      price: "0.5883",
    });
    meterId = await created(server, admin, "meter/save", {
      productCode: "201000003911",
      collectorId: collector,
      controlStatus: 1,
      chargingSchemeId: scheme,
    });
    await created(server, admin, "roommeter/submit", { roomId: room, energyType: 1, meterId });
    const opened = await post("message/openAccount", { meterId, deposit: "100.00" });
    assert.equal(opened.statusCode, 200, opened.body);
    accountId = opened.json().data[0].accountId;
  });
  after(async () => {
    await double.close();
    await server.close();
  });

  test("today's bill is not there yet: the run fails as not ready and says so; a channel it does not know is a 400", async () => {
    const res = await reconcile(today);
    assert.equal(res.statusCode, 200, res.body);
    assert.match(res.json().msg, /^对账失败: /);
    const day = res.json().data as { channel: string; state: string; errorCode: string; mchid: string };
    assert.deepEqual(
      [day.channel, day.state, day.errorCode, day.mchid],
      ["alipay", "failed", "BILL_NOT_READY", APP_ID],
    );
    const wrong = await reconcile(yesterday, "unionpay");
    assert.equal(wrong.statusCode, 400, wrong.body);
    assert.match(wrong.json().msg, /^channel: /);
  });

  let lost: { id: string; outTradeNo: string };
  let unseen: { id: string; outTradeNo: string };

  test("the daily job sweeps unpaid orders by query (a lost notification booked once, an expired one closed), then reconciles yesterday", async () => {
    const before = await balance();
    const ledger = await ledgerCount();
    await paidYesterday("20", 0);
    lost = await paidYesterday("15", 5, "drop");
    unseen = await order("9");
    // Both taken an hour before the job's run; the unseen one, never scanned, has expired.
    await server.db.query(
      "update pms_alipay_pay set create_time = $2, expire_time = $3 where id = any($1::bigint[])",
      [[lost.id, unseen.id], new Date(noon.getTime() - 60 * 60_000), new Date(noon.getTime() - 30 * 60_000)],
    );
    assert.equal(await orderState(lost.id), 0);
    assert.equal(await reconcileYesterday(deps, noon), 1);
    assert.equal(await orderState(lost.id), 1, "the lost notification is settled by alipay.trade.query");
    assert.equal(await orderState(unseen.id), 2, "the expired order Alipay never saw is closed");
    assert.equal(await balance(), before + 3500n);
    assert.equal(await ledgerCount(), ledger + 2);
    const day = await bill(yesterday);
    assert.deepEqual(
      [day?.channel, day?.mchid, day?.state, day?.successCount, day?.settlementTotal, day?.localCount],
      ["alipay", APP_ID, "balanced", 2, "35.00", 2],
    );
    assert.deepEqual(await diffs(), []);
    // Reconciled once: the job's next run leaves the day alone and books nothing more.
    assert.equal(await reconcileYesterday(deps, noon), 0);
    assert.equal(await ledgerCount(), ledger + 2);
    assert.equal(await bill(yesterday, "wechat"), undefined, "WeChat Pay's days are apart");
  });

  let unbooked: { id: string; outTradeNo: string };
  let hidden: { id: string; outTradeNo: string };
  let changed: { id: string; outTradeNo: string };
  let counterReceipt: string;

  test("planted differences of each kind are found by the operator's run of the day", async () => {
    unbooked = await paidYesterday("30", 10, "drop");
    double.plantPayment(APP_ID, "MLAOTHERTILL0001", 777n, paidAt(20));
    hidden = await paidYesterday("12", 30);
    double.hideFromBill(APP_ID, hidden.outTradeNo);
    changed = await paidYesterday("40", 40);
    double.plantAmount(APP_ID, changed.outTradeNo, 4150n);
    // Recorded at the counter as 支付宝 yesterday, with no trade of the bill for it.
    const taken = await post("datarecharge/submit", {
      accountId,
      paymentMethod: 4,
      amount: "25",
      idempotencyKey: "alipay-bill-counter",
    });
    assert.equal(taken.statusCode, 200, taken.body);
    counterReceipt = taken.json().data.receiptNo;
    await server.db.query("update pms_recharge set create_time = $2 where receipt_no = $1", [
      counterReceipt,
      paidAt(50),
    ]);

    const res = await reconcile(yesterday);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().msg, "对账完成");
    const found = await diffs(`&billDate=${yesterday}`);
    assert.equal(found.length, 5, JSON.stringify(found));
    assert.ok(found.every((d) => d.channel === "alipay" && d.state === "open"));
    const of = async (no: string) => {
      const d = await diffOf(no);
      return [d.kind, d.wechatAmount, d.localAmount];
    };
    assert.deepEqual(await of(unbooked.outTradeNo), ["alipay_only", "30.00", null]);
    assert.equal((await diffOf(unbooked.outTradeNo)).wxPayId, unbooked.id);
    assert.equal(
      (await diffOf(unbooked.outTradeNo)).transactionId,
      double.trade(APP_ID, unbooked.outTradeNo)?.tradeNo,
      "the difference names Alipay's trade number",
    );
    assert.deepEqual(await of("MLAOTHERTILL0001"), ["alipay_only", "7.77", null]);
    assert.deepEqual(await of(hidden.outTradeNo), ["local_only", null, "12.00"]);
    assert.deepEqual(await of(changed.outTradeNo), ["amount", "41.50", "40.00"]);
    assert.deepEqual(await of(counterReceipt), ["counter_only", null, "25.00"]);
    const day = await bill(yesterday);
    assert.deepEqual([day?.state, day?.openCount, day?.counterCount], ["differences", 5, 1]);
    // Run again: the open differences are replaced, not added to.
    assert.equal((await reconcile(yesterday)).statusCode, 200);
    assert.equal((await diffs()).length, 5);
    assert.equal((await diffs("&kind=alipay_only")).length, 2);
    const wechat = await get("wxbill/diff-list?channel=wechat");
    assert.equal(wechat.json().data.total, 0, "the WeChat Pay filter lists none of Alipay's");
  });

  test("each difference is settled through the ledger, balances exact", async () => {
    const start = await balance();
    const ledger = await ledgerCount();

    // alipay_only of a known order: booked as its notification would have been, once.
    const book = await settle((await diffOf(unbooked.outTradeNo)).id, "book", "通知丢失,按账单入账");
    assert.equal(book.statusCode, 200, book.body);
    assert.equal(await orderState(unbooked.id), 1);
    assert.equal(await balance(), start + 3000n);
    const booked = await diffOf(unbooked.outTradeNo);
    const [entry] = await server.db.query<{ entry_type: number; amount: string }>(
      "select entry_type, amount::text as amount from pms_ledger where id = $1",
      [booked.ledgerId],
    );
    assert.deepEqual([booked.state, entry?.entry_type, entry?.amount], ["settled", 2, "3000"]);
    const again = await settle(booked.id, "book", "再来一次");
    assert.equal(again.statusCode, 400, again.body);
    // The late notification finds the order paid and books nothing.
    await double.resend(APP_ID, unbooked.outTradeNo);
    assert.equal(await balance(), start + 3000n);

    // alipay_only of a trade no order here knows: only acknowledged.
    const other = await diffOf("MLAOTHERTILL0001");
    const refused = await settle(other.id, "book", "入账");
    assert.equal(refused.statusCode, 400, refused.body);
    assert.match(refused.json().msg, /^action: /);
    assert.equal((await settle(other.id, "acknowledge", "其他收银台的收款")).statusCode, 200);

    // local_only: reversed by a correction minus under 支付宝.
    assert.equal(
      (await settle((await diffOf(hidden.outTradeNo)).id, "reverse", "支付宝无此笔")).statusCode,
      200,
    );
    const reversed = await diffOf(hidden.outTradeNo);
    const [minus] = await server.db.query<{ entry_type: number; amount: string; payment_method: number }>(
      `select l.entry_type, l.amount::text as amount, r.payment_method
         from pms_ledger l join pms_recharge r on r.id = l.recharge_id where l.id = $1`,
      [reversed.ledgerId],
    );
    assert.deepEqual([minus?.entry_type, minus?.amount, minus?.payment_method], [5, "-1200", 4]);

    // amount: the difference booked as a correction plus.
    assert.equal(
      (await settle((await diffOf(changed.outTradeNo)).id, "correct", "按支付宝实收调整")).statusCode,
      200,
    );
    const [plus] = await server.db.query<{ entry_type: number; amount: string }>(
      "select entry_type, amount::text as amount from pms_ledger where id = $1",
      [(await diffOf(changed.outTradeNo)).ledgerId],
    );
    assert.deepEqual([plus?.entry_type, plus?.amount], [4, "150"]);

    // counter_only: the counter recharge recorded as 支付宝 is taken back.
    assert.equal(
      (await settle((await diffOf(counterReceipt)).id, "reverse", "误记为支付宝")).statusCode,
      200,
    );

    assert.equal(await balance(), start + 3000n - 1200n + 150n - 2500n);
    assert.equal(await ledgerCount(), ledger + 4);
    const day = await bill(yesterday);
    assert.deepEqual([day?.state, day?.openCount], ["balanced", 0]);
  });

  test("reconciling the day again keeps the settled differences, opens none and moves no money", async () => {
    const before = await balance();
    const ledger = await ledgerCount();
    assert.equal((await reconcile(yesterday)).statusCode, 200);
    const all = await diffs();
    assert.equal(all.length, 5);
    assert.ok(all.every((d) => d.state === "settled"));
    // The booked order is no difference any more; the others stay settled as they were.
    assert.deepEqual((await bill(yesterday))?.state, "balanced");
    assert.equal(await balance(), before);
    assert.equal(await ledgerCount(), ledger);
  });
});

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { silentLogger } from "@meterline/gateway";
import {
  type ElectricMeter,
  type FleetHandle,
  planFleet,
  plannedSecret,
  startFleet,
} from "@meterline/simulator";
import { FieldCipher } from "../src/crud/field-cipher.ts";
import { type EmbeddedMetering, startEmbeddedMetering } from "../src/modules/metering/embedded-gateway.ts";
import { WxpayDouble } from "../src/modules/wxpay/double/wxpay-double.ts";
import { downloadTradeBill } from "../src/modules/wxpay/wxbill-download.ts";
import {
  createOrder,
  getOrder,
  loadMerchant,
  sweepUnpaid,
  type WxpayDeps,
} from "../src/modules/wxpay/wxpay.service.ts";
import { callWxpay, WxpayCallError } from "../src/modules/wxpay/wxpay-client.ts";
import { verifyPaySign } from "../src/modules/wxpay/wxpay-protocol.ts";
import { provisionTenant } from "./fixtures.ts";
import { startTestServer, type TestServer } from "./helpers.ts";
import { created } from "./registry-fixtures.ts";
import { doubleConfig, type TestMerchant, testMerchant } from "./wxpay-fixtures.ts";

// One remote-control electric meter on one DTU: its relay is what arrears cut and a payment restores.
const PLAN = { meters: 1, dtus: 1, waterRatio: 0, prepaidRatio: 0, seed: "wxpay" } as const;
const pms = "/api/blade-pms";

describe("WeChat Pay v3 against the local double: orders, notifications, the query job, refunds, restore", () => {
  let server: TestServer;
  let admin: string;
  let base: string;
  let metering: EmbeddedMetering;
  let fleet: FleetHandle;
  let deps: WxpayDeps;
  const double = new WxpayDouble();
  const plan = planFleet(PLAN);
  const [meterPlan] = plan.meters;
  const merchant = testMerchant("1900000109", "wx8888888888888888", "0123456789abcdefghijklmnopqrstuv");
  const otherMerchant = testMerchant("1900000222", "wx2222222222222222", "ABCDEFGHIJKLMNOPQRSTUVWXYZ012345");
  let meterId: string;
  let accountId: string;
  let ownerId: string;
  let other: Awaited<ReturnType<typeof provisionTenant>>;
  const refusals: string[] = [];

  const post = (path: string, body: Record<string, unknown>, token = admin) =>
    server.call("POST", `${pms}/${path}`, token, body);
  const get = (path: string, token = admin) => server.call("GET", `${pms}/${path}`, token);
  const count = async (sql: string, params: unknown[] = []) =>
    Number((await server.db.query<{ n: string }>(`select count(*)::text as n from ${sql}`, params))[0]!.n);
  const order = async (outTradeNo: string) =>
    (
      await server.db.query<{
        id: string;
        state: number;
        recharge_id: string | null;
        payment_id: string;
        refund_amount: string;
      }>(
        `select id::text as id, state, recharge_id::text as recharge_id, payment_id::text as payment_id, refund_amount::text as refund_amount
           from pms_wx_pay where out_trade_no = $1`,
        [outTradeNo],
      )
    )[0]!;
  const rechargesOf = (paymentId: string) =>
    server.db.query<{ id: string; payment_method: number; amount: string; ledger_id: string }>(
      "select id::text as id, payment_method, amount::text as amount, ledger_id::text as ledger_id from pms_recharge where payment_id = $1",
      [paymentId],
    );
  const balance = async () =>
    (
      await server.db.query<{ balance: string }>(
        "select balance::text as balance from pms_account where id = $1",
        [accountId],
      )
    )[0]!.balance;
  const nativeOrder = async (amount: string) => {
    const res = await post("wxpay/native", { meterId, amount });
    assert.equal(res.statusCode, 200, res.body);
    return res.json().data as {
      id: string;
      outTradeNo: string;
      codeUrl: string;
      state: number;
      amount: string;
    };
  };
  const waitFor = async <T>(what: string, probe: () => Promise<T | undefined>): Promise<T> => {
    for (let i = 0; i < 300; i++) {
      const value = await probe();
      if (value !== undefined) return value;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`timed out waiting for ${what}`);
  };
  const configure = (token: string, m: TestMerchant, tenantId: string) =>
    created(server, token, "wxconfig/submit", doubleConfig(m, double, base, tenantId));

  before(async () => {
    server = await startTestServer();
    admin = (await server.login()).access_token;
    base = await server.app.listen({ port: 0, host: "127.0.0.1" });
    await double.listen();
    double.addMerchant({
      mchid: merchant.mchid,
      appid: merchant.appid,
      publicKey: merchant.publicKey,
      apiV3Key: merchant.apiV3Key,
    });
    double.addMerchant(otherMerchant);
    deps = {
      db: server.db,
      cipher: new FieldCipher(server.dataKey),
      timeZone: "Asia/Shanghai",
      log: (message, fields) => refusals.push(`${message}: ${String(fields.reason ?? fields.error)}`),
    };
    await configure(admin, merchant, "000000");
    other = await provisionTenant(server, admin, "隔壁物业");
    await configure(other.token, otherMerchant, other.tenantId);

    const collector = await created(server, admin, "collector/submit", {
      collectorName: "DTU",
      collectorCode: plan.dtuIds[0],
      registrationSecret: plannedSecret(plan, plan.dtuIds[0]!),
    });
    const area = await created(server, admin, "area/save", { areaName: "支付园区", areaType: 1 });
    ownerId = await created(server, admin, "owner/submit", {
      ownerName: "王五",
      ownerCode: "WX1",
      phone: "13800000009",
    });
    const room = await created(server, admin, "room/save", { areaId: area, roomName: "301" });
    await created(server, admin, "ownerroom/submit", { ownerId, roomId: room });
    const scheme = await created(server, admin, "chargingscheme/submit", {
      schemeName: "电价",
      energyType: 1,
      priceMode: 1,
      price: "0.5883",
    });
    const alarm = await created(server, admin, "alarmscheme/submit", {
      schemeName: "断电告警",
      energyType: 1,
      firstAlarm: "50",
      secondAlarm: "20",
      arrearsLimit: "10",
      tripOnArrears: 1,
    });
    assert.equal(meterPlan!.localPrepaid, false);
    meterId = await created(server, admin, "meter/save", {
      productCode: meterPlan!.address,
      collectorId: collector,
      controlStatus: 1,
      chargingSchemeId: scheme,
      alarmSchemeId: alarm,
    });
    await created(server, admin, "roommeter/submit", { roomId: room, energyType: 1, meterId });
    const opened = await post("message/openAccount", { meterId, deposit: "100.00" });
    assert.equal(opened.statusCode, 200, opened.body);
    accountId = opened.json().data[0].accountId;
    metering = await startEmbeddedMetering({
      db: server.db,
      cipher: new FieldCipher(server.dataKey),
      logger: silentLogger,
      pollIntervalMs: 3_600_000,
      demoFleet: false,
      env: { GATEWAY_PORT: "0", GATEWAY_HOST: "127.0.0.1" },
    });
    fleet = await startFleet({ ...PLAN, gateway: metering.gateway.address() });
  });
  after(async () => {
    await fleet?.close();
    await metering?.close();
    await double.close();
    await server.close();
  });

  test("amounts that are zero, negative, not whole fen or over the tenant's limit are refused before any order", async () => {
    const payments = await count("pms_payment");
    for (const [amount, message] of [
      ["0", /^amount: 金额必须大于 0/],
      ["-5", /^amount: /],
      ["0.001", /^amount: 金额应为最多2位小数/],
      ["abc", /^amount: /],
      ["500.01", /^amount: 单笔金额不能超过 500\.00 元/],
    ] as const) {
      const res = await post("wxpay/native", { meterId, amount });
      assert.equal(res.statusCode, 400, `${amount}: ${res.body}`);
      assert.match(res.json().msg, message);
    }
    await assert.rejects(
      createOrder(deps, {
        tenantId: "000000",
        meterId,
        amountFen: 12.5,
        channel: "native",
        actor: { name: "t" },
      }),
      /amount: 金额须为整分/,
    );
    await assert.rejects(
      createOrder(deps, {
        tenantId: "000000",
        meterId,
        amountFen: 100,
        channel: "jsapi",
        actor: { name: "t" },
      }),
      /openid: /,
    );
    assert.equal(await count("pms_wx_pay"), 0);
    assert.equal(await count("pms_payment"), payments);
    assert.equal(double.deliveries.length, 0);
  });

  test("a Native order paid on the phone books exactly one recharge of method 5, linked to its payment and order", async () => {
    const made = await nativeOrder("20");
    assert.match(made.codeUrl, /^weixin:\/\/wxpay\/bizpayurl\?pr=\w+$/);
    assert.equal(made.state, 0);
    assert.equal(double.order(merchant.mchid, made.outTradeNo)?.total, 2000);
    const before = await balance();
    const deliveries = await double.pay(merchant.mchid, made.outTradeNo);
    assert.deepEqual(
      deliveries.map((d) => d.status),
      [204],
    );
    const row = await order(made.outTradeNo);
    assert.equal(row.state, 1);
    const recharges = await rechargesOf(row.payment_id);
    assert.equal(recharges.length, 1);
    assert.deepEqual(
      [recharges[0]!.payment_method, recharges[0]!.amount, recharges[0]!.id],
      [5, "2000", row.recharge_id],
    );
    assert.equal(BigInt(await balance()) - BigInt(before), 2000n);
    const [payment] = await server.db.query<{
      state: number;
      payment_method: number;
      channel: string;
      transaction_no: string;
    }>("select state, payment_method, channel, transaction_no from pms_payment where id = $1", [
      row.payment_id,
    ]);
    assert.deepEqual(
      [payment!.state, payment!.payment_method, payment!.channel, payment!.transaction_no],
      [1, 5, "online", double.order(merchant.mchid, made.outTradeNo)!.transaction_id],
    );
    const list = await get(`wxpay/list?current=1&size=10&outTradeNo=${made.outTradeNo}`);
    assert.equal(list.statusCode, 200, list.body);
    const [listed] = list.json().data.records;
    assert.deepEqual(
      [
        listed.ownerName,
        listed.roomName.endsWith("301"),
        listed.productCode,
        listed.amount,
        listed.state,
        Boolean(listed.receiptNo),
      ],
      ["王五", true, meterPlan!.address, "20.00", 1, true],
    );
    assert.equal(list.json().data.totals.paid, "20.00");
  });

  test("a notification sent three times and again later books once", async () => {
    const made = await nativeOrder("3.50");
    double.notifyPlan({ mode: "deliver", times: 3 });
    const deliveries = await double.pay(merchant.mchid, made.outTradeNo);
    double.notifyPlan({ mode: "deliver" });
    assert.deepEqual(
      deliveries.map((d) => d.status),
      [204, 204, 204],
    );
    await double.resend(merchant.mchid, made.outTradeNo);
    const row = await order(made.outTradeNo);
    assert.equal((await rechargesOf(row.payment_id)).length, 1);
    assert.equal(await count("pms_ledger where recharge_id = $1", [row.recharge_id]), 1);
  });

  test("a lost notification is found by the query job; an expired unpaid order is closed there and at WeChat Pay", async () => {
    const lost = await nativeOrder("7");
    const expired = await nativeOrder("8");
    double.notifyPlan({ mode: "drop" });
    await double.pay(merchant.mchid, lost.outTradeNo);
    double.notifyPlan({ mode: "deliver" });
    assert.equal((await order(lost.outTradeNo)).state, 0);
    // Nothing younger than a minute is asked about.
    assert.deepEqual(await sweepUnpaid(deps), { booked: 0, closed: 0 });
    await server.db.query(
      "update pms_wx_pay set create_time = now() - interval '2 minutes' where out_trade_no = any($1)",
      [[lost.outTradeNo, expired.outTradeNo]],
    );
    await server.db.query(
      "update pms_wx_pay set expire_time = now() - interval '1 second' where out_trade_no = $1",
      [expired.outTradeNo],
    );
    assert.deepEqual(await sweepUnpaid(deps), { booked: 1, closed: 1 });
    const paid = await order(lost.outTradeNo);
    assert.equal(paid.state, 1);
    assert.equal((await rechargesOf(paid.payment_id)).length, 1);
    const closed = await order(expired.outTradeNo);
    assert.equal(closed.state, 2);
    assert.equal(double.order(merchant.mchid, expired.outTradeNo)?.trade_state, "CLOSED");
    const [payment] = await server.db.query<{ state: number }>(
      "select state from pms_payment where id = $1",
      [closed.payment_id],
    );
    assert.equal(payment!.state, 2);
    // A late notification of the lost one books nothing more.
    await double.resend(merchant.mchid, lost.outTradeNo);
    assert.equal((await rechargesOf(paid.payment_id)).length, 1);
    assert.deepEqual(await sweepUnpaid(deps), { booked: 0, closed: 0 });
    assert.deepEqual(refusals, []);
  });

  test("tampered, stale, unknown, different-amount and other-merchant notifications are refused and book nothing", async () => {
    const made = await nativeOrder("9");
    const ledger = await count("pms_ledger");
    double.notifyPlan({ mode: "deliver", tamper: true });
    assert.deepEqual(
      (await double.pay(merchant.mchid, made.outTradeNo)).map((d) => d.status),
      [401],
    );
    double.notifyPlan({ mode: "deliver", ageSeconds: 600 });
    assert.deepEqual(
      (await double.resend(merchant.mchid, made.outTradeNo)).map((d) => d.status),
      [401],
    );
    double.notifyPlan({ mode: "deliver" });
    const transaction = {
      appid: merchant.appid,
      mchid: merchant.mchid,
      out_trade_no: made.outTradeNo,
      transaction_id: "4200000000000000000000000001",
      trade_type: "NATIVE",
      trade_state: "SUCCESS",
      success_time: "2026-11-27T10:00:00+08:00",
      payer: { openid: "o-forged" },
      amount: { total: 900, payer_total: 900, currency: "CNY" },
    };
    const send = async (tenantId: string, key: string, trade: Record<string, unknown>) => {
      const { headers, body } = double.craftNotification(key, trade);
      return server.inject({
        method: "POST",
        url: `${pms}/wxpay/notify/${tenantId}`,
        headers,
        payload: body,
      });
    };
    const cases: [string, string, Record<string, unknown>, RegExp][] = [
      ["000000", merchant.apiV3Key, { ...transaction, out_trade_no: "ML-NOT-OURS-0001" }, /unknown order/],
      ["000000", merchant.apiV3Key, { ...transaction, amount: { total: 1 } }, /amount mismatch/],
      ["000000", merchant.apiV3Key, { ...transaction, mchid: otherMerchant.mchid }, /merchant mismatch/],
      // The other tenant's merchant: encrypted with its key, it does not open here ...
      ["000000", otherMerchant.apiV3Key, { ...transaction, mchid: otherMerchant.mchid }, /does not decrypt/],
      // ... and at its own address it names an order that tenant never had.
      [
        other.tenantId,
        otherMerchant.apiV3Key,
        { ...transaction, mchid: otherMerchant.mchid, appid: otherMerchant.appid },
        /unknown order/,
      ],
    ];
    for (const [tenantId, key, trade, reason] of cases) {
      const res = await send(tenantId, key, trade);
      assert.equal(res.statusCode, 400, res.body);
      assert.match(res.json().message, reason);
    }
    const oversized = await server.inject({
      method: "POST",
      url: `${pms}/wxpay/notify/000000`,
      headers: { "content-type": "application/json" },
      payload: `{"x":"${"a".repeat(20_000)}"}`,
    });
    assert.equal(oversized.statusCode, 413);
    assert.equal(await count("pms_ledger"), ledger);
    assert.equal((await order(made.outTradeNo)).state, 0);
    // The double's deliveries carry the merchant's answers: why each was refused.
    const answers = double.deliveries.slice(-2).map((d) => JSON.parse(d.body).message);
    assert.deepEqual(answers, ["signature: signature", "signature: stale"]);
    // The genuine notification, sent again by WeChat Pay, still books.
    assert.deepEqual(
      (await double.resend(merchant.mchid, made.outTradeNo)).map((d) => d.status),
      [204],
    );
    assert.equal((await order(made.outTradeNo)).state, 1);
  });

  test("a JSAPI order answers pay-sign parameters the merchant key verifies; another owner's account is not found", async () => {
    const made = await createOrder(deps, {
      tenantId: "000000",
      ownerId,
      meterId,
      amountFen: 1234,
      channel: "jsapi",
      openid: "oUpF8uMuAJO_M2pxb1Q9zNjWeS6o",
      actor: { name: "业主" },
    });
    assert.equal(made.amount, "12.34");
    assert.ok(made.payParams && verifyPaySign(made.payParams, merchant.publicKey));
    assert.match(made.payParams.package, /^prepay_id=wx\w+$/);
    assert.equal(
      (await getOrder(server.db, "000000", { outTradeNo: made.outTradeNo, ownerId }))?.id,
      made.id,
    );
    assert.equal(await getOrder(server.db, "000000", { id: made.id, ownerId: "1" }), undefined);
    assert.equal(await getOrder(server.db, other.tenantId, { id: made.id }), undefined);
    await assert.rejects(
      createOrder(deps, {
        tenantId: "000000",
        ownerId: "1",
        meterId,
        amountFen: 100,
        channel: "jsapi",
        openid: "oUpF8uMuAJO_M2pxb1Q9zNjWeS6o",
        actor: { name: "t" },
      }),
      /accountId: 账户不存在/,
    );
  });

  test("a refund goes through WeChat Pay's refund API and back through the ledger as a refund", async () => {
    const made = await nativeOrder("30");
    await double.pay(merchant.mchid, made.outTradeNo);
    const before = await balance();
    const res = await post("wxpay/refund", { id: made.id, amount: "10", reason: "多充" });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().data.status, "SUCCESS");
    const [entry] = await server.db.query<{ entry_type: number; amount: string }>(
      "select entry_type, amount::text as amount from pms_ledger where recharge_id = $1",
      [res.json().data.rechargeId],
    );
    assert.deepEqual([entry!.entry_type, entry!.amount], [3, "-1000"]);
    assert.equal(BigInt(before) - BigInt(await balance()), 1000n);
    assert.equal(double.order(merchant.mchid, made.outTradeNo)?.refunded, 1000);
    assert.equal((await order(made.outTradeNo)).refund_amount, "1000");
    const over = await post("wxpay/refund", { id: made.id, amount: "20.01" });
    assert.equal(over.statusCode, 400);
    assert.match(over.json().msg, /^amount: 退款金额不能超过可退金额 20\.00 元/);
    const unpaid = await nativeOrder("1");
    const refused = await post("wxpay/refund", { id: unpaid.id, amount: "1" });
    assert.equal(refused.statusCode, 400);
    assert.match(refused.json().msg, /^id: 只有已支付的订单可以退款/);
    const detail = await get(`wxpay/detail?id=${made.id}`);
    assert.equal(detail.json().data.refunds[0].status, "SUCCESS");
  });

  test("the double refuses requests the merchant did not sign, and serves the day's trade bill", async () => {
    const real = await loadMerchant(server.db, deps.cipher, "000000");
    const forged = { ...real, privateKey: testMerchant("0", "", "").privateKey };
    await assert.rejects(
      callWxpay(forged, "GET", `/v3/pay/transactions/out-trade-no/X123456?mchid=${real.mchid}`),
      (error: unknown) =>
        error instanceof WxpayCallError && error.status === 401 && error.code === "SIGN_ERROR",
    );
    // An answer signed by another platform key is not believed.
    await assert.rejects(
      callWxpay(
        { ...real, platformPublicKey: testMerchant("0", "", "").publicKey },
        "GET",
        "/v3/bill/tradebill?bill_date=2026-01-01",
      ),
      (error: unknown) => error instanceof WxpayCallError && error.code === "ANSWER_NOT_TRUSTED",
    );
    const [paid] = await server.db.query<{ out_trade_no: string; paid_time: Date }>(
      "select out_trade_no, paid_time from pms_wx_pay where state = 1 order by paid_time limit 1",
    );
    const day = double.order(merchant.mchid, paid!.out_trade_no)!.success_time.slice(0, 10);
    const bill = await callWxpay<{ hash_type: string; download_url: string }>(
      real,
      "GET",
      `/v3/bill/tradebill?bill_date=${day}&bill_type=ALL`,
    );
    assert.equal(bill.data.hash_type, "SHA1");
    // The file is the merchant's only: an unsigned download is refused.
    assert.equal((await fetch(bill.data.download_url)).status, 401);
    const trades = (await downloadTradeBill(real, day)).trades;
    assert.ok(trades.some((t) => t.outTradeNo === paid!.out_trade_no && t.tradeState === "SUCCESS"));
  });

  test("another tenant sees none of these orders and can refund none", async () => {
    const list = await get("wxpay/list?current=1&size=50", other.token);
    assert.equal(list.statusCode, 200, list.body);
    assert.equal(list.json().data.total, 0);
    const [row] = await server.db.query<{ id: string }>(
      "select id::text as id from pms_wx_pay where state = 1 limit 1",
    );
    assert.equal((await get(`wxpay/detail?id=${row!.id}`, other.token)).statusCode, 404);
    assert.equal((await post("wxpay/refund", { id: row!.id, amount: "1" }, other.token)).statusCode, 404);
    const sorted = await get("wxpay/list?current=1&size=50&descs=amount");
    const amounts = sorted.json().data.records.map((r: { amount: string }) => Number(r.amount));
    assert.deepEqual(
      amounts,
      [...amounts].sort((a, b) => b - a),
    );
    assert.equal((await get("wxpay/list?descs=owner_id;drop")).statusCode, 400);
  });

  test("after an arrears cut-off, a payment restores supply: the simulated meter's relay closes again", async () => {
    const meter = fleet.meter(meterPlan!.address) as ElectricMeter;
    const commands = () =>
      server.db.query<{ id: string; source: string; state: string }>(
        "select id::text as id, source, state from pms_meter_command where meter_id = $1 order by create_time, id",
        [meterId],
      );
    const settled = (id: string) =>
      waitFor(`command ${id}`, async () => {
        const [row] = await server.db.query<{ state: string }>(
          "select state from pms_meter_command where id = $1",
          [id],
        );
        return row?.state === "success" || row?.state === "fail" ? row.state : undefined;
      });
    // Into arrears past the 10 yuan overdraft.
    const owed = BigInt(await balance()) + 2000n;
    const minus = await post("datarecharge/submit", {
      accountId,
      amount: (Number(owed) / 100).toFixed(2),
      rechargeType: 4,
      remark: "测试欠费",
    });
    assert.equal(minus.statusCode, 200, minus.body);
    const cut = (await commands()).find((c) => c.source === "arrears/cut");
    assert.ok(cut, "the cut is queued");
    assert.equal(await settled(cut.id), "success");
    assert.equal(meter.relayOpen, true, "supply is cut");
    const made = await nativeOrder("50");
    await double.pay(merchant.mchid, made.outTradeNo);
    assert.equal((await order(made.outTradeNo)).state, 1);
    const restore = (await commands()).find((c) => c.source === "arrears/restore");
    assert.ok(restore, "the restore is queued by the booking");
    assert.equal(await settled(restore.id), "success");
    assert.equal(meter.relayOpen, false, "the simulated meter's relay is closed again");
  });
});

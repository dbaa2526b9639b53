import assert from "node:assert/strict";
import { generateKeyPairSync } from "node:crypto";
import { after, before, describe, test } from "node:test";
import { FieldCipher } from "../src/crud/field-cipher.ts";
import { nextId } from "../src/db/ids.ts";
import { payWithAlipayCode } from "../src/modules/alipay/alipay-codepay.ts";
import { AlipayDouble } from "../src/modules/alipay/double/alipay-double.ts";
import { bindIdentity, openSession, sessionOf } from "../src/modules/owner-page/owner-session.ts";
import { addUser, provisionTenant } from "./fixtures.ts";
import { startTestServer, type TestServer } from "./helpers.ts";
import { created } from "./registry-fixtures.ts";

const pms = "/api/blade-pms";
const APP_ID = "2021000117650001";
const OTHER_APP_ID = "2021000117652222";

const keys = () => {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  return {
    privateKey: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    publicKey: publicKey.export({ type: "spki", format: "pem" }).toString(),
  };
};

/**
 * Owner payments through Alipay, over HTTP on a real database, against the local gateway double:
 * a QR order booked once on a verified notification, forged or altered ones refused, a lost
 * notification settled by a query, refunds through the money policy.
 */
describe("Alipay against the local gateway double", () => {
  let server: TestServer;
  let admin: string;
  let base: string;
  let meterId: string;
  let accountId: string;
  let ownerId: string;
  let other: Awaited<ReturnType<typeof provisionTenant>>;
  const double = new AlipayDouble();
  const application = keys();
  const otherApplication = keys();

  const post = (path: string, body: Record<string, unknown>, token = admin) =>
    server.call("POST", `${pms}/${path}`, token, body);
  const balance = async () =>
    (
      await server.db.query<{ balance: string }>(
        "select balance::text as balance from pms_account where id = $1",
        [accountId],
      )
    )[0]!.balance;
  const row = async (outTradeNo: string) =>
    (
      await server.db.query<{
        state: number;
        recharge_id: string | null;
        payment_id: string;
        trade_no: string;
        refund_amount: string;
      }>(
        `select state, recharge_id::text as recharge_id, payment_id::text as payment_id, trade_no, refund_amount::text as refund_amount
           from pms_alipay_pay where out_trade_no = $1`,
        [outTradeNo],
      )
    )[0]!;
  const recharges = async (paymentId: string) =>
    server.db.query<{ amount: string; payment_method: number; transaction_no: string }>(
      `select r.amount::text as amount, r.payment_method, p.transaction_no
         from pms_recharge r join pms_payment p on p.id = r.payment_id where r.payment_id = $1`,
      [paymentId],
    );
  const qrOrder = async (amount: string) => {
    const res = await post("alipay/precreate", { meterId, amount });
    assert.equal(res.statusCode, 200, res.body);
    return res.json().data as {
      id: string;
      outTradeNo: string;
      qrCode: string;
      state: number;
      amount: string;
    };
  };
  const notify = (fields: Record<string, string>, tenantId = "000000") =>
    fetch(`${base}${pms}/alipay/notify/${tenantId}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded; charset=utf-8" },
      body: new URLSearchParams(fields).toString(),
    }).then(async (res) => ({ status: res.status, body: await res.text() }));
  const setParam = async (key: string, value: string) => {
    await server.db.query("delete from sys_param where tenant_id = '000000' and param_key = $1", [key]);
    await server.db.query(
      `insert into sys_param (id, tenant_id, platform_wide, param_name, param_key, param_value)
       values ($1, '000000', 0, $2, $2, $3)`,
      [nextId(), key, value],
    );
  };

  before(async () => {
    server = await startTestServer();
    admin = (await server.login()).access_token;
    base = await server.app.listen({ port: 0, host: "127.0.0.1" });
    await double.listen();
    double.addApp({ appId: APP_ID, publicKey: application.publicKey });
    double.addApp({ appId: OTHER_APP_ID, publicKey: otherApplication.publicKey });
    await created(server, admin, "alipayconfig/submit", {
      appId: APP_ID,
      environment: "sandbox",
      privateKey: application.privateKey,
      alipayPublicKey: double.alipayPublicKey,
      gatewayUrl: double.gateway,
      notifyUrl: `${base}${pms}/alipay/notify/000000`,
      maxAmount: "500",
    });
    other = await provisionTenant(server, admin, "隔壁物业");
    await created(server, other.token, "alipayconfig/submit", {
      appId: OTHER_APP_ID,
      environment: "sandbox",
      privateKey: otherApplication.privateKey,
      alipayPublicKey: double.alipayPublicKey,
      gatewayUrl: double.gateway,
      notifyUrl: `${base}${pms}/alipay/notify/${other.tenantId}`,
    });

    const collector = await created(server, admin, "collector/submit", {
      collectorName: "DTU",
      collectorCode: "ALIPAY-DTU-1",
      registrationSecret: "alipay-test-secret-0001",
    });
    const area = await created(server, admin, "area/save", { areaName: "支付园区", areaType: 1 });
    ownerId = await created(server, admin, "owner/submit", {
      ownerName: "赵六",
      ownerCode: "ALI1",
      phone: "13800000019",
    });
    const room = await created(server, admin, "room/save", { areaId: area, roomName: "302" });
    await created(server, admin, "ownerroom/submit", { ownerId, roomId: room });
    const scheme = await created(server, admin, "chargingscheme/submit", {
      schemeName: "电价",
      energyType: 1,
      priceMode: 1,
      price: "0.5883",
    });
    meterId = await created(server, admin, "meter/save", {
      productCode: "201000003901",
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

  test("a QR order is paid, its notification verified and booked once, even when Alipay repeats it", async () => {
    const before = BigInt(await balance());
    const made = await qrOrder("12.34");
    assert.equal(made.state, 0);
    assert.match(made.qrCode, /\/cashier\/pay\?t=/);
    assert.equal(double.trade(APP_ID, made.outTradeNo)?.total, 1234n, "Alipay was asked for 12.34 yuan");
    double.notifyPlan({ mode: "deliver", times: 3 });
    const deliveries = await double.pay(APP_ID, made.outTradeNo);
    double.notifyPlan({ mode: "deliver" });
    assert.deepEqual(
      deliveries.map((d) => [d.status, d.body]),
      [
        [200, "success"],
        [200, "success"],
        [200, "success"],
      ],
    );
    const paid = await row(made.outTradeNo);
    assert.equal(paid.state, 1);
    assert.equal(paid.trade_no, double.trade(APP_ID, made.outTradeNo)?.tradeNo);
    const booked = await recharges(paid.payment_id);
    assert.equal(booked.length, 1, "booked once");
    assert.equal(booked[0]!.amount, "1234");
    assert.equal(booked[0]!.payment_method, 4, "PAYMENT_METHOD 支付宝");
    assert.equal(booked[0]!.transaction_no, paid.trade_no);
    assert.equal(BigInt(await balance()), before + 1234n);
  });

  test("a tampered notification, a foreign signer, another app id or another amount is refused and books nothing", async () => {
    const made = await qrOrder("20.00");
    double.scan(APP_ID, made.outTradeNo);
    const genuine = {
      notify_time: "2026-11-29 10:00:05",
      notify_type: "trade_status_sync",
      notify_id: "n1",
      charset: "utf-8",
      version: "1.0",
      app_id: APP_ID,
      trade_no: "2026112922001400000000009999",
      out_trade_no: made.outTradeNo,
      total_amount: "20.00",
      trade_status: "TRADE_SUCCESS",
      buyer_id: "2088102177846880",
      gmt_payment: "2026-11-29 10:00:04",
    };
    const before = await balance();
    const tampered = { ...double.craftNotification(genuine), total_amount: "2000.00" };
    const foreign = await (async () => {
      const stranger = new AlipayDouble();
      return stranger.craftNotification(genuine);
    })();
    const otherApp = double.craftNotification({ ...genuine, app_id: OTHER_APP_ID });
    const otherAmount = double.craftNotification({ ...genuine, total_amount: "0.01" });
    for (const forged of [tampered, foreign, otherApp, otherAmount]) {
      const answer = await notify(forged);
      assert.deepEqual([answer.status, answer.body], [400, "fail"], JSON.stringify(forged));
    }
    // The other tenant's endpoint does not take this tenant's order either.
    assert.equal((await notify(double.craftNotification(genuine), other.tenantId)).body, "fail");
    assert.equal((await row(made.outTradeNo)).state, 0);
    assert.equal(await balance(), before, "nothing booked");
    // The genuine one is taken.
    assert.deepEqual(await notify(double.craftNotification(genuine)), { status: 200, body: "success" });
    assert.equal((await row(made.outTradeNo)).state, 1);
  });

  test("a lost notification is settled by a query, once; an expired unpaid order is closed at Alipay", async () => {
    const made = await qrOrder("5.00");
    double.notifyPlan({ mode: "drop" });
    await double.pay(APP_ID, made.outTradeNo);
    double.notifyPlan({ mode: "deliver" });
    assert.equal((await row(made.outTradeNo)).state, 0, "the notification never came");
    const before = BigInt(await balance());
    for (let i = 0; i < 2; i++) {
      const res = await post("alipay/query", { id: made.id });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().data.state, 1);
    }
    assert.equal((await recharges((await row(made.outTradeNo)).payment_id)).length, 1);
    assert.equal(BigInt(await balance()), before + 500n);

    const waiting = await qrOrder("6.00");
    double.scan(APP_ID, waiting.outTradeNo);
    const still = await post("alipay/query", { id: waiting.id });
    assert.equal(still.json().data.state, 0, "not expired: left waiting");
    await server.db.query(
      "update pms_alipay_pay set expire_time = now() - interval '1 minute' where id = $1",
      [waiting.id],
    );
    const closed = await post("alipay/query", { id: waiting.id });
    assert.equal(closed.json().data.state, 2);
    assert.equal(double.trade(APP_ID, waiting.outTradeNo)?.status, "TRADE_CLOSED");
    const [payment] = await server.db.query<{ state: number }>(
      "select state from pms_payment where id = $1",
      [(await row(waiting.outTradeNo)).payment_id],
    );
    assert.equal(payment!.state, 2, "its payment closed");
  });

  test("a refund goes through alipay.trade.refund and the ledger; above the approval threshold it is held", async () => {
    const made = await qrOrder("30.00");
    await double.pay(APP_ID, made.outTradeNo);
    const before = BigInt(await balance());
    const res = await post("alipay/refund", { id: made.id, amount: "10", reason: "多充" });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().data.status, "SUCCESS");
    assert.equal(double.trade(APP_ID, made.outTradeNo)?.refunded, 1000n);
    assert.equal(BigInt(await balance()), before - 1000n);
    assert.equal((await row(made.outTradeNo)).refund_amount, "1000");
    const over = await post("alipay/refund", { id: made.id, amount: "20.01" });
    assert.equal(over.statusCode, 400);
    assert.match(over.json().msg, /^amount: /);

    // The money policy: refunds above 15 yuan wait for a second person of the administrator's role.
    const [adminRow] = await server.db.query<{ role_id: string }>(
      "select role_id from sys_user where tenant_id = '000000' and account = 'admin'",
    );
    await addUser(server.db, {
      tenantId: "000000",
      account: "approver",
      password: "Secret#2026",
      roleIds: adminRow!.role_id.split(","),
    });
    const [role] = await server.db.query<{ role_alias: string }>(
      "select role_alias from sys_role where id::text = $1",
      [adminRow!.role_id.split(",")[0]],
    );
    await setParam("money.approval.role", role!.role_alias);
    await setParam("money.approval.threshold", "15.00");
    try {
      const held = await post("alipay/refund", { id: made.id, amount: "16", reason: "退房" });
      assert.equal(held.statusCode, 200, held.body);
      assert.match(held.json().msg, /已提交审批/);
      assert.equal(held.json().data.status, "APPROVAL");
      assert.match(held.json().data.processInstanceId, /^\d+$/);
      assert.equal(double.trade(APP_ID, made.outTradeNo)?.refunded, 1000n, "nothing asked of Alipay");
      assert.equal(BigInt(await balance()), before - 1000n, "nothing booked while waiting");
      assert.equal(
        (await post("alipay/refund", { id: made.id, amount: "4.01" })).statusCode,
        400,
        "the held amount is reserved",
      );
      assert.equal((await row(made.outTradeNo)).refund_amount, "2600", "its amount reserved on the order");
      // Below the threshold it still goes at once.
      const small = await post("alipay/refund", { id: made.id, amount: "4" });
      assert.equal(small.json().data.status, "SUCCESS", small.body);
      assert.equal(double.trade(APP_ID, made.outTradeNo)?.refunded, 1400n);

      // A second person approves: the ledger refund is booked and Alipay asked, once.
      const instanceId = held.json().data.processInstanceId as string;
      const approver = (await server.login("approver", "Secret#2026", "000000")).access_token;
      const claimable = await server.call("GET", "/api/blade-flow/work/claim-list", approver);
      const task = (claimable.json().data.records as { processInstanceId: string; taskId: string }[]).find(
        (r) => r.processInstanceId === instanceId,
      );
      assert.ok(task, claimable.body);
      const claimed = await server.call(
        "POST",
        `/api/blade-flow/work/claim-task?taskId=${task.taskId}`,
        approver,
      );
      assert.equal(claimed.statusCode, 200, claimed.body);
      const done = await server.call("POST", "/api/blade-flow/work/complete-task", approver, {
        taskId: task.taskId,
        flag: "ok",
        comment: "同意",
      });
      assert.equal(done.statusCode, 200, done.body);
      // The refund is sent after the approver's transaction commits: wait until its answer is recorded.
      const refundStatus = async () =>
        (
          await server.db.query<{ status: string }>(
            "select status from pms_alipay_refund where recharge_id::text = $1",
            [held.json().data.rechargeId],
          )
        )[0]?.status;
      for (let i = 0; i < 200 && (await refundStatus()) !== "SUCCESS"; i++)
        await new Promise((resolve) => setTimeout(resolve, 50));
      assert.equal(await refundStatus(), "SUCCESS");
      assert.equal(double.trade(APP_ID, made.outTradeNo)?.refunded, 3000n, "sent to Alipay once approved");
      assert.equal(BigInt(await balance()), before - 3000n);
    } finally {
      await server.db.query(
        "delete from sys_param where tenant_id = '000000' and param_key = 'money.approval.threshold'",
      );
    }
  });

  test("a scanned payment code: paid at once, or confirmed on the phone while the counter polls, booked once", async () => {
    const before = BigInt(await balance());
    const atOnce = await post("alipay/codepay", { meterId, amount: "3.00", authCode: "281234567890123456" });
    assert.equal(atOnce.statusCode, 200, atOnce.body);
    assert.equal(atOnce.json().data.state, 1);
    assert.match(atOnce.json().data.tradeNo, /^\d{8}22001/, "the receipt's transaction number");

    const code = "284771234567890123";
    double.needsConfirmation(code);
    const pending = post("alipay/codepay", { meterId, amount: "7.00", authCode: code });
    let outTradeNo: string | undefined;
    for (let i = 0; i < 100 && !outTradeNo; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      outTradeNo = double.calls.findLast(
        (c) => c.method === "alipay.trade.pay" && c.bizContent.total_amount === "7.00",
      )?.bizContent.out_trade_no as string | undefined;
    }
    assert.ok(outTradeNo);
    assert.equal(double.trade(APP_ID, outTradeNo)?.status, "WAIT_BUYER_PAY");
    // The owner enters the password: Alipay notifies, and the counter's next query sees it paid.
    await double.pay(APP_ID, outTradeNo);
    const confirmed = await pending;
    assert.equal(confirmed.statusCode, 200, confirmed.body);
    assert.equal(confirmed.json().data.state, 1);
    assert.equal(
      (await recharges((await row(outTradeNo)).payment_id)).length,
      1,
      "notification and query book once",
    );
    assert.equal(BigInt(await balance()), before + 1000n);
  });

  test("a code payment never confirmed is cancelled when the time is up; a lost answer is settled by query", async () => {
    const code = "294771234567890123";
    double.needsConfirmation(code);
    const before = await balance();
    const order = await payWithAlipayCode(
      {
        db: server.db,
        cipher: new FieldCipher(server.dataKey),
        timeZone: "Asia/Shanghai",
        log: () => {},
      },
      { tenantId: "000000", meterId, amountFen: 800n, authCode: code, actor: { name: "收银员" } },
      { pollMs: 50, timeoutMs: 400 },
    );
    assert.equal(order.state, 2, "closed");
    assert.ok(
      double.calls.some(
        (c) => c.method === "alipay.trade.cancel" && c.bizContent.out_trade_no === order.outTradeNo,
      ),
    );
    assert.equal(double.trade(APP_ID, order.outTradeNo)?.status, "TRADE_CLOSED");
    assert.equal(await balance(), before);
    const [payment] = await server.db.query<{ state: number }>(
      "select state from pms_payment where id = $1",
      [(await row(order.outTradeNo)).payment_id],
    );
    assert.equal(payment!.state, 2);
    // An answer lost on the way: the trade was paid, the counter learns it by query and pays no second time.
    double.loseNextAnswer("alipay.trade.pay");
    const lost = await payWithAlipayCode(
      { db: server.db, cipher: new FieldCipher(server.dataKey), timeZone: "Asia/Shanghai", log: () => {} },
      {
        tenantId: "000000",
        meterId,
        amountFen: 900n,
        authCode: "281111111111111111",
        actor: { name: "收银员" },
      },
      { pollMs: 50, timeoutMs: 2_000 },
    );
    assert.equal(lost.state, 1);
    assert.equal(lost.tradeNo, double.trade(APP_ID, lost.outTradeNo)?.tradeNo);
    assert.equal(
      double.calls.filter(
        (c) => c.method === "alipay.trade.pay" && c.bizContent.out_trade_no === lost.outTradeNo,
      ).length,
      1,
      "paid once",
    );
    assert.equal((await recharges((await row(lost.outTradeNo)).payment_id)).length, 1);
    assert.equal(BigInt(await balance()), BigInt(before) + 900n);
    // A code that is not Alipay's is refused before anything is asked.
    for (const authCode of ["134567890123456789", "12345"]) {
      const res = await post("alipay/codepay", { meterId, amount: "1", authCode });
      assert.equal(res.statusCode, 400, res.body);
      assert.match(res.json().msg, /^authCode: /);
    }
  });

  test("an owner pays with Alipay in a phone browser and sees the balance back", async () => {
    const token = await openSession(server.db, "000000", "phone", "13800000019", null);
    await bindIdentity(
      server.db,
      await sessionOf(server.db, { headers: { "h5-auth": token } } as never),
      ownerId,
    );
    const h5 = (method: "GET" | "POST", path: string, payload?: Record<string, unknown>, as = token) =>
      server.inject({
        method,
        url: `${pms}/h5/${path}`,
        // The owner page's own host: Alipay's cashier may send the owner back there only.
        headers: { "h5-auth": as, host: "owner.example" },
        ...(payload ? { payload } : {}),
      });
    const before = BigInt(await balance());
    const made = await h5("POST", "alipay/order", {
      accountId,
      amount: "15.00",
      returnUrl: "https://owner.example/h5/?tenant=000000&pay=alipay",
    });
    assert.equal(made.statusCode, 200, made.body);
    const { id, payUrl } = made.json().data as { id: string; payUrl: string };
    assert.ok(payUrl.startsWith(double.gateway), payUrl);
    assert.equal(new URL(payUrl).searchParams.get("method"), "alipay.trade.wap.pay");
    // The phone opens Alipay's page and pays; Alipay sends the browser back and notifies the server.
    const page = await (await fetch(payUrl)).text();
    const action = (/action="([^"]+)"/.exec(page)?.[1] ?? "").replaceAll("&amp;", "&");
    const back = await fetch(new URL(action, double.base), { method: "POST", redirect: "manual" });
    assert.match(
      back.headers.get("location") ?? "",
      /^https:\/\/owner\.example\/h5\/\?tenant=000000&pay=alipay&out_trade_no=/,
    );
    const seen = (await h5("GET", `alipay/order/${id}`)).json().data;
    assert.equal(seen.state, 1);
    assert.equal(BigInt(seen.balanceFen), before + 1500n);
    // Another owner, or none, sees nothing of it and cannot order on this account.
    const stranger = await openSession(server.db, "000000", "phone", "13800000099", null);
    assert.notEqual((await h5("GET", `alipay/order/${id}`, undefined, stranger)).statusCode, 200);
    assert.notEqual((await h5("POST", "alipay/order", { accountId, amount: "1" }, stranger)).statusCode, 200);
    const bad = await h5("POST", "alipay/order", {
      accountId,
      amount: "1",
      returnUrl: "javascript:alert(1)",
    });
    assert.equal(bad.statusCode, 400);
    assert.match(bad.json().msg, /^returnUrl: /);
  });

  test("bad input is a 400 naming the field; another tenant reads, queries and refunds none of these orders", async () => {
    for (const [body, field] of [
      [{ meterId, amount: "0" }, "amount"],
      [{ meterId, amount: "500.01" }, "amount"],
      [{ amount: "1" }, "accountId"],
    ] as const) {
      const res = await post("alipay/precreate", body);
      assert.equal(res.statusCode, 400, res.body);
      assert.match(res.json().msg, new RegExp(`^${field}: `));
    }
    const made = await qrOrder("1.00");
    assert.equal(
      (await server.call("GET", `${pms}/alipay/detail?id=${made.id}`, other.token)).statusCode,
      404,
    );
    assert.equal((await post("alipay/query", { id: made.id }, other.token)).statusCode, 404);
    await double.pay(APP_ID, made.outTradeNo);
    assert.equal((await post("alipay/refund", { id: made.id, amount: "1" }, other.token)).statusCode, 404);
    assert.equal(double.trade(APP_ID, made.outTradeNo)?.refunded, 0n);
  });
});

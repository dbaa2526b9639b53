import assert from "node:assert/strict";
import { generateKeyPairSync } from "node:crypto";
import { after, before, describe, test } from "node:test";
import { FieldCipher } from "../src/crud/field-cipher.ts";
import { startDemoAlipay } from "../src/demo/demo-alipay.ts";
import { DEMO_TENANT_ID } from "../src/demo/demo-site.ts";
import { loadAlipayApp } from "../src/modules/alipay/alipay-app.ts";
import { AlipayDouble } from "../src/modules/alipay/double/alipay-double.ts";
import { forgetDemoAlipay, registerDemoAlipay } from "../src/modules/owner-page/owner-alipay-demo.ts";
import { bindIdentity, openSession, sessionOf } from "../src/modules/owner-page/owner-session.ts";
import { startTestServer, type TestServer } from "./helpers.ts";
import { created } from "./registry-fixtures.ts";

const pms = "/api/blade-pms";
const APP_ID = "2021000117653901";

/**
 * The owner page's Alipay, over HTTP on a real database against the local gateway double: an owner
 * takes a wap order for an own account (never another owner's), pays at the double's cashier, is
 * sent back, and the order is booked once (notification repeated, or settled by the page's query)
 * with the balance up; the payment is listed, filtered and pied as 支付宝 (PAYMENT_METHOD 4).
 */
describe("owner page: Alipay", () => {
  let server: TestServer;
  let admin: string;
  let base: string;
  const double = new AlipayDouble();
  const owners: { ownerId: string; accountId: string; token: string }[] = [];

  const h5 = (method: "GET" | "POST", path: string, as: string, payload?: Record<string, unknown>) =>
    server.inject({
      method,
      url: `${pms}/h5/${path}`,
      // The owner page's own address, as a browser sends it: cashiers may send owners back there only.
      headers: { "h5-auth": as, host: "owner.example" },
      ...(payload ? { payload } : {}),
    });
  const balance = async (accountId: string) =>
    BigInt(
      (
        await server.db.query<{ balance: string }>(
          "select balance::text as balance from pms_account where id = $1",
          [accountId],
        )
      )[0]!.balance,
    );
  const rechargesOf = async (outTradeNo: string) =>
    server.db.query<{ amount: string; payment_method: number }>(
      `select r.amount::text as amount, r.payment_method from pms_recharge r
         join pms_alipay_pay a on a.payment_id = r.payment_id where a.out_trade_no = $1`,
      [outTradeNo],
    );
  /** The phone opens the wap URL, presses the double's pay button and follows it back. */
  const payAtCashier = async (payUrl: string, origin = double.base) => {
    const page = await (await fetch(new URL(payUrl, origin))).text();
    const action = (/action="([^"]+)"/.exec(page)?.[1] ?? "").replaceAll("&amp;", "&");
    assert.ok(action, page);
    return fetch(new URL(action, origin), { method: "POST", redirect: "manual" });
  };

  before(async () => {
    server = await startTestServer();
    admin = (await server.login()).access_token;
    base = await server.app.listen({ port: 0, host: "127.0.0.1" });
    await double.listen();
    const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    double.addApp({ appId: APP_ID, publicKey: publicKey.export({ type: "spki", format: "pem" }).toString() });
    await created(server, admin, "alipayconfig/submit", {
      appId: APP_ID,
      environment: "sandbox",
      privateKey: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
      alipayPublicKey: double.alipayPublicKey,
      gatewayUrl: double.gateway,
      notifyUrl: `${base}${pms}/alipay/notify/000000`,
      maxAmount: "300",
    });
    const collector = await created(server, admin, "collector/submit", {
      collectorName: "DTU",
      collectorCode: "OWNER-ALIPAY-1",
      registrationSecret: "owner-alipay-secret-0001",
    });
    const area = await created(server, admin, "area/save", { areaName: "支付宝园区", areaType: 1 });
    const scheme = await created(server, admin, "chargingscheme/submit", {
      schemeName: "电价",
      energyType: 1,
      priceMode: 1,
      price: "0.5883",
    });
    for (const [name, phone, roomName, productCode] of [
      ["周一", "13800003901", "401", "201000003911"],
      ["吴二", "13800003902", "402", "201000003912"],
    ] as const) {
      const ownerId = await created(server, admin, "owner/submit", {
        ownerName: name,
        ownerCode: `OA${roomName}`,
        phone,
      });
      const room = await created(server, admin, "room/save", { areaId: area, roomName });
      await created(server, admin, "ownerroom/submit", { ownerId, roomId: room });
      const meterId = await created(server, admin, "meter/save", {
        productCode,
        collectorId: collector,
        controlStatus: 1,
        chargingSchemeId: scheme,
      });
      await created(server, admin, "roommeter/submit", { roomId: room, energyType: 1, meterId });
      const opened = await server.call("POST", `${pms}/message/openAccount`, admin, {
        meterId,
        deposit: "20.00",
      });
      assert.equal(opened.statusCode, 200, opened.body);
      const token = await openSession(server.db, "000000", "phone", phone, null);
      await bindIdentity(
        server.db,
        await sessionOf(server.db, { headers: { "h5-auth": token } } as never),
        ownerId,
      );
      owners.push({ ownerId, accountId: opened.json().data[0].accountId, token });
    }
  });
  after(async () => {
    await double.close();
    await server.close();
  });

  test("the form's options: Alipay on, the tenant's limit, the presets within it", async () => {
    const res = await h5("GET", "alipay/options", owners[0]!.token);
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json().data, {
      enabled: true,
      maxAmountFen: "30000",
      presets: ["20", "50", "100", "200"],
    });
    // An operator's token is no owner session.
    assert.equal((await h5("GET", "alipay/options", admin)).statusCode, 401);
  });

  test("an owner pays a wap order for an own account at Alipay's cashier, comes back, and it is booked once", async () => {
    const me = owners[0]!;
    const before = await balance(me.accountId);
    const made = await h5("POST", "alipay/order", me.token, {
      accountId: me.accountId,
      amount: "25.50",
      channel: "wap",
      returnUrl: "http://owner.example/h5/?tenant=000000&pay=alipay",
    });
    assert.equal(made.statusCode, 200, made.body);
    const order = made.json().data as { id: string; outTradeNo: string; payUrl: string; qrCode: string };
    assert.equal(new URL(order.payUrl).searchParams.get("method"), "alipay.trade.wap.pay");
    assert.equal(order.qrCode, "");
    double.notifyPlan({ mode: "deliver", times: 2 });
    const back = await payAtCashier(order.payUrl);
    double.notifyPlan({ mode: "deliver" });
    const location = new URL(back.headers.get("location") ?? "");
    assert.equal(location.searchParams.get("pay"), "alipay");
    assert.equal(location.searchParams.get("out_trade_no"), order.outTradeNo);
    // The result page follows it by the out_trade_no the address carries back.
    const seen = (await h5("GET", `alipay/order/${order.outTradeNo}`, me.token)).json().data;
    assert.equal(seen.state, 1);
    assert.equal(seen.booked, true);
    assert.equal(seen.amountFen, "2550");
    assert.equal(BigInt(seen.balanceFen), before + 2550n);
    assert.equal(seen.receipt.amountFen, "2550");
    assert.equal(seen.codeUrl, "");
    // Notified twice, booked once, as 支付宝.
    assert.deepEqual(await rechargesOf(order.outTradeNo), [{ amount: "2550", payment_method: 4 }]);
    assert.equal(await balance(me.accountId), before + 2550n);
  });

  test("another owner's account takes no order and another owner's order is not found", async () => {
    const [me, other] = [owners[0]!, owners[1]!];
    const foreign = await h5("POST", "alipay/order", me.token, { accountId: other.accountId, amount: "5" });
    assert.equal(foreign.statusCode, 404, foreign.body);
    // Not found comes before the amount's own problem.
    const foreignBad = await h5("POST", "alipay/order", me.token, {
      accountId: other.accountId,
      amount: "0",
    });
    assert.equal(foreignBad.statusCode, 404, foreignBad.body);
    const theirs = await h5("POST", "alipay/order", other.token, {
      accountId: other.accountId,
      amount: "5",
      channel: "wap",
    });
    assert.equal(theirs.statusCode, 200, theirs.body);
    const { id, outTradeNo } = theirs.json().data as { id: string; outTradeNo: string };
    for (const key of [id, outTradeNo])
      assert.equal((await h5("GET", `alipay/order/${key}`, me.token)).statusCode, 404);
    assert.equal((await h5("GET", `alipay/order/${outTradeNo}`, other.token)).statusCode, 200);
    for (const [body, field] of [
      [{ accountId: me.accountId, amount: "300.01" }, "amount"],
      [{ accountId: me.accountId, amount: "1", channel: "code" }, "channel"],
      [{ accountId: me.accountId, amount: "1", returnUrl: "javascript:alert(1)" }, "returnUrl"],
      // Another site (an open redirect through Alipay's cashier), or this site outside the owner page.
      [{ accountId: me.accountId, amount: "1", returnUrl: "https://evil.example/h5/" }, "returnUrl"],
      [
        { accountId: me.accountId, amount: "1", returnUrl: "http://owner.example@evil.example/h5/" },
        "returnUrl",
      ],
      [
        { accountId: me.accountId, amount: "1", returnUrl: "http://owner.example/api/blade-pms/x" },
        "returnUrl",
      ],
      [{ amount: "1" }, "accountId"],
    ] as const) {
      const res = await h5("POST", "alipay/order", me.token, body);
      assert.equal(res.statusCode, 400, res.body);
      assert.match(res.json().msg, new RegExp(`^${field}: `));
    }
  });

  test("a lost notification: the page's query books the payment once, and a QR order shows its code", async () => {
    const me = owners[1]!;
    const before = await balance(me.accountId);
    const made = (
      await h5("POST", "alipay/order", me.token, { accountId: me.accountId, amount: "7", channel: "qr" })
    ).json().data as { outTradeNo: string; qrCode: string; payUrl: string };
    assert.match(made.qrCode, /\/cashier\/pay\?t=/);
    assert.equal(made.payUrl, "");
    const waiting = (await h5("GET", `alipay/order/${made.outTradeNo}`, me.token)).json().data;
    assert.equal(waiting.state, 0);
    assert.equal(waiting.codeUrl, made.qrCode);
    assert.equal(waiting.demoPayUrl, "", "a gateway that is not the demo's: no cashier link");
    double.notifyPlan({ mode: "drop" });
    await double.pay(APP_ID, made.outTradeNo);
    double.notifyPlan({ mode: "deliver" });
    const unasked = (await h5("GET", `alipay/order/${made.outTradeNo}`, me.token)).json().data;
    assert.equal(unasked.state, 0, "nothing heard yet");
    for (let i = 0; i < 2; i++) {
      const asked = (await h5("GET", `alipay/order/${made.outTradeNo}?query=1`, me.token)).json().data;
      assert.equal(asked.state, 1);
      assert.equal(asked.booked, true);
    }
    assert.equal((await rechargesOf(made.outTradeNo)).length, 1);
    assert.equal(await balance(me.accountId), before + 700n);
  });

  test("the payments list shows and filters Alipay; the home page's pie counts it as 支付宝", async () => {
    const list = await server.call("GET", `${pms}/payment/list?paymentMethod=4&size=50`, admin);
    assert.equal(list.statusCode, 200, list.body);
    const rows = list.json().data.records as {
      paymentMethod: number;
      channel: string;
      amount: string;
      state: number;
    }[];
    const paid = rows.filter((r) => r.state === 1);
    assert.ok(paid.length >= 2, list.body);
    assert.ok(rows.every((r) => r.paymentMethod === 4));
    assert.ok(paid.every((r) => r.channel === "online"));
    const cash = await server.call("GET", `${pms}/payment/list?paymentMethod=1&size=50`, admin);
    assert.ok((cash.json().data.records as { paymentMethod: number }[]).every((r) => r.paymentMethod === 1));
    const pie = (await server.call("GET", `${pms}/homepage/paymentMethodRatio?dateType=1`, admin)).json()
      .data as { paymentMethod: number; amount: string; count: number }[];
    const alipay = pie.find((s) => s.paymentMethod === 4);
    assert.deepEqual(alipay && { amount: alipay.amount, count: alipay.count }, { amount: "32.50", count: 2 });
  });

  test("the demo: its double's cashier is passed on by this server, and the demo tenant is configured", async () => {
    const me = owners[0]!;
    registerDemoAlipay(double.base);
    try {
      const before = await balance(me.accountId);
      const made = (
        await h5("POST", "alipay/order", me.token, {
          accountId: me.accountId,
          amount: "3",
          returnUrl: "http://owner.example/h5/?tenant=000000&pay=alipay",
        })
      ).json().data as { outTradeNo: string; payUrl: string };
      assert.match(made.payUrl, /^\/api\/blade-pms\/h5\/demo\/alipay\/wap\?/);
      const back = await payAtCashier(made.payUrl, base);
      assert.equal(back.status, 302);
      assert.match(
        back.headers.get("location") ?? "",
        /^http:\/\/owner\.example\/h5\/\?tenant=000000&pay=alipay&out_trade_no=/,
      );
      assert.equal(await balance(me.accountId), before + 300n);
    } finally {
      forgetDemoAlipay(double.base);
    }
    assert.equal(
      (await server.inject({ method: "GET", url: `${pms}/h5/demo/alipay/pay?t=abcdefgh` })).statusCode,
      404,
    );

    const cipher = new FieldCipher(server.dataKey);
    const first = await startDemoAlipay(server.db, cipher, base);
    const firstKey = (await loadAlipayApp(server.db, cipher, DEMO_TENANT_ID)).privateKey;
    await first.close();
    forgetDemoAlipay(first.base);
    const again = await startDemoAlipay(server.db, cipher, base);
    try {
      const app = await loadAlipayApp(server.db, cipher, DEMO_TENANT_ID);
      assert.equal(app.gateway, again.gateway);
      assert.equal(app.alipayPublicKey, again.alipayPublicKey);
      assert.equal(app.privateKey, firstKey, "the application's key is kept across starts");
      assert.equal(app.notifyUrl, `${base}${pms}/alipay/notify/${DEMO_TENANT_ID}`);
      const [stored] = await server.db.query<{ private_key: string }>(
        "select private_key from pms_alipay_config where tenant_id = $1",
        [DEMO_TENANT_ID],
      );
      assert.ok(!stored!.private_key.includes("PRIVATE KEY"), "stored encrypted");
    } finally {
      await again.close();
      forgetDemoAlipay(again.base);
    }
  });
});

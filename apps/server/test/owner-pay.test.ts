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
import { bindIdentity, openSession, sessionOf } from "../src/modules/owner-page/owner-session.ts";
import { forgetDemoDouble, registerDemoDouble } from "../src/modules/wxpay/demo-cashier.ts";
import { WxpayDouble } from "../src/modules/wxpay/double/wxpay-double.ts";
import { startTestServer, type TestServer } from "./helpers.ts";
import { created } from "./registry-fixtures.ts";
import { doubleConfig, testMerchant } from "./wxpay-fixtures.ts";

// One remote-control electric meter on one DTU: the owner's, whose supply arrears cut.
const PLAN = { meters: 1, dtus: 1, waterRatio: 0, prepaidRatio: 0, seed: "owner-pay" } as const;
const H5 = "/api/blade-pms/h5";
const WANG = "13800000021";
const ZHAO = "13800000022";
const OPENID = "oWangOwnerOpenid0001";

interface Followed {
  state: number;
  booked: boolean;
  amountFen: string;
  balanceFen: string;
  arrearsCut: number;
  receipt: { id: string; amountFen: string; balanceAfterFen: string; createTime: string } | null;
  restore: { state: string; time: string } | null;
  codeUrl: string;
  demoPayUrl: string;
}

describe("owner page WeChat Pay: owners' orders, following them to the booking, restore progress", () => {
  let server: TestServer;
  let admin: string;
  let metering: EmbeddedMetering;
  let fleet: FleetHandle;
  const double = new WxpayDouble();
  const plan = planFleet(PLAN);
  const [meterPlan] = plan.meters;
  const merchant = testMerchant("1900000321", "wx3333333333333333", "abcdefghijklmnopqrstuvwxyz012345");
  let wangAccount: string;
  let zhaoAccount: string;
  let wangMeter: string;
  /** 王五 signed in by phone (Native orders), by WeChat (JSAPI); 赵六 by phone; a phone not bound. */
  let wangPhone: string;
  let wangWechat: string;
  let zhao: string;
  let stranger: string;

  const owner = (method: "GET" | "POST", path: string, token: string, body?: Record<string, unknown>) =>
    server.inject({
      method,
      url: `${H5}/${path}`,
      headers: { "h5-auth": token },
      ...(body ? { payload: body } : {}),
    });
  const order = async (token: string, body: Record<string, unknown>) => {
    const res = await owner("POST", "wxpay/order", token, body);
    assert.equal(res.statusCode, 200, res.body);
    return res.json().data as {
      outTradeNo: string;
      tradeType: string;
      amount: string;
      codeUrl: string;
      demoPayUrl: string;
      payParams?: Record<string, string>;
    };
  };
  const follow = async (token: string, outTradeNo: string) => {
    const res = await owner("GET", `wxpay/order/${outTradeNo}`, token);
    assert.equal(res.statusCode, 200, res.body);
    return res.json().data as Followed;
  };
  const waitFor = async <T>(what: string, probe: () => Promise<T | undefined>): Promise<T> => {
    for (let i = 0; i < 300; i++) {
      const value = await probe();
      if (value !== undefined) return value;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`timed out waiting for ${what}`);
  };
  const booked = (token: string, outTradeNo: string) =>
    waitFor(`order ${outTradeNo} booked`, async () => {
      const seen = await follow(token, outTradeNo);
      return seen.booked ? seen : undefined;
    });
  const balanceOf = async (accountId: string) =>
    BigInt(
      (
        await server.db.query<{ balance: string }>(
          "select balance::text as balance from pms_account where id = $1",
          [accountId],
        )
      )[0]!.balance,
    );
  const orderCount = async () =>
    Number((await server.db.query<{ n: string }>("select count(*)::text as n from pms_wx_pay"))[0]!.n);
  /** A session as the sign-in would open it, bound to an owner as the bind call would. */
  const session = async (kind: "phone" | "wechat", identity: string, ownerId?: string) => {
    const token = await openSession(
      server.db,
      "000000",
      kind,
      identity,
      kind === "wechat" ? merchant.appid : null,
    );
    if (ownerId) {
      const opened = await sessionOf(server.db, { headers: { "h5-auth": token } } as never);
      await bindIdentity(server.db, opened, ownerId);
    }
    return token;
  };

  before(async () => {
    server = await startTestServer();
    admin = (await server.login()).access_token;
    const base = await server.app.listen({ port: 0, host: "127.0.0.1" });
    await double.listen();
    double.addMerchant(merchant);
    await created(server, admin, "wxconfig/submit", doubleConfig(merchant, double, base, "000000"));
    const collector = await created(server, admin, "collector/submit", {
      collectorName: "DTU",
      collectorCode: plan.dtuIds[0],
      registrationSecret: plannedSecret(plan, plan.dtuIds[0]!),
    });
    const area = await created(server, admin, "area/save", { areaName: "业主支付园区", areaType: 1 });
    const scheme = await created(server, admin, "chargingscheme/submit", {
      schemeName: "电价",
      energyType: 1,
      priceMode: 1,
      price: "1",
    });
    const alarm = await created(server, admin, "alarmscheme/submit", {
      schemeName: "欠费断电",
      energyType: 1,
      firstAlarm: "50",
      secondAlarm: "20",
      arrearsLimit: "10",
      tripOnArrears: 1,
    });
    const account = async (name: string, phone: string, roomName: string, productCode: string) => {
      const ownerId = await created(server, admin, "owner/submit", { ownerName: name, phone });
      const room = await created(server, admin, "room/save", { areaId: area, roomName });
      await created(server, admin, "ownerroom/submit", { ownerId, roomId: room });
      const meterId = await created(server, admin, "meter/save", {
        productCode,
        collectorId: collector,
        controlStatus: 1,
        chargingSchemeId: scheme,
        alarmSchemeId: alarm,
      });
      await created(server, admin, "roommeter/submit", { roomId: room, energyType: 1, meterId });
      const opened = await server.call("POST", "/api/blade-pms/message/openAccount", admin, {
        meterId,
        deposit: "100.00",
      });
      assert.equal(opened.statusCode, 200, opened.body);
      return { ownerId, meterId, accountId: opened.json().data[0].accountId as string };
    };
    const wang = await account("王五", WANG, "P301", meterPlan!.address);
    const zhaoOwn = await account("赵六", ZHAO, "P302", "400000000777");
    wangAccount = wang.accountId;
    wangMeter = wang.meterId;
    zhaoAccount = zhaoOwn.accountId;
    wangPhone = await session("phone", WANG, wang.ownerId);
    wangWechat = await session("wechat", OPENID, wang.ownerId);
    zhao = await session("phone", ZHAO, zhaoOwn.ownerId);
    stranger = await session("phone", "13800000029");
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
    forgetDemoDouble(double.base);
    await fleet?.close();
    await metering?.close();
    await double.close();
    await server.close();
  });

  test("the form's options: the tenant's limit, presets within it, JSAPI in WeChat and Native outside", async () => {
    const phone = await owner("GET", "wxpay/options", wangPhone);
    assert.equal(phone.statusCode, 200, phone.body);
    assert.deepEqual(phone.json().data, {
      enabled: true,
      maxAmountFen: "50000",
      presets: ["20", "50", "100", "200"],
      channel: "native",
    });
    assert.equal((await owner("GET", "wxpay/options", wangWechat)).json().data.channel, "jsapi");
    const unbound = await owner("GET", "wxpay/options", stranger);
    assert.equal(unbound.statusCode, 400);
    assert.match(unbound.json().msg, /^owner: /);
  });

  test("bad amounts and missing accounts are refused with 400 naming the field, before any order", async () => {
    const before = await orderCount();
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ amount: "10" }, /^accountId: /],
      [{ accountId: "abc", amount: "10" }, /accountId/],
      [{ accountId: wangAccount }, /^amount: /],
      [{ accountId: wangAccount, amount: "ten" }, /^amount: /],
      [{ accountId: wangAccount, amount: "0" }, /^amount: /],
      [{ accountId: wangAccount, amount: "-5" }, /^amount: /],
      [{ accountId: wangAccount, amount: "1.001" }, /^amount: /],
      [{ accountId: wangAccount, amount: "500.01" }, /^amount: 单笔金额不能超过 500/],
    ];
    for (const [body, field] of cases) {
      const res = await owner("POST", "wxpay/order", wangPhone, body);
      assert.equal(res.statusCode, 400, `${JSON.stringify(body)}: ${res.body}`);
      assert.match(res.json().msg, field, JSON.stringify(body));
    }
    assert.equal(await orderCount(), before);
  });

  test("another owner's account and another owner's order are not found; no session, no order", async () => {
    const theirs = await owner("POST", "wxpay/order", zhao, { accountId: wangAccount, amount: "10" });
    assert.equal(theirs.statusCode, 404, theirs.body);
    assert.match(theirs.json().msg, /^accountId: /);
    const mine = await order(wangPhone, { accountId: wangAccount, amount: "10" });
    assert.equal((await owner("GET", `wxpay/order/${mine.outTradeNo}`, zhao)).statusCode, 404);
    assert.equal((await owner("GET", "wxpay/order/ML0000000000000", wangPhone)).statusCode, 404);
    const anonymous = await server.inject({ method: "GET", url: `${H5}/wxpay/order/${mine.outTradeNo}` });
    assert.equal(anonymous.statusCode, 401);
    // 赵六's own account is his to pay.
    const own = await order(zhao, { accountId: zhaoAccount, amount: "10" });
    assert.equal((await follow(zhao, own.outTradeNo)).state, 0);
  });

  test("outside WeChat a Native order: the QR text, the demo cashier only for the demo's double, booked with the new balance", async () => {
    const plain = await order(wangPhone, { accountId: wangAccount, amount: "12.34" });
    assert.equal(plain.tradeType, "native");
    assert.match(plain.codeUrl, /^weixin:\/\/wxpay\/bizpayurl\?pr=/);
    assert.equal(plain.payParams, undefined);
    assert.equal(plain.demoPayUrl, "", "a merchant that is not the demo's double gets no cashier link");
    registerDemoDouble(double.base);
    try {
      const before = await balanceOf(wangAccount);
      const made = await order(wangPhone, { accountId: wangAccount, amount: "12.34" });
      const pr = made.codeUrl.split("pr=")[1]!;
      // On this server (the double listens on 127.0.0.1 only), passed on to the double's cashier.
      assert.equal(made.demoPayUrl, `${H5}/demo/cashier?pr=${pr}`);
      const page = await server.inject({ method: "GET", url: made.demoPayUrl });
      assert.equal(page.statusCode, 200);
      assert.match(page.body, /确认支付/);
      assert.match(page.body, /¥12\.34/);
      assert.match(page.body, /action="cashier\/pay"/, "the form posts back through the same path");
      const unpaid = await follow(wangPhone, made.outTradeNo);
      assert.equal(unpaid.booked, false);
      assert.equal(unpaid.demoPayUrl, made.demoPayUrl, "a reloaded result page finds the link again");
      const odd = await server.inject({ method: "GET", url: `${H5}/demo/cashier?pr=../control/pay` });
      assert.equal(odd.statusCode, 400);
      const paid = await server.inject({
        method: "POST",
        url: `${H5}/demo/cashier/pay`,
        headers: { "content-type": "application/x-www-form-urlencoded" },
        payload: new URLSearchParams({ pr }).toString(),
      });
      assert.equal(paid.statusCode, 200);
      assert.match(paid.body, /支付成功/);
      const seen = await booked(wangPhone, made.outTradeNo);
      assert.equal(seen.state, 1);
      assert.equal(seen.amountFen, "1234");
      assert.equal(BigInt(seen.balanceFen), before + 1234n);
      assert.equal(seen.receipt?.amountFen, "1234");
      assert.equal(seen.receipt?.balanceAfterFen, seen.balanceFen);
      assert.equal(seen.codeUrl, "");
      assert.equal(seen.demoPayUrl, "", "a paid order offers no cashier");
      assert.equal(seen.restore, null, "an account that was never cut has nothing to restore");
    } finally {
      forgetDemoDouble(double.base);
    }
    const gone = await server.inject({ method: "GET", url: `${H5}/demo/cashier?pr=${"0".repeat(24)}` });
    assert.equal(gone.statusCode, 404, "no demo double, no cashier");
  });

  test("inside WeChat a JSAPI order with the session's openid, paid through the double only with the merchant's pay-sign", async () => {
    const before = await balanceOf(wangAccount);
    const made = await order(wangWechat, { accountId: wangAccount, amount: "20" });
    assert.equal(made.tradeType, "jsapi");
    assert.ok(made.payParams, "pay-sign parameters for WeixinJSBridge");
    assert.equal(made.payParams.appId, merchant.appid);
    assert.equal(double.order(merchant.mchid, made.outTradeNo)?.openid, OPENID);
    const jsapiPay = (params: Record<string, string>) =>
      fetch(`${double.base}/control/jsapi-pay`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(params),
      });
    const forged = await jsapiPay({ ...made.payParams, nonceStr: "FORGEDNONCE" });
    assert.equal(forged.status, 401);
    assert.equal(double.order(merchant.mchid, made.outTradeNo)?.trade_state, "NOTPAY");
    const paid = await jsapiPay(made.payParams);
    assert.equal(paid.status, 200);
    assert.equal(((await paid.json()) as { err_msg: string }).err_msg, "get_brand_wcpay_request:ok");
    const seen = await booked(wangWechat, made.outTradeNo);
    assert.equal(BigInt(seen.balanceFen), before + 2000n);
    assert.equal(seen.receipt?.amountFen, "2000");
    // The same order seen from the owner's phone session: the same owner, so the same answer.
    assert.equal((await follow(wangPhone, made.outTradeNo)).booked, true);
  });

  test("after an arrears cut-off, the owner follows the restore to success; another owner sees none of it", async () => {
    const meter = fleet.meter(meterPlan!.address) as ElectricMeter;
    const commandState = (source: string) =>
      waitFor(`${source} settled`, async () => {
        const [row] = await server.db.query<{ state: string }>(
          "select state from pms_meter_command where meter_id = $1 and source = $2 order by create_time desc limit 1",
          [wangMeter, source],
        );
        return row?.state === "success" || row?.state === "fail" ? row.state : undefined;
      });
    const owed = (await balanceOf(wangAccount)) + 2000n;
    const minus = await server.call("POST", "/api/blade-pms/datarecharge/submit", admin, {
      accountId: wangAccount,
      amount: (Number(owed) / 100).toFixed(2),
      rechargeType: 4,
      remark: "测试欠费",
    });
    assert.equal(minus.statusCode, 200, minus.body);
    assert.equal(await commandState("arrears/cut"), "success");
    assert.equal(meter.relayOpen, true, "supply is cut");
    // The page offers what brings supply back: the debt beyond the 10.00 overdraft plus a fen
    // (the least), rounded up to whole yuan (the offer), which is what 王五 pays.
    const cutBalance = await balanceOf(wangAccount);
    const least = -1000n - cutBalance + 1n;
    const offered = await owner("GET", "me", wangPhone);
    const mine = (
      offered.json().data.accounts as { id: string; restore: { leastFen: string; offerFen: string } }[]
    ).find((a) => a.id === wangAccount);
    assert.deepEqual(mine?.restore, {
      leastFen: least.toString(),
      offerFen: (((least + 99n) / 100n) * 100n).toString(),
    });
    const offer = BigInt(mine.restore.offerFen);
    const made = await order(wangPhone, { accountId: wangAccount, amount: (offer / 100n).toString() });
    const cut = await follow(wangPhone, made.outTradeNo);
    assert.equal(cut.arrearsCut, 2);
    assert.equal(cut.restore, null, "nothing is restored before the payment");
    await double.pay(merchant.mchid, made.outTradeNo);
    const restored = await waitFor("restore success seen by the owner", async () => {
      const seen = await follow(wangPhone, made.outTradeNo);
      assert.ok(seen.booked);
      return seen.restore?.state === "success" ? seen : undefined;
    });
    assert.equal(restored.arrearsCut, 0);
    assert.equal(meter.relayOpen, false, "supply is back");
    const after = (await owner("GET", "me", wangPhone)).json().data.accounts as {
      id: string;
      restore: unknown;
    }[];
    assert.equal(after.find((a) => a.id === wangAccount)?.restore, null, "nothing left to restore");
    assert.equal((await owner("GET", `wxpay/order/${made.outTradeNo}`, zhao)).statusCode, 404);
    const zhaoOrder = await order(zhao, { accountId: zhaoAccount, amount: "5" });
    await double.pay(merchant.mchid, zhaoOrder.outTradeNo);
    const zhaoSeen = await booked(zhao, zhaoOrder.outTradeNo);
    assert.equal(zhaoSeen.restore, null, "another owner's account shows no restore of 王五's meter");
  });
});

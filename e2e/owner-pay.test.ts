import assert from "node:assert/strict";
import { generateKeyPairSync } from "node:crypto";
import { createServer } from "node:net";
import { after, before, test } from "node:test";
import { type FleetHandle, planFleet, plannedSecret, startFleet } from "@meterline/simulator";
import type { BrowserContext, Page } from "playwright-core";
import { WxpayDouble } from "../apps/server/src/modules/wxpay/double/wxpay-double.ts";
import { type SmsDouble, startAliyunDouble } from "../apps/server/test/sms-doubles.ts";
import { startWechatOauthDouble } from "../apps/server/test/wechat-oauth-double.ts";
import { expectAccessible } from "./axe.ts";
import { launchBrowser, type RunningServer, startServer, textOf } from "./harness.ts";
import { housedOwner, ownerSite } from "./owner-site.ts";
import { call, eventually, newOperator, type Operator, signInOperator } from "./registry-helpers.ts";

const OWNER_PHONE = "13800000091";
/** 孙八 of C102 pays inside WeChat (a phone gets one code a minute, so not 钱七's again). */
const WECHAT_PHONE = "13800000092";
const METER = "400000000391";
const MERCHANT = {
  mchid: "1900000391",
  appid: "wx3910000000000391",
  apiV3Key: "e2e-owner-pay-v3-key-0123456789a",
};
const APP_SECRET = "owner-pay-e2e-app-secret-0001";
/** 周九 of 2号楼 101, whose simulated meter is cut for arrears and restored by the payment. */
const ARREARS_PHONE = "13800000093";
const RESTORE_PLAN = {
  meters: 1,
  dtus: 1,
  waterRatio: 0,
  prepaidRatio: 0,
  seed: "e2e-owner-restore",
} as const;

/** The gateway's port, chosen here so that the suite's simulated meter can dial it. */
const gatewayPort = await new Promise<number>((resolve, reject) => {
  const probe = createServer();
  probe.once("error", reject);
  probe.listen(0, "127.0.0.1", () => {
    const address = probe.address();
    probe.close(() => resolve(typeof address === "object" && address ? address.port : 0));
  });
});

/** The tenant's wall clock (Asia/Shanghai) some minutes ago, as the reading calls take it. */
const minutesAgo = (minutes: number) =>
  new Date(Date.now() - minutes * 60_000)
    .toLocaleString("sv-SE", { timeZone: "Asia/Shanghai", hour12: false })
    .slice(0, 19);
/** Yuan text with two decimals to whole fen. */
const fenOf = (text: string) => BigInt(text.replace(".", ""));
const yuanOf = (fen: bigint) => `${fen / 100n}.${String(fen % 100n).padStart(2, "0")}`;

let server: RunningServer;
let browser: Awaited<ReturnType<typeof launchBrowser>>;
let sms: SmsDouble;
let wechat: Awaited<ReturnType<typeof startWechatOauthDouble>>;
const double = new WxpayDouble();
let operator: Operator;
let fleet: FleetHandle | undefined;
/** The Native order paid from the phone browser, and its receipt number, for the console's check. */
let paidOrder = "";
let paidReceipt = "";

/**
 * A tenant whose SMS goes to the local Aliyun double, whose WeChat sign-in and WeChat Pay are the
 * local doubles, and one owner (钱七, room C101) with an electric meter: 80 deposited, read twice.
 */
before(async () => {
  server = await startServer({
    GATEWAY_HOST: "127.0.0.1",
    GATEWAY_PORT: String(gatewayPort),
    // The restore test's meter is read when it registers; no usage is priced meanwhile.
    POLL_INTERVAL_SECONDS: "86400",
  });
  browser = await launchBrowser();
  sms = await startAliyunDouble({ LTAIownerpay: "owner-pay-e2e-secret" });
  wechat = await startWechatOauthDouble({ appid: MERCHANT.appid, secret: APP_SECRET });
  await double.listen();
  operator = await newOperator(server.baseUrl, "业主支付物业");
  const post = <T = { id: string }>(path: string, body: unknown) =>
    call<T>(server.baseUrl, operator.token, path, { body });
  const setting = await post("/api/blade-resource/sms/submit", {
    category: 3,
    smsCode: "code",
    templateId: "SMS_CODE",
    accessKey: "LTAIownerpay",
    secretKey: "owner-pay-e2e-secret",
    signName: "业主服务",
    endpoint: sms.url,
  });
  await post("/api/blade-resource/sms/enable", { id: setting.id });
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  double.addMerchant({
    ...MERCHANT,
    publicKey: publicKey.export({ type: "spki", format: "pem" }).toString(),
  });
  await post("/api/blade-pms/wxconfig/submit", {
    appId: MERCHANT.appid,
    appSecret: APP_SECRET,
    oauthUrl: wechat.base,
    mchId: MERCHANT.mchid,
    apiV3Key: MERCHANT.apiV3Key,
    certSerialNo: "E2E0000000000000000000000000000000000391",
    privateKey: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    notifyUrl: `${server.baseUrl}/api/blade-pms/wxpay/notify/${operator.tenantId}`,
    platformSerialNo: double.platformSerial,
    platformPublicKey: double.platformPublicKey,
    apiBase: double.base,
    maxAmount: "300",
    enabled: 1,
  });
  const pms = (path: string, body: unknown) => post(`/api/blade-pms/${path}`, body);
  const site = await ownerSite(pms, {
    areaName: "支付园区",
    collectorName: "支付DTU",
    collectorCode: `E2E-PAY-${operator.tenantId}`,
  });
  const { meterId: meter } = await housedOwner(pms, site, {
    ownerName: "钱七",
    phone: OWNER_PHONE,
    roomName: "C101",
    productCode: METER,
  });
  await pms("dataread/submit", { meterId: meter, readTime: minutesAgo(30), totalValue: "100" });
  await pms("message/openAccount", { meterId: meter, deposit: "80" });
  await pms("dataread/submit", { meterId: meter, readTime: minutesAgo(3), totalValue: "106" });
  const { meterId: meter2 } = await housedOwner(pms, site, {
    ownerName: "孙八",
    phone: WECHAT_PHONE,
    roomName: "C102",
    productCode: "400000000392",
  });
  await pms("message/openAccount", { meterId: meter2, deposit: "30" });
});

after(async () => {
  await fleet?.close();
  await browser?.close();
  await server?.stop();
  await sms?.close();
  await wechat?.close();
  await double.close();
});

function lastCode(phone: string): string {
  // The last sign-in code (an owner in arrears may have been sent a balance alarm since).
  const message = sms.received
    .filter((m) => m.phones.includes(phone) && (m.params as Record<string, string>).code)
    .at(-1);
  assert.ok(message, `an SMS reached ${phone}`);
  return (message.params as Record<string, string>).code ?? "";
}

const phoneContext = (userAgent: string): Promise<BrowserContext> =>
  browser.newContext({
    baseURL: server.baseUrl,
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale: "zh-CN",
    reducedMotion: "reduce",
    userAgent,
  });

/** The first account's balance on the home page, in fen. */
async function balanceOnHome(page: Page): Promise<bigint> {
  await page.getByTestId("h5-balance").waitFor();
  return fenOf(await textOf(page.getByTestId("h5-balance")));
}

test("on a phone browser: bind with the SMS code, recharge 50 by the order's QR code, pay it in the simulated WeChat, see the receipt and the new balance", async () => {
  const context = await phoneContext(
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148",
  );
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  try {
    await page.goto(`/h5/?tenant=${operator.tenantId}`);
    await page.getByTestId("h5-sign-in").waitFor();
    await page.getByTestId("h5-phone").fill(OWNER_PHONE);
    await page.getByTestId("h5-send-code").click();
    await page.getByText("验证码已发送").waitFor();
    await page.getByTestId("h5-code").fill(lastCode(OWNER_PHONE));
    await page.getByTestId("h5-sign-in-submit").click();
    await page.getByTestId("h5-bind").waitFor();
    await page.getByTestId("h5-room").fill("C101");
    await page.getByTestId("h5-bind-submit").click();
    await page.getByTestId("h5-owner").filter({ hasText: "钱七" }).waitFor();
    const before = await balanceOnHome(page);
    await page.getByTestId("usage-chart").getByTestId("usage-bar").first().waitFor();

    await page.getByTestId("h5-recharge-open").click();
    const form = page.getByTestId("h5-recharge");
    await form.getByRole("button", { name: "50", exact: true }).click();
    assert.equal(await page.getByTestId("h5-amount").inputValue(), "50");
    // Over the tenant's 300 limit, and not an amount: said on the page, nothing ordered.
    await page.getByTestId("h5-amount").fill("300.01");
    await form.getByText("单笔金额不能超过 300.00 元").waitFor();
    assert.equal(await page.getByTestId("h5-pay").isDisabled(), true);
    await page.getByTestId("h5-amount").fill("5.555");
    await form.getByText("最多两位小数").waitFor();
    await page.getByTestId("h5-amount").fill("50");
    await expectAccessible(page, "owner page recharge form");
    await page.getByTestId("h5-pay").click();

    // The result page: the order's QR code, while it waits; the address holds the order.
    const result = page.getByTestId("h5-result");
    await result.getByRole("img", { name: /微信支付二维码,金额 50.00 元/ }).waitFor();
    paidOrder = new URL(page.url()).searchParams.get("order") ?? "";
    assert.match(paidOrder, /^ML\d+/);
    assert.equal(
      await result.getByTestId("h5-demo-pay").count(),
      0,
      "a merchant that is not the demo's: no cashier link",
    );
    await expectAccessible(page, "owner page result, waiting");
    // A reload resumes following the order.
    await page.reload();
    await result.getByText("等待支付").waitFor();

    // The payer scans the code: the simulated WeChat's cashier pays it.
    const phone = await context.newPage();
    await phone.goto(double.cashierUrl(MERCHANT.mchid, paidOrder));
    await phone.getByText("¥50.00").waitFor();
    await phone.getByRole("button", { name: /确认支付/ }).click();
    await phone.getByText("支付成功").waitFor();
    await phone.close();

    await result.getByTestId("h5-paid").waitFor();
    assert.equal(await textOf(result.getByTestId("h5-paid-amount")), "50.00");
    assert.equal(await textOf(result.getByTestId("h5-new-balance")), yuanOf(before + 5000n));
    await result.getByRole("heading", { name: "充值成功" }).waitFor();
    paidReceipt = await textOf(result.locator("dd").first());
    assert.ok(paidReceipt.length > 0);
    await expectAccessible(page, "owner page result, paid");
    await page.getByTestId("h5-language").click();
    await result.getByRole("heading", { name: "Top-up complete" }).waitFor();
    await page.getByTestId("h5-language").click();
    await result.getByRole("button", { name: "返回我的账户" }).click();
    assert.equal(await balanceOnHome(page), before + 5000n);
    assert.equal(new URL(page.url()).searchParams.get("order"), null);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `no sideways scrolling (${overflow}px)`);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test("inside WeChat: signed in by openid, bound with the SMS code, a JSAPI order paid through WeixinJSBridge", async () => {
  const context = await phoneContext(
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.50(0x1800322c) NetType/WIFI Language/zh_CN",
  );
  context.setDefaultTimeout(15_000);
  wechat.as("oOwnerPayE2eOpenid000000001");
  // WeChat's bridge: the pay-sign goes to the simulated WeChat client, which checks and pays it.
  await context.exposeBinding("payInSimulatedWechat", async (_source, params: unknown) => {
    const answer = await fetch(`${double.base}/control/jsapi-pay`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(params),
    });
    return ((await answer.json()) as { err_msg: string }).err_msg;
  });
  await context.addInitScript(() => {
    const w = window as unknown as {
      payInSimulatedWechat: (params: unknown) => Promise<string>;
      WeixinJSBridge: unknown;
    };
    w.WeixinJSBridge = {
      invoke(name: string, params: unknown, done: (answer: { err_msg: string }) => void) {
        if (name !== "getBrandWCPayRequest") return done({ err_msg: `${name}:fail` });
        void w.payInSimulatedWechat(params).then((err_msg) => done({ err_msg }));
      },
    };
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  try {
    await page.goto(`/h5/?tenant=${operator.tenantId}`);
    // Straight to WeChat's authorization and back, signed in by openid: the binding asks for a code.
    await page.getByTestId("h5-bind").waitFor();
    await page.getByTestId("h5-bind-phone").fill(WECHAT_PHONE);
    await page.getByTestId("h5-send-code").click();
    await page.getByText("验证码已发送").waitFor();
    await page.getByTestId("h5-code").fill(lastCode(WECHAT_PHONE));
    await page.getByTestId("h5-room").fill("C102");
    await page.getByTestId("h5-bind-submit").click();
    await page.getByTestId("h5-owner").filter({ hasText: "孙八" }).waitFor();
    const before = await balanceOnHome(page);
    await page.getByTestId("h5-recharge-open").click();
    await page.getByTestId("h5-amount").fill("20.5");
    await page.getByTestId("h5-pay").click();
    const result = page.getByTestId("h5-result");
    await result.getByTestId("h5-paid").waitFor();
    assert.equal(await textOf(result.getByTestId("h5-paid-amount")), "20.50");
    assert.equal(await textOf(result.getByTestId("h5-new-balance")), yuanOf(before + 2050n));
    const order = new URL(page.url()).searchParams.get("order") ?? "";
    assert.equal(double.order(MERCHANT.mchid, order)?.trade_type, "JSAPI");
    assert.equal(double.order(MERCHANT.mchid, order)?.openid, "oOwnerPayE2eOpenid000000001");
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test("the console's 微信支付订单 lists the owner's order as paid with its booked recharge", async () => {
  assert.ok(paidOrder, "the phone test paid an order");
  const context = await browser.newContext({
    baseURL: server.baseUrl,
    viewport: { width: 1440, height: 900 },
  });
  context.setDefaultTimeout(15_000);
  try {
    const page = await context.newPage();
    await signInOperator(page, operator);
    await page.goto("/money/wxpay");
    const row = page.locator('[data-list="wxpay"] .ant-table-row', { hasText: paidOrder });
    await row.waitFor();
    const text = await textOf(row);
    assert.match(text, /钱七/);
    assert.match(text, /已支付/);
    assert.match(text, /50\.00/);
    assert.ok(text.includes(paidReceipt), `the booked recharge's receipt ${paidReceipt} in: ${text}`);
  } finally {
    await context.close();
  }
});

test("a phone owner cut off for arrears is offered the restore amount first, pays it with WeChat Pay and gets supply back; the English page says so too", async () => {
  const post = <T = { id: string }>(path: string, body: unknown) =>
    call<T>(server.baseUrl, operator.token, `/api/blade-pms/${path}`, { body });
  const plan = planFleet(RESTORE_PLAN);
  const address = plan.meters[0]!.address;
  const park = (await post("area/save", { areaName: "复电园区", areaType: 1 })).id;
  const building = (await post("area/save", { parentId: park, areaName: "2号楼" })).id;
  const room = (await post("room/save", { areaId: building, roomName: "101" })).id;
  const owner = (await post("owner/submit", { ownerName: "周九", phone: ARREARS_PHONE })).id;
  await post("ownerroom/submit", { ownerId: owner, roomId: room });
  const collector = (
    await post("collector/submit", {
      collectorName: "复电DTU",
      collectorCode: plan.dtuIds[0],
      registrationSecret: plannedSecret(plan, plan.dtuIds[0]!),
    })
  ).id;
  const price = (
    await post("chargingscheme/submit", { schemeName: "复电电价", energyType: 1, priceMode: 1, price: "1" })
  ).id;
  // Supply is cut once the balance is 10.00 below zero, and comes back above that line.
  const alarm = (
    await post("alarmscheme/submit", {
      schemeName: "欠费断电",
      energyType: 1,
      firstAlarm: "50",
      secondAlarm: "20",
      arrearsLimit: "10",
      tripOnArrears: 1,
    })
  ).id;
  const meter = (
    await post("meter/submit", {
      productCode: address,
      collectorId: collector,
      controlStatus: 1,
      chargingSchemeId: price,
      alarmSchemeId: alarm,
    })
  ).id;
  await post("roommeter/submit", { roomId: room, energyType: 1, meterId: meter });
  fleet = await startFleet({ ...RESTORE_PLAN, gateway: { host: "127.0.0.1", port: gatewayPort } });
  const simulated = fleet.meter(address) as { relayOpen: boolean };
  await eventually(async () => {
    const page = await call<{ records: { onlineStatus: number }[] }>(
      server.baseUrl,
      operator.token,
      "/api/blade-pms/meter/page",
      { query: { productCode: address } },
    );
    assert.equal(page.records[0]?.onlineStatus, 1);
  }, 60_000);
  const [opened] = await post<{ accountId: string }[]>("message/openAccount", {
    meterId: meter,
    deposit: "20",
  });
  // 143.45 taken off: 123.45 owed, 113.45 beyond the overdraft. The meter is cut.
  await post("datarecharge/submit", {
    accountId: opened!.accountId,
    rechargeType: 4,
    amount: "143.45",
    remark: "测试欠费",
    idempotencyKey: "e2e-owner-arrears",
  });
  await eventually(async () => assert.equal(simulated.relayOpen, true, "supply is cut"), 30_000);

  const context = await phoneContext(
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148",
  );
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  try {
    await page.goto(`/h5/?tenant=${operator.tenantId}`);
    await page.getByTestId("h5-phone").fill(ARREARS_PHONE);
    await page.getByTestId("h5-send-code").click();
    await page.getByText("验证码已发送").waitFor();
    await page.getByTestId("h5-code").fill(lastCode(ARREARS_PHONE));
    await page.getByTestId("h5-sign-in-submit").click();
    await page.getByTestId("h5-room").fill("101");
    await page.getByTestId("h5-bind-submit").click();
    await page.getByTestId("h5-owner").filter({ hasText: "周九" }).waitFor();
    const card = page.getByTestId("h5-account");
    // The room as the property names it, building included.
    assert.match(await textOf(card.locator(".where")), new RegExp(`^2号楼 101 · ${address}$`));
    // 123.45 owed (more if the meter's usage was priced since): the least that brings supply back is
    // the debt beyond the 10.00 overdraft plus a fen, offered in whole yuan.
    const owed = await balanceOnHome(page);
    assert.ok(owed <= -12345n, `owed ${owed}`);
    const least = yuanOf(-1000n - owed + 1n);
    const offer = String((-1000n - owed + 1n + 99n) / 100n);
    await card.getByText("欠费已断").waitFor();
    assert.equal(
      await textOf(card.getByTestId("h5-restore-needed")),
      `已欠费断电,至少充值 ¥${least} 即可恢复供电。`,
    );

    await card.getByTestId("h5-recharge-open").click();
    const form = page.getByTestId("h5-recharge");
    const presets = form.getByTestId("h5-preset");
    // The presets come with the payment options: wait for the offer before reading them all.
    await presets.filter({ hasText: `恢复供电 ¥${offer}` }).waitFor();
    assert.deepEqual(await presets.allTextContents(), [`恢复供电 ¥${offer}`, "20", "50", "100", "200"]);
    await form.getByText(`至少充值 ¥${least} 即可恢复供电`).waitFor();
    await expectAccessible(page, "owner page recharge, cut for arrears");

    // In English: the same offer first, and the words to get power back.
    await page.getByTestId("h5-language").click();
    await form.getByRole("heading", { name: "Top up with WeChat Pay" }).waitFor();
    await presets.filter({ hasText: "Restore supply" }).waitFor();
    assert.equal(await textOf(presets.first()), `Restore supply ¥${offer}`);
    await form
      .getByText(`Power is cut off because the balance is overdue. Pay at least ¥${least} to get power back.`)
      .waitFor();
    await form.getByText("Quick amounts").waitFor();
    await presets.first().click();
    assert.equal(await page.getByTestId("h5-amount").inputValue(), offer);
    await expectAccessible(page, "owner page recharge, cut for arrears, en");
    await page.getByTestId("h5-pay").click();

    const result = page.getByTestId("h5-result");
    await result.getByRole("img", { name: `WeChat Pay QR code for ${offer}.00 yuan` }).waitFor();
    const paid = new URL(page.url()).searchParams.get("order") ?? "";
    const cashier = await context.newPage();
    await cashier.goto(double.cashierUrl(MERCHANT.mchid, paid));
    await cashier.getByRole("button", { name: /确认支付/ }).click();
    await cashier.getByText("支付成功").waitFor();
    await cashier.close();

    await result.getByRole("heading", { name: "Top-up complete" }).waitFor();
    const now = fenOf(await textOf(result.getByTestId("h5-new-balance")));
    assert.ok(now > -1000n && now <= owed + BigInt(offer) * 100n, `above the cut line: ${now}`);
    await result.getByTestId("h5-restore").getByText("Supply restored").waitFor({ timeout: 30_000 });
    assert.equal(simulated.relayOpen, false, "supply is back at the meter");
    await result.getByRole("button", { name: "Back to my accounts" }).click();
    await card.getByText("Power on").waitFor();
    assert.equal(await card.getByTestId("h5-restore-needed").count(), 0);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `no sideways scrolling (${overflow}px)`);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

import assert from "node:assert/strict";
import { generateKeyPairSync } from "node:crypto";
import { after, before, test } from "node:test";
import { type FleetHandle, planFleet, plannedSecret, startFleet } from "@meterline/simulator";
import type { Browser } from "playwright-core";
import { AlipayDouble } from "../apps/server/src/modules/alipay/double/alipay-double.ts";
import { WxpayDouble } from "../apps/server/src/modules/wxpay/double/wxpay-double.ts";
import { type SmsDouble, startAliyunDouble } from "../apps/server/test/sms-doubles.ts";
import { freePort } from "../scripts/free-port.mjs";
import { expectAccessible } from "./axe.ts";
import { launchBrowser, type RunningServer, startServer, textOf } from "./harness.ts";
import {
  type ArrearsOwner,
  arrearsSite,
  enableOwnerPayments,
  lastCode,
  type Post,
  phoneContext,
} from "./owner-site.ts";
import {
  call,
  chooseOption,
  eventually,
  newOperator,
  type Operator,
  signInOperator,
} from "./registry-helpers.ts";

/**
 * An owner cut off for arrears pays with Alipay on a phone: the owner page offers WeChat Pay and
 * Alipay, the owner picks Alipay and the offered restore amount, is sent to Alipay's cashier (the
 * local double's page), pays, is sent back to the result page, sees the new balance, and the
 * simulated meter closes its relay. The API sets up the site and the debt and is asked afterwards
 * what was booked.
 */

const APP_ID = "2021000117653902";
const MERCHANT = {
  mchid: "1900000394",
  appid: "wx3940000000000394",
  apiV3Key: "e2e-owner-alipay-v3-key-01234567",
};
const PLAN = {
  meters: 1,
  dtus: 1,
  waterRatio: 0,
  prepaidRatio: 0,
  dlt1997Ratio: 0,
  seed: "e2e-owner-alipay",
} as const;

/** The gateway's port, chosen here so that the simulated meter can dial it. */
const gatewayPort = await freePort();

/** Yuan text with two decimals to whole fen. */
const fenOf = (text: string) => BigInt(text.replace(".", ""));

let server: RunningServer;
let browser: Browser;
let sms: SmsDouble;
const wxpay = new WxpayDouble();
const alipay = new AlipayDouble();
let operator: Operator;
let fleet: FleetHandle | undefined;
let owner: ArrearsOwner;
/** The owner's page session from the first test, for the in-app browsers of the second. */
let session = "";

before(async () => {
  server = await startServer({
    GATEWAY_HOST: "127.0.0.1",
    GATEWAY_PORT: String(gatewayPort),
    // The meter is read when it registers; no usage is priced while the owner pays.
    POLL_INTERVAL_SECONDS: "86400",
  });
  browser = await launchBrowser();
  sms = await startAliyunDouble({ LTAIowneralipay: "owner-alipay-e2e-secret" });
  await wxpay.listen();
  await alipay.listen();
  operator = await newOperator(server.baseUrl, "支付宝复电物业");
  const post: Post = (path, body) => call(server.baseUrl, operator.token, path, { body });
  await enableOwnerPayments(post, {
    tenantId: operator.tenantId,
    baseUrl: server.baseUrl,
    sms,
    accessKey: "LTAIowneralipay",
    secretKey: "owner-alipay-e2e-secret",
    double: wxpay,
    merchant: MERCHANT,
    appSecret: "owner-alipay-e2e-app-secret-01",
    maxAmount: "500",
  });
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  alipay.addApp({ appId: APP_ID, publicKey: publicKey.export({ type: "spki", format: "pem" }).toString() });
  await post("/api/blade-pms/alipayconfig/submit", {
    appId: APP_ID,
    environment: "sandbox",
    privateKey: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    alipayPublicKey: alipay.alipayPublicKey,
    gatewayUrl: alipay.gateway,
    notifyUrl: `${server.baseUrl}/api/blade-pms/alipay/notify/${operator.tenantId}`,
    maxAmount: "500",
    enabled: 1,
  });
  const plan = planFleet(PLAN);
  const dtu = plan.dtuIds[0]!;
  [owner] = (await arrearsSite(post, { code: dtu, secret: plannedSecret(plan, dtu) }, [
    { ownerName: "郑十一", phone: "13800000095", roomName: "103", address: plan.meters[0]!.address },
  ])) as [ArrearsOwner];
  fleet = await startFleet({ ...PLAN, gateway: { host: "127.0.0.1", port: gatewayPort } });
  await eventually(async () => {
    const page = await call<{ records: { onlineStatus: number }[] }>(
      server.baseUrl,
      operator.token,
      "/api/blade-pms/meter/page",
      { query: { size: "10" } },
    );
    assert.deepEqual(
      page.records.map((m) => m.onlineStatus),
      [1],
    );
  }, 60_000);
  // The account opens with 20.00 and is then 143.45 lighter: 123.45 owed, beyond the 10.00
  // overdraft, so the gateway cuts the meter.
  const [opened] = await post<{ accountId: string }[]>("/api/blade-pms/message/openAccount", {
    meterId: owner.meterId,
    deposit: "20",
  });
  await post("/api/blade-pms/datarecharge/submit", {
    accountId: opened!.accountId,
    rechargeType: 4,
    amount: "143.45",
    remark: "测试欠费",
    idempotencyKey: `e2e-owner-alipay-${owner.address}`,
  });
  const simulated = fleet.meter(owner.address) as { relayOpen: boolean };
  await eventually(async () => assert.equal(simulated.relayOpen, true, `${owner.address} is cut`), 30_000);
});

after(async () => {
  await fleet?.close();
  await browser?.close();
  await server?.stop();
  await sms?.close();
  await wxpay.close();
  await alipay.close();
});

test("an owner on a phone, cut off for arrears, pays the offered amount with Alipay at its cashier, comes back and sees supply back", async () => {
  const context = await phoneContext(browser, server.baseUrl);
  const errors: string[] = [];
  try {
    const page = await context.newPage();
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(`/h5/?tenant=${operator.tenantId}`);
    await page.getByTestId("h5-phone").fill(owner.phone);
    await page.getByTestId("h5-send-code").click();
    await page.getByText("验证码已发送").waitFor();
    await page.getByTestId("h5-code").fill(lastCode(sms, owner.phone));
    await page.getByTestId("h5-sign-in-submit").click();
    await page.getByTestId("h5-room").fill(owner.roomName);
    await page.getByTestId("h5-bind-submit").click();
    await page.getByTestId("h5-owner").filter({ hasText: owner.ownerName }).waitFor();
    const card = page.getByTestId("h5-account");
    await page.getByTestId("h5-balance").waitFor();
    const owed = fenOf(await textOf(page.getByTestId("h5-balance")));
    assert.ok(owed <= -12345n, `owed ${owed}`);
    const offer = String((-1000n - owed + 1n + 99n) / 100n);
    await card.getByText("欠费已断").waitFor();

    // A phone's browser: both channels, WeChat Pay first; the owner picks Alipay.
    await card.getByTestId("h5-recharge-open").click();
    const form = page.getByTestId("h5-recharge");
    await form.getByRole("heading", { name: "在线充值" }).waitFor();
    const wechatChoice = form.getByTestId("h5-channel-wxpay");
    const alipayChoice = form.getByTestId("h5-channel-alipay");
    assert.equal(await wechatChoice.getAttribute("aria-pressed"), "true");
    await alipayChoice.click();
    assert.equal(await alipayChoice.getAttribute("aria-pressed"), "true");
    assert.equal(await wechatChoice.getAttribute("aria-pressed"), "false");
    const presets = form.getByTestId("h5-preset");
    await presets.filter({ hasText: `恢复供电 ¥${offer}` }).click();
    assert.equal(await page.getByTestId("h5-amount").inputValue(), offer);
    await form.getByRole("button", { name: `支付宝支付 ${offer}.00 元` }).waitFor();
    await expectAccessible(page, "owner page, paying with Alipay");
    await page.getByTestId("h5-pay").click();

    // Alipay's cashier (the double's page) takes the payment and sends the phone back.
    await page.waitForURL((url) => url.href.startsWith(alipay.base));
    await page.getByText(`¥${offer}.00`).waitFor();
    await page.getByRole("button", { name: "确认付款" }).click();
    await page.waitForURL((url) => url.href.startsWith(server.baseUrl));
    const back = new URL(page.url());
    assert.equal(back.searchParams.get("pay"), "alipay");
    const outTradeNo = back.searchParams.get("out_trade_no") ?? "";
    assert.match(outTradeNo, /^MLA\d+/);

    // The result page: paid, the new balance above the cut line, and the meter closes its relay.
    const result = page.getByTestId("h5-result");
    await result.getByRole("heading", { name: "充值成功" }).waitFor();
    assert.equal(await textOf(result.getByTestId("h5-paid-amount")), `${offer}.00`);
    const now = fenOf(await textOf(result.getByTestId("h5-new-balance")));
    assert.equal(now, owed + BigInt(offer) * 100n, "the new balance is the debt plus the payment");
    await result.getByTestId("h5-restore").getByText("已恢复供电").waitFor({ timeout: 30_000 });
    const simulated = fleet?.meter(owner.address) as { relayOpen: boolean };
    assert.equal(simulated.relayOpen, false, "supply is back at the meter");
    await expectAccessible(page, "owner page, Alipay paid and supply restored");
    await result.getByRole("button", { name: "返回我的账户" }).click();
    await card.getByText("供电中").waitFor();
    assert.equal(new URL(page.url()).searchParams.get("out_trade_no"), null);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `no sideways scrolling (${overflow}px)`);
    assert.deepEqual(errors, []);
    session = await page.evaluate(
      (key) => localStorage.getItem(key) ?? "",
      `meterline.h5.session.${operator.tenantId}`,
    );

    // Booked once, as 支付宝 (PAYMENT_METHOD 4), with Alipay's trade number.
    const payments = await call<{
      records: { amount: string; paymentMethod: number; transactionNo: string }[];
    }>(server.baseUrl, operator.token, "/api/blade-pms/payment/list", {
      query: { paymentMethod: "4", state: "1", size: "20" },
    });
    assert.deepEqual(
      payments.records.map((p) => [fenOf(p.amount), p.paymentMethod, p.transactionNo]),
      [[BigInt(offer) * 100n, 4, alipay.trade(APP_ID, outTradeNo)?.tradeNo]],
    );
  } finally {
    await context.close();
  }
});

test("inside the Alipay app only Alipay is offered; inside WeChat only WeChat Pay", async () => {
  assert.ok(session, "the first test signed the owner in");
  for (const [userAgent, title, offered, absent] of [
    [
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 AlipayClient/10.5.90",
      "支付宝充值",
      "支付宝支付 20.00 元",
      "h5-channel-wxpay",
    ],
    [
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.50(0x1800322c) NetType/WIFI Language/zh_CN",
      "微信充值",
      "微信支付 20.00 元",
      "h5-channel-alipay",
    ],
  ] as const) {
    const context = await phoneContext(browser, server.baseUrl, userAgent);
    try {
      // The owner's session, as this phone's browser kept it.
      await context.addInitScript(([key, token]) => localStorage.setItem(key, token), [
        `meterline.h5.session.${operator.tenantId}`,
        session,
      ] as const);
      const page = await context.newPage();
      await page.goto(`/h5/?tenant=${operator.tenantId}`);
      await page.getByTestId("h5-recharge-open").click();
      const form = page.getByTestId("h5-recharge");
      await form.getByRole("heading", { name: title }).waitFor();
      await form.getByTestId("h5-preset").filter({ hasText: /^20$/ }).click();
      await form.getByRole("button", { name: offered }).waitFor();
      assert.equal(await form.getByTestId("h5-channel-wxpay").count(), 0);
      assert.equal(await form.getByTestId("h5-channel-alipay").count(), 0);
      assert.equal(await page.getByTestId(absent).count(), 0);
    } finally {
      await context.close();
    }
  }
});

test("on a desktop Alipay is a QR code beside WeChat Pay's; paid, it is listed in 支付记录 as 支付宝, filtered by it", async () => {
  assert.ok(session, "the first test signed the owner in");
  const desktop = await browser.newContext({
    baseURL: server.baseUrl,
    viewport: { width: 1280, height: 800 },
    locale: "zh-CN",
    reducedMotion: "reduce",
  });
  desktop.setDefaultTimeout(15_000);
  try {
    await desktop.addInitScript(([key, token]) => localStorage.setItem(key, token), [
      `meterline.h5.session.${operator.tenantId}`,
      session,
    ] as const);
    const page = await desktop.newPage();
    await page.goto(`/h5/?tenant=${operator.tenantId}`);
    await page.getByTestId("h5-recharge-open").click();
    const form = page.getByTestId("h5-recharge");
    await form.getByTestId("h5-channel-wxpay").waitFor();
    await form.getByTestId("h5-channel-alipay").click();
    await page.getByTestId("h5-amount").fill("12.30");
    await page.getByTestId("h5-pay").click();
    const result = page.getByTestId("h5-result");
    await result.getByRole("img", { name: "支付宝二维码,金额 12.30 元" }).waitFor();
    await result.getByText("请用支付宝扫一扫下面的二维码完成支付。").waitFor();
    const outTradeNo = new URL(page.url()).searchParams.get("out_trade_no") ?? "";
    assert.equal(alipay.trade(APP_ID, outTradeNo)?.total, 1230n, "precreated at Alipay for 12.30");
    assert.equal(
      await result.getByTestId("h5-demo-pay").count(),
      0,
      "not the demo's double: no cashier link",
    );
    // The payer scans it with Alipay on a phone: the double pays and notifies.
    await alipay.pay(APP_ID, outTradeNo);
    await result.getByRole("heading", { name: "充值成功" }).waitFor();
    assert.equal(await textOf(result.getByTestId("h5-paid-amount")), "12.30");
  } finally {
    await desktop.close();
  }

  const consoleContext = await browser.newContext({
    baseURL: server.baseUrl,
    viewport: { width: 1440, height: 900 },
  });
  consoleContext.setDefaultTimeout(15_000);
  try {
    const page = await consoleContext.newPage();
    await signInOperator(page, operator);
    await page.goto("/money/payment");
    const payments = page.locator('[data-testid="money-list"][data-list="payments"]');
    await payments.locator(".ant-table-row").first().waitFor();
    await chooseOption(page, payments.getByLabel("支付方式", { exact: true }), "支付宝", false);
    await payments.getByTestId("money-search-submit").click();
    await eventually(async () => {
      const rows = await payments.locator(".ant-table-row").allTextContents();
      assert.equal(rows.length, 2, rows.join("\n"));
      for (const row of rows) assert.match(row, /支付宝.*线上.*已支付/s);
      assert.ok(rows.some((row) => row.includes("12.30")));
    });
  } finally {
    await consoleContext.close();
  }
});

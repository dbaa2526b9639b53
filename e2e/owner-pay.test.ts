import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Page } from "playwright-core";
import { WxpayDouble } from "../apps/server/src/modules/wxpay/double/wxpay-double.ts";
import { type SmsDouble, startAliyunDouble } from "../apps/server/test/sms-doubles.ts";
import { startWechatOauthDouble } from "../apps/server/test/wechat-oauth-double.ts";
import { expectAccessible } from "./axe.ts";
import { launchBrowser, type RunningServer, startServer, textOf } from "./harness.ts";
import {
  enableOwnerPayments,
  housedOwner,
  lastCode as lastCodeOf,
  ownerSite,
  type Post,
  phoneContext as phoneOf,
} from "./owner-site.ts";
import { call, newOperator, type Operator, signInOperator } from "./registry-helpers.ts";

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
/** The Native order paid from the phone browser, and its receipt number, for the console's check. */
let paidOrder = "";
let paidReceipt = "";

/**
 * A tenant whose SMS goes to the local Aliyun double, whose WeChat sign-in and WeChat Pay are the
 * local doubles, and one owner (钱七, room C101) with an electric meter: 80 deposited, read twice.
 */
before(async () => {
  server = await startServer();
  browser = await launchBrowser();
  sms = await startAliyunDouble({ LTAIownerpay: "owner-pay-e2e-secret" });
  wechat = await startWechatOauthDouble({ appid: MERCHANT.appid, secret: APP_SECRET });
  await double.listen();
  operator = await newOperator(server.baseUrl, "业主支付物业");
  const post: Post = (path, body) => call(server.baseUrl, operator.token, path, { body });
  await enableOwnerPayments(post, {
    tenantId: operator.tenantId,
    baseUrl: server.baseUrl,
    sms,
    accessKey: "LTAIownerpay",
    secretKey: "owner-pay-e2e-secret",
    double,
    merchant: MERCHANT,
    appSecret: APP_SECRET,
    oauthUrl: wechat.base,
    maxAmount: "300",
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
  await browser?.close();
  await server?.stop();
  await sms?.close();
  await wechat?.close();
  await double.close();
});

const lastCode = (phone: string) => lastCodeOf(sms, phone);
const phoneContext = (userAgent: string) => phoneOf(browser, server.baseUrl, userAgent);

/** The first account's balance on the home page, in fen. */
async function balanceOnHome(page: Page): Promise<bigint> {
  await page.getByTestId("h5-balance").waitFor();
  return fenOf(await textOf(page.getByTestId("h5-balance")));
}

test("on a phone browser: bind with the SMS code, recharge 50 by the order's QR code, pay it in the simulated WeChat, see the receipt and the new balance", async () => {
  const context = await phoneContext(
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148",
  );
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

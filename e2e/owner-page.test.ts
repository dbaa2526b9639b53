import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { type SmsDouble, startAliyunDouble } from "../apps/server/test/sms-doubles.ts";
import { expectAccessible } from "./axe.ts";
import { clickRowAction, openResource, rowsWith, settled, toast } from "./crud-helpers.ts";
import { launchBrowser, type RunningServer, startServer, textOf } from "./harness.ts";
import { housedOwner, ownerSite } from "./owner-site.ts";
import { call, newOperator, type Operator, signInOperator } from "./registry-helpers.ts";

const OWNER_PHONE = "13800000077";
const SECOND_PHONE = "13800000078";

/** The tenant's wall clock (Asia/Shanghai) some minutes ago, as the reading calls take it. */
const minutesAgo = (minutes: number) =>
  new Date(Date.now() - minutes * 60_000)
    .toLocaleString("sv-SE", { timeZone: "Asia/Shanghai", hour12: false })
    .slice(0, 19);

let server: RunningServer;
let browser: Awaited<ReturnType<typeof launchBrowser>>;
let sms: SmsDouble;
let operator: Operator;
let receiptNo: string;
/** The balance after the desk's recharge, as the desk saw it. */
let balanceAfter: string;

/**
 * A tenant whose SMS goes to the local Aliyun double, and one owner (王五, room A301) with an
 * electric meter: 80 deposited, 12.5 kWh read by hand today, 50 recharged at the desk.
 */
before(async () => {
  server = await startServer();
  browser = await launchBrowser();
  sms = await startAliyunDouble({ LTAIownerpage: "owner-page-e2e-secret" });
  operator = await newOperator(server.baseUrl, "业主服务物业");
  const post = <T = { id: string }>(path: string, body: unknown) =>
    call<T>(server.baseUrl, operator.token, path, { body });
  const setting = await post("/api/blade-resource/sms/submit", {
    category: 3,
    smsCode: "code",
    templateId: "SMS_CODE",
    accessKey: "LTAIownerpage",
    secretKey: "owner-page-e2e-secret",
    signName: "业主服务",
    endpoint: sms.url,
  });
  await post("/api/blade-resource/sms/enable", { id: setting.id });
  const pms = (path: string, body: unknown) => post(`/api/blade-pms/${path}`, body);
  const site = await ownerSite(pms, {
    areaName: "业主园区",
    collectorName: "业主DTU",
    collectorCode: `E2E-H5-${operator.tenantId}`,
  });
  const { meterId: meter } = await housedOwner(pms, site, {
    ownerName: "王五",
    phone: OWNER_PHONE,
    roomName: "A301",
    productCode: "400000000301",
  });
  // 赵六 of A302, bound in the console test.
  await housedOwner(pms, site, { ownerName: "赵六", phone: SECOND_PHONE, roomName: "A302" });
  await pms("dataread/submit", { meterId: meter, readTime: minutesAgo(30), totalValue: "100" });
  await pms("message/openAccount", { meterId: meter, deposit: "80" });
  await pms("dataread/submit", { meterId: meter, readTime: minutesAgo(3), totalValue: "112.5" });
  const recharge = await post<{ receiptNo: string; balanceAfter: string }>(
    "/api/blade-pms/datarecharge/submit",
    {
      meterId: meter,
      amount: "50",
      paymentMethod: 1,
      idempotencyKey: `e2e-owner-page-${operator.tenantId}`,
    },
  );
  receiptNo = recharge.receiptNo;
  balanceAfter = recharge.balanceAfter;
});

after(async () => {
  await browser?.close();
  await server?.stop();
  await sms?.close();
});

/** The code the SMS double received last for the phone. */
function lastCode(phone: string): string {
  const message = sms.received.filter((m) => m.phones.includes(phone)).at(-1);
  assert.ok(message, `an SMS reached ${phone}`);
  return (message.params as Record<string, string>).code ?? "";
}

test("on a phone: sign in and bind with the SMS code, see the balance, the usage chart and the receipt; unbind", async () => {
  const context = await browser.newContext({
    baseURL: server.baseUrl,
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale: "zh-CN",
    reducedMotion: "reduce",
    userAgent:
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148",
  });
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  const scripts: { url: string; encoding: string | undefined }[] = [];
  page.on("response", (response) => {
    if (response.url().endsWith(".js"))
      scripts.push({ url: response.url(), encoding: response.headers()["content-encoding"] });
  });
  try {
    await page.goto(`/h5/?tenant=${operator.tenantId}`);
    await page.getByTestId("h5-sign-in").waitFor();
    // The owner page is a build of its own: one script, none of the console's (antd) chunks.
    assert.ok(
      scripts.length > 0 && scripts.every((s) => /\/assets\/h5-[\w-]+\.js$/.test(s.url)),
      JSON.stringify(scripts),
    );
    assert.ok(
      scripts.every((s) => s.encoding === "br"),
      `served precompressed: ${JSON.stringify(scripts)}`,
    );

    await expectAccessible(page, "owner page sign-in");
    await page.getByTestId("h5-phone").fill(OWNER_PHONE);
    await page.getByTestId("h5-send-code").click();
    await page.getByText("验证码已发送").waitFor();
    assert.match(await textOf(page.getByTestId("h5-send-code")), /秒后重发/);
    await page.getByTestId("h5-code").fill(lastCode(OWNER_PHONE));
    await page.getByTestId("h5-sign-in-submit").click();

    // First visit: prove the room. The phone is the one just proven, so no second code.
    await page.getByTestId("h5-bind").waitFor();
    assert.equal(await page.getByTestId("h5-bind-phone").inputValue(), OWNER_PHONE);
    await page.getByTestId("h5-room").fill("A302");
    await page.getByTestId("h5-bind-submit").click();
    await page.getByRole("alert").filter({ hasText: "房间号与业主手机号不匹配" }).waitFor();
    await page.getByTestId("h5-room").fill("A301");
    await page.getByTestId("h5-bind-submit").click();

    await page.getByTestId("h5-owner").filter({ hasText: "王五" }).waitFor();
    // The balance the desk's recharge left, in yuan to the fen.
    assert.match(balanceAfter, /^\d+\.\d\d$/);
    assert.equal(await textOf(page.getByTestId("h5-balance")), balanceAfter);
    assert.equal(await textOf(page.getByTestId("h5-level")), "正常");
    const chart = page.getByTestId("usage-chart");
    await chart.waitFor();
    assert.equal(await chart.getByTestId("usage-bar").count(), 1);
    assert.match((await chart.locator("svg").getAttribute("aria-label")) ?? "", /400000000301/);
    const box = await chart.locator("svg").boundingBox();
    assert.ok(box && box.width > 300 && box.width <= 390, `the chart fits the phone: ${JSON.stringify(box)}`);
    await page.getByRole("button", { name: "近 12 个月" }).click();
    await page.getByRole("button", { name: "近 12 个月", pressed: true }).waitFor();
    await chart.getByTestId("usage-bar").first().waitFor();

    // The desk's recharge and its receipt.
    const history = page.getByTestId("h5-history");
    await history.getByText(/现金 · 400000000301/).waitFor();
    await history.getByText(/现金 · 已支付/).waitFor();
    await history.getByRole("button", { name: "收据" }).click();
    await page.getByTestId("h5-receipt").getByText(receiptNo).waitFor();
    await expectAccessible(page, "owner page home");

    // English, then back.
    await page.getByTestId("h5-language").click();
    await page.getByText("Balance (yuan)", { exact: true }).waitFor();
    await page.getByRole("button", { name: "Last 30 days" }).waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.lang), "en");
    await page.getByTestId("h5-language").click();
    await page.getByText("余额(元)", { exact: true }).waitFor();

    // Nothing overflows the phone's width.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `no sideways scrolling (${overflow}px)`);

    // Unbind from the page: back to the binding form.
    page.once("dialog", (dialog) => void dialog.accept());
    await page.getByTestId("h5-unbind").click();
    await page.getByTestId("h5-bind").waitFor();
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

/** An owner-page call as the page makes it. */
async function ownerCall<T>(path: string, options: { token?: string; body?: unknown } = {}) {
  const answer = await fetch(`${server.baseUrl}/api/blade-pms/h5/${path}`, {
    method: options.body === undefined ? "GET" : "POST",
    headers: {
      ...(options.token ? { "H5-Auth": options.token } : {}),
      ...(options.body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  const body = (await answer.json()) as { data: T; msg: string };
  assert.equal(answer.status, 200, `${path}: ${body.msg}`);
  return body.data;
}

test("the console's 微信绑定 screen lists a phone binding and removing it ends the owner's access", async () => {
  const tenantId = operator.tenantId;
  await ownerCall("code", { body: { tenantId, phone: SECOND_PHONE } });
  const { token } = await ownerCall<{ token: string }>("sign-in", {
    body: { tenantId, phone: SECOND_PHONE, code: lastCode(SECOND_PHONE) },
  });
  await ownerCall("bind", { token, body: { room: "A302", phone: SECOND_PHONE } });
  assert.equal((await ownerCall<{ bound: boolean }>("me", { token })).bound, true);

  const context = await browser.newContext({
    baseURL: server.baseUrl,
    viewport: { width: 1440, height: 900 },
  });
  context.setDefaultTimeout(15_000);
  try {
    const page = await context.newPage();
    await signInOperator(page, operator);
    const screen = await openResource(page, "/pms/wxbind", "wxBind");
    const row = rowsWith(screen, SECOND_PHONE);
    await row.filter({ hasText: "赵六" }).waitFor();
    await clickRowAction(row, "row-remove");
    await page.locator(".ant-modal-confirm").getByTestId("crud-remove-ok").click();
    await toast(page, "删除成功");
    await settled(screen);
    assert.equal(await rowsWith(screen, SECOND_PHONE).count(), 0);
  } finally {
    await context.close();
  }
  assert.equal((await ownerCall<{ bound: boolean }>("me", { token })).bound, false);
});

test("a property code that exists nowhere: the sign-in shows, and asking for a code leads back to entering one", async () => {
  const context = await browser.newContext({
    baseURL: server.baseUrl,
    viewport: { width: 390, height: 844 },
    isMobile: true,
    locale: "zh-CN",
  });
  context.setDefaultTimeout(15_000);
  try {
    const page = await context.newPage();
    // The site answer cannot tell an unknown code from a tenant without WeChat: the sign-in shows.
    await page.goto("/h5/?tenant=999999");
    await page.getByTestId("h5-sign-in").waitFor();
    await page.getByTestId("h5-phone").fill("13800000079");
    await page.getByTestId("h5-send-code").click();
    await page.getByRole("status").filter({ hasText: "没有这个物业编号,请检查链接或二维码。" }).waitFor();
    await page.getByLabel("物业编号").waitFor();
    assert.equal(await page.getByTestId("h5-sign-in").count(), 0);
    assert.equal(sms.received.filter((m) => m.phones.includes("13800000079")).length, 0);
  } finally {
    await context.close();
  }
});

import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { type FleetHandle, planFleet, plannedSecret, startFleet } from "@meterline/simulator";
import type { Browser, Page } from "playwright-core";
import { WxpayDouble } from "../../apps/server/src/modules/wxpay/double/wxpay-double.ts";
import { type SmsDouble, startAliyunDouble } from "../../apps/server/test/sms-doubles.ts";
import { freePort } from "../../scripts/free-port.mjs";
import { expectAccessible } from "../axe.ts";
import { launchBrowser, type RunningServer, startServer, textOf } from "../harness.ts";
import {
  type ArrearsOwner,
  arrearsSite,
  enableOwnerPayments,
  lastCode,
  type Post,
  phoneContext,
} from "../owner-site.ts";
import { call, eventually, newOperator, type Operator } from "../registry-helpers.ts";

/**
 * An owner cut off for arrears takes out a phone, signs in on the owner page with an SMS code,
 * binds the room, sees how much brings the power back offered first, pays it with WeChat Pay (the
 * local double's cashier standing in for the WeChat app) and sees supply restored: the simulated
 * meter closes its relay. Once in Chinese (周九 of 2号楼 101), once in English (吴十 of 2号楼 102),
 * axe on every step, on a phone's viewport. The API sets up the site and the debt beforehand and is
 * asked afterwards what was booked.
 */

const MERCHANT = {
  mchid: "1900000393",
  appid: "wx3930000000000393",
  apiV3Key: "e2e-owner-phone-v3-key-012345678",
};
const PLAN = {
  meters: 2,
  dtus: 1,
  waterRatio: 0,
  prepaidRatio: 0,
  dlt1997Ratio: 0,
  seed: "e2e-owner-phone",
} as const;

/** The gateway's port, chosen here so that the simulated meters can dial it. */
const gatewayPort = await freePort();

/** Yuan text with two decimals to whole fen, and back. */
const fenOf = (text: string) => BigInt(text.replace(".", ""));
const yuanOf = (fen: bigint) => {
  const whole = fen < 0n ? -fen : fen;
  return `${fen < 0n ? "-" : ""}${whole / 100n}.${String(whole % 100n).padStart(2, "0")}`;
};

let server: RunningServer;
let browser: Browser;
let sms: SmsDouble;
const double = new WxpayDouble();
let operator: Operator;
let fleet: FleetHandle | undefined;
let owners: ArrearsOwner[] = [];

before(async () => {
  server = await startServer({
    GATEWAY_HOST: "127.0.0.1",
    GATEWAY_PORT: String(gatewayPort),
    // The meters are read when they register; no usage is priced while the owners pay.
    POLL_INTERVAL_SECONDS: "86400",
  });
  browser = await launchBrowser();
  sms = await startAliyunDouble({ LTAIownerphone: "owner-phone-e2e-secret" });
  await double.listen();
  operator = await newOperator(server.baseUrl, "业主复电物业");
  const post: Post = (path, body) => call(server.baseUrl, operator.token, path, { body });
  await enableOwnerPayments(post, {
    tenantId: operator.tenantId,
    baseUrl: server.baseUrl,
    sms,
    accessKey: "LTAIownerphone",
    secretKey: "owner-phone-e2e-secret",
    double,
    merchant: MERCHANT,
    appSecret: "owner-phone-e2e-app-secret-001",
    maxAmount: "500",
  });
  const plan = planFleet(PLAN);
  const dtu = plan.dtuIds[0]!;
  owners = await arrearsSite(post, { code: dtu, secret: plannedSecret(plan, dtu) }, [
    { ownerName: "周九", phone: "13800000093", roomName: "101", address: plan.meters[0]!.address },
    { ownerName: "吴十", phone: "13800000094", roomName: "102", address: plan.meters[1]!.address },
  ]);
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
      [1, 1],
    );
  }, 60_000);
  // Each account opens with 20.00 and is then 143.45 lighter: 123.45 owed, beyond the 10.00
  // overdraft, so the gateway cuts both meters.
  for (const owner of owners) {
    const [opened] = await post<{ accountId: string }[]>("/api/blade-pms/message/openAccount", {
      meterId: owner.meterId,
      deposit: "20",
    });
    await post("/api/blade-pms/datarecharge/submit", {
      accountId: opened!.accountId,
      rechargeType: 4,
      amount: "143.45",
      remark: "测试欠费",
      idempotencyKey: `e2e-owner-phone-${owner.address}`,
    });
  }
  for (const owner of owners) {
    const simulated = fleet.meter(owner.address) as { relayOpen: boolean };
    await eventually(async () => assert.equal(simulated.relayOpen, true, `${owner.address} is cut`), 30_000);
  }
});

after(async () => {
  await fleet?.close();
  await browser?.close();
  await server?.stop();
  await sms?.close();
  await double.close();
});

interface Words {
  codeSent: string;
  cut: string;
  restoreNeeded: (least: string) => string;
  restorePreset: (offer: string) => string;
  rechargeTitle: string;
  presets: string;
  qr: (amount: string) => string;
  paid: string;
  restored: string;
  back: string;
  on: string;
}

const zh: Words = {
  codeSent: "验证码已发送",
  cut: "欠费已断",
  restoreNeeded: (least) => `已欠费断电,至少充值 ¥${least} 即可恢复供电。`,
  restorePreset: (offer) => `恢复供电 ¥${offer}`,
  rechargeTitle: "微信充值",
  presets: "常用金额",
  qr: (amount) => `微信支付二维码,金额 ${amount} 元`,
  paid: "充值成功",
  restored: "已恢复供电",
  back: "返回我的账户",
  on: "供电中",
};
const en: Words = {
  codeSent: "Code sent",
  cut: "Supply cut: balance overdue",
  restoreNeeded: (least) =>
    `Power is cut off because the balance is overdue. Pay at least ¥${least} to get power back.`,
  restorePreset: (offer) => `Restore supply ¥${offer}`,
  rechargeTitle: "Top up with WeChat Pay",
  presets: "Quick amounts",
  qr: (amount) => `WeChat Pay QR code for ${amount} yuan`,
  paid: "Top-up complete",
  restored: "Supply restored",
  back: "Back to my accounts",
  on: "Power on",
};

/** The first account's balance on the owner's home, in fen. */
async function balanceOnHome(page: Page): Promise<bigint> {
  await page.getByTestId("h5-balance").waitFor();
  return fenOf(await textOf(page.getByTestId("h5-balance")));
}

/**
 * The owner's story on the phone, in the page's current language: sign in, bind the room, take
 * the restore offer, pay it, see supply back. Answers the amount paid, in fen.
 */
async function payToRestore(page: Page, words: Words, owner: ArrearsOwner): Promise<bigint> {
  await page.getByTestId("h5-phone").fill(owner.phone);
  await page.getByTestId("h5-send-code").click();
  await page.getByText(words.codeSent).waitFor();
  await page.getByTestId("h5-code").fill(lastCode(sms, owner.phone));
  await expectAccessible(page, "signing in");
  await page.getByTestId("h5-sign-in-submit").click();
  await page.getByTestId("h5-room").fill(owner.roomName);
  await expectAccessible(page, "binding the room");
  await page.getByTestId("h5-bind-submit").click();
  await page.getByTestId("h5-owner").filter({ hasText: owner.ownerName }).waitFor();

  // The room as the property names it, building included; the cut, and what brings power back.
  const card = page.getByTestId("h5-account");
  assert.match(
    await textOf(card.locator(".where")),
    new RegExp(`^2号楼 ${owner.roomName} · ${owner.address}$`),
  );
  const owed = await balanceOnHome(page);
  assert.ok(owed <= -12345n, `owed ${owed}`);
  // The least that brings supply back is the debt beyond the 10.00 overdraft plus a fen, offered
  // in whole yuan.
  const least = yuanOf(-1000n - owed + 1n);
  const offer = String((-1000n - owed + 1n + 99n) / 100n);
  await card.getByText(words.cut).waitFor();
  assert.equal(await textOf(card.getByTestId("h5-restore-needed")), words.restoreNeeded(least));
  await expectAccessible(page, "cut for arrears");

  // The offer comes first among the presets.
  await card.getByTestId("h5-recharge-open").click();
  const form = page.getByTestId("h5-recharge");
  await form.getByRole("heading", { name: words.rechargeTitle }).waitFor();
  const presets = form.getByTestId("h5-preset");
  // The presets come with the payment options: wait for the offer before reading them all.
  await presets.filter({ hasText: words.restorePreset(offer) }).waitFor();
  assert.deepEqual(await presets.allTextContents(), [words.restorePreset(offer), "20", "50", "100", "200"]);
  await form.getByText(words.presets).waitFor();
  await presets.first().click();
  assert.equal(await page.getByTestId("h5-amount").inputValue(), offer);
  await expectAccessible(page, "the restore offer");
  await page.getByTestId("h5-pay").click();

  // The order's QR code; the payer's WeChat (the double's cashier) pays it.
  const result = page.getByTestId("h5-result");
  await result.getByRole("img", { name: words.qr(`${offer}.00`) }).waitFor();
  await expectAccessible(page, "waiting for the payment");
  const order = new URL(page.url()).searchParams.get("order") ?? "";
  const cashier = await page.context().newPage();
  await cashier.goto(double.cashierUrl(MERCHANT.mchid, order));
  await cashier.getByRole("button", { name: /确认支付/ }).click();
  await cashier.getByText("支付成功").waitFor();
  await cashier.close();

  // Paid, above the cut line, and the meter closes its relay.
  await result.getByRole("heading", { name: words.paid }).waitFor();
  const now = fenOf(await textOf(result.getByTestId("h5-new-balance")));
  assert.equal(now, owed + BigInt(offer) * 100n, "the new balance is the debt plus the payment");
  assert.ok(now > -1000n, `above the cut line: ${now}`);
  await result.getByTestId("h5-restore").getByText(words.restored).waitFor({ timeout: 30_000 });
  const simulated = fleet?.meter(owner.address) as { relayOpen: boolean };
  assert.equal(simulated.relayOpen, false, "supply is back at the meter");
  await expectAccessible(page, "supply restored");
  await result.getByRole("button", { name: words.back }).click();
  await card.getByText(words.on).waitFor();
  assert.equal(await card.getByTestId("h5-restore-needed").count(), 0);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `no sideways scrolling (${overflow}px)`);
  await expectAccessible(page, "power on");
  return BigInt(offer) * 100n;
}

/** A phone of its own for each owner, its page in the language the owner picks on the sign-in page. */
async function onPhone(words: Words, owner: ArrearsOwner, errors: string[]): Promise<bigint> {
  const context = await phoneContext(browser, server.baseUrl);
  try {
    const page = await context.newPage();
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(`/h5/?tenant=${operator.tenantId}`);
    await page.getByTestId("h5-sign-in").waitFor();
    if (words === en) {
      await page.getByTestId("h5-language").click();
      await page.getByRole("heading", { name: "Sign in with your mobile number" }).waitFor();
    }
    await expectAccessible(page, "the owner page");
    return await payToRestore(page, words, owner);
  } finally {
    await context.close();
  }
}

test("an owner on a phone, cut off for arrears, pays the offered amount and sees supply back; in Chinese, then in English", async () => {
  const errors: string[] = [];
  const paid = [await onPhone(zh, owners[0]!, errors), await onPhone(en, owners[1]!, errors)];
  assert.deepEqual(errors, []);

  // Afterwards: each payment booked once, as a WeChat recharge of the offered amount.
  for (const [index, owner] of owners.entries()) {
    const records = await call<{ records: { amount: string; rechargeType: number; productCode?: string }[] }>(
      server.baseUrl,
      operator.token,
      "/api/blade-pms/datarecharge/page",
      { query: { productCode: owner.address, rechargeType: "1", size: "20" } },
    );
    assert.deepEqual(
      records.records.map((r) => fenOf(r.amount)),
      [paid[index]],
      `${owner.ownerName}'s recharges`,
    );
  }
});

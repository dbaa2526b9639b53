import assert from "node:assert/strict";
import { generateKeyPairSync } from "node:crypto";
import { after, test } from "node:test";
import { AlipayDouble } from "../apps/server/src/modules/alipay/double/alipay-double.ts";
import { expectAccessible } from "./axe.ts";
import { textOf, useBrowserSuite } from "./harness.ts";
import { seedMoneySite } from "./money-helpers.ts";
import { call, chooseOption, newOperator, signInOperator } from "./registry-helpers.ts";

const suite = useBrowserSuite();
const double = new AlipayDouble();
after(() => double.close());

const APP_ID = "2021000117658801";
/** The China day of an instant (the bill's days are cut at midnight Beijing time). */
const chinaDay = (at: Date) => new Date(at.getTime() + 8 * 3_600_000).toISOString().slice(0, 10);

test("支付对账 reconciles an Alipay day, lists its differences by channel and books a lost payment through the ledger, in zh and en", async () => {
  const { page, errors } = suite.session;
  const base = suite.server.baseUrl;
  const operator = await newOperator(base, "支付宝对账物业");
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  await double.listen();
  double.addApp({ appId: APP_ID, publicKey: publicKey.export({ type: "spki", format: "pem" }).toString() });
  await call(base, operator.token, "/api/blade-pms/alipayconfig/submit", {
    body: {
      appId: APP_ID,
      environment: "sandbox",
      privateKey: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
      alipayPublicKey: double.alipayPublicKey,
      gatewayUrl: double.gateway,
      notifyUrl: `${base}/api/blade-pms/alipay/notify/${operator.tenantId}`,
      enabled: 1,
    },
  });
  const site = await seedMoneySite(base, operator, {
    rooms: 1,
    firstCode: 530000000201,
    ownerName: "周支付",
    phone: "13900000532",
  });
  const [opened] = await call<{ accountId: string }[]>(
    base,
    operator.token,
    "/api/blade-pms/message/openAccount",
    {
      body: { meterId: site.meters[0]!.id },
    },
  );
  /** The account's balance in whole fen (the list answers yuan with two decimals). */
  const balance = async () => {
    const { records } = await call<{ records: { accounts: { id: string; balance: string }[] }[] }>(
      base,
      operator.token,
      "/api/blade-pms/ownerRecharge/page",
    );
    const account = records.flatMap((r) => r.accounts).find((a) => a.id === opened!.accountId);
    return BigInt((account?.balance ?? "").replace(".", ""));
  };
  const before = await balance();

  // Paid at Alipay yesterday at noon, its notification lost on the way: nothing booked here.
  const yesterday = chinaDay(new Date(Date.now() - 24 * 3_600_000));
  const order = await call<{ outTradeNo: string }>(base, operator.token, "/api/blade-pms/alipay/precreate", {
    body: { meterId: site.meters[0]!.id, amount: "56.78" },
  });
  double.notifyPlan({ mode: "drop" });
  await double.payAt(APP_ID, order.outTradeNo, new Date(`${yesterday}T04:00:00Z`));
  double.notifyPlan({ mode: "deliver" });

  await signInOperator(page, operator);
  await page.goto("/money/wxbill");
  const screen = page.getByTestId("wxbill-page");
  await screen.getByText("还没有对账记录").waitFor();
  await screen.getByTestId("wxbill-date").fill(yesterday);
  await chooseOption(page, screen.getByTestId("wxbill-reconcile-channel"), "支付宝", false);
  await screen.getByTestId("wxbill-reconcile").click();
  await page.getByText("对账完成").waitFor();

  // The lists follow the channel reconciled: Alipay's words above the columns, the channel in each row.
  const bill = screen.getByTestId("wxbill-bills").locator(".ant-table-row", { hasText: yesterday });
  await bill.waitFor();
  assert.match(await textOf(bill), /支付宝/);
  assert.match(await textOf(bill), /有差异/);
  await screen.getByText("本系统记为支付宝").waitFor();
  const diff = screen.getByTestId("wxbill-diffs").locator(".ant-table-row", { hasText: order.outTradeNo });
  await diff.waitFor();
  const text = await textOf(diff);
  for (const part of ["支付宝", "支付宝有、本系统无", "56.78"])
    assert.ok(text.includes(part), `${part} in ${text}`);
  await expectAccessible(page, "alipay bill differences");

  // WeChat Pay's days and differences are apart: none listed under its filter.
  await chooseOption(page, screen.getByTestId("wxbill-channel-filter"), "微信支付", false);
  await screen.getByTestId("wxbill-diffs").getByText("没有差异").waitFor();
  await chooseOption(page, screen.getByTestId("wxbill-channel-filter"), "支付宝", false);
  await diff.waitFor();

  await diff.getByTestId("wxbill-settle").click();
  const dialog = page.locator(".ant-modal", { hasText: order.outTradeNo });
  await dialog.waitFor();
  await dialog.getByText("按账单入账").waitFor();
  await dialog.getByLabel("原因").fill("支付宝通知丢失,按账单入账");
  await page.getByTestId("wxbill-settle-ok").click();
  await screen.getByTestId("wxbill-diffs").getByText("没有差异").waitFor();
  await bill.getByText("已平").waitFor();
  assert.equal(await balance(), before + 5678n, "booked once through the ledger");
  const { records } = await call<{
    records: { channel: string; state: string; action: string; ledgerId: string }[];
  }>(base, operator.token, "/api/blade-pms/wxbill/diff-list", {
    query: { channel: "alipay", current: "1", size: "10" },
  });
  assert.deepEqual(
    records.map((r) => [r.channel, r.state, r.action, Boolean(r.ledgerId)]),
    [["alipay", "settled", "book", true]],
  );

  await page.evaluate(() =>
    localStorage.setItem("saber-language", JSON.stringify({ dataType: "string", content: "en" })),
  );
  await page.goto("/money/wxbill");
  const english = page.getByTestId("wxbill-page");
  await chooseOption(page, english.getByTestId("wxbill-channel-filter"), "Alipay", false);
  await english
    .getByTestId("wxbill-bills")
    .locator(".ant-table-row", { hasText: "Balanced" })
    .getByText("Alipay")
    .waitFor();
  await english.getByText("Recorded here as Alipay").waitFor();
  await chooseOption(page, english.getByLabel("Handling"), "All", false);
  await english
    .getByTestId("wxbill-diffs")
    .locator(".ant-table-row", { hasText: order.outTradeNo })
    .getByText("At Alipay only")
    .waitFor();
  await expectAccessible(page, "alipay bill en");
  assert.deepEqual(errors, []);
});

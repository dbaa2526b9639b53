import assert from "node:assert/strict";
import { test } from "node:test";
import type { Page } from "playwright-core";
import { expectAccessible } from "./axe.ts";
import { textOf, useBrowserSuite } from "./harness.ts";
import { seedMoneySite } from "./money-helpers.ts";
import { call, chooseOption, eventually, newOperator, signInOperator } from "./registry-helpers.ts";

const suite = useBrowserSuite();

/** The rows of the table beside a pie: label, amount, count. */
const sliceRows = async (page: Page, kind: "paymentMethod" | "rechargeType") =>
  (await page.getByTestId(`money-${kind}-table`).locator("tbody tr").allInnerTexts()).map((row) =>
    row.split("\t").map((cell) => cell.trim()),
  );

test("the home page's pies show the money taken by each payment method and type, and an owner's paths", async () => {
  const { page } = suite.session;
  const base = suite.server.baseUrl;
  const operator = await newOperator(base, "首页收费公司");
  const site = await seedMoneySite(base, operator, {
    rooms: 1,
    firstCode: 520000000101,
    ownerName: "钱首页",
    phone: "13900000521",
  });
  const [opened] = await call<{ accountId: string }[]>(
    base,
    operator.token,
    "/api/blade-pms/message/openAccount",
    {
      body: { meterId: site.meters[0]!.id },
    },
  );
  const recharge = (paymentMethod: number, amount: string, key: string) =>
    call(base, operator.token, "/api/blade-pms/datarecharge/submit", {
      body: { accountId: opened!.accountId, rechargeType: 1, paymentMethod, amount, idempotencyKey: key },
    });
  await recharge(1, "30.00", "e2e-home-cash-1");
  await recharge(3, "20.50", "e2e-home-wechat-1");
  await recharge(1, "4.25", "e2e-home-cash-2");
  await call(base, operator.token, "/api/blade-pms/datarecharge/submit", {
    body: {
      accountId: opened!.accountId,
      rechargeType: 2,
      amount: "10.00",
      idempotencyKey: "e2e-home-refund",
    },
  });

  await signInOperator(page, operator);
  const pies = page.getByTestId("money-pies");
  await pies.getByTestId("money-paymentMethod-table").waitFor();
  // Payment methods by their dictionary names; the refund is money out, not a method's take.
  await eventually(async () => assert.equal((await sliceRows(page, "paymentMethod")).length, 2));
  assert.deepEqual(await sliceRows(page, "paymentMethod"), [
    ["现金", "34.25", "2"],
    ["微信", "20.50", "1"],
  ]);
  assert.equal(await textOf(page.getByTestId("money-paymentMethod-total")), "54.75");
  const drawn = async () =>
    JSON.parse(
      (await page.getByTestId("money-paymentMethod-chart").getAttribute("data-slices")) ?? "[]",
    ) as string[][];
  await eventually(async () =>
    assert.deepEqual(await drawn(), [
      ["现金", "34.25"],
      ["微信", "20.50"],
    ]),
  );
  await eventually(async () => assert.equal((await sliceRows(page, "rechargeType")).length, 2));
  assert.deepEqual(await sliceRows(page, "rechargeType"), [
    ["充值", "54.75", "3"],
    ["退费", "10.00", "1"],
  ]);
  // The money beside usage: today's bar holds the day's recharges.
  await eventually(async () =>
    assert.ok(await page.getByTestId("overview-recharge-chart").getAttribute("data-bars")),
  );
  const bars = JSON.parse(
    (await page.getByTestId("overview-recharge-chart").getAttribute("data-bars")) ?? "[]",
  ) as string[][];
  assert.equal(bars.length, 7);
  assert.equal(bars.at(-1)?.[1], "54.75");
  // No text says the money charts are still to come.
  assert.doesNotMatch(await textOf(page.getByTestId("home-page")), /ledger|台账上线|敬请期待/);
  await expectAccessible(page, "home page with money charts");

  // The 12-month view holds the same money.
  await pies.getByText("近 12 个月").click();
  await eventually(async () =>
    assert.equal(await textOf(page.getByTestId("money-paymentMethod-total")), "54.75"),
  );

  // An owner's paths: picked by name, their recharges and refunds per day.
  await page
    .getByTestId("money-owner-path")
    .getByText("按姓名、电话、房间或表号查找业主，显示其每日用量和充值")
    .waitFor();
  await chooseOption(page, page.getByTestId("money-owner-select"), "钱首页");
  await eventually(async () =>
    assert.equal(await textOf(page.getByTestId("money-owner-totals")), "期间充值 54.75 元，退费 10.00 元"),
  );
  // The chart notes what it drew after it has drawn, a moment after the totals line appears.
  const drawnSeries = async () =>
    JSON.parse(
      (await page.getByTestId("money-owner-recharges").getAttribute("data-series")) ?? "{}",
    ) as Record<string, string[]>;
  await eventually(async () => assert.equal((await drawnSeries())["充值 (元)"]?.length, 30));
  const series = await drawnSeries();
  assert.equal(series["充值 (元)"]?.at(-1), "54.75");
  assert.equal(series["退费 (元)"]?.at(-1), "10.00");
  await expectAccessible(page, "owner paths");

  // In English with the dark theme: the dictionary's English names, and still readable.
  for (const [key, content] of [
    ["saber-language", "en"],
    ["saber-theme", "theme-dark"],
  ] as const)
    await page.evaluate(
      ({ name, value }) => localStorage.setItem(name, JSON.stringify({ dataType: "string", content: value })),
      { name: key, value: content },
    );
  await page.reload();
  await page.getByTestId("money-paymentMethod-table").waitFor();
  await eventually(async () =>
    assert.deepEqual(
      (await sliceRows(page, "paymentMethod")).map((row) => row[0]),
      ["Cash", "WeChat"],
    ),
  );
  await page.waitForLoadState("networkidle");
  await expectAccessible(page, "home page with money charts, en, dark");
  assert.deepEqual(suite.session.errors, []);
});

test("a tenant without recharges sees a clear empty state instead of empty pies", async () => {
  const { page } = suite.session;
  const operator = await newOperator(suite.server.baseUrl, "无充值公司");
  await signInOperator(page, operator);
  await page.getByTestId("money-paymentMethod-empty").waitFor();
  assert.match(await textOf(page.getByTestId("money-paymentMethod-empty")), /近 30 天没有充值/);
  await page.getByTestId("money-rechargeType-empty").waitFor();
  await expectAccessible(page, "home page without recharges");
});

import assert from "node:assert/strict";
import { test } from "node:test";
import { expectAccessible } from "./axe.ts";
import { openResource } from "./crud-helpers.ts";
import { textOf, useBrowserSuite } from "./harness.ts";
import { call, eventually, signInOperator, tokenOf } from "./registry-helpers.ts";

// The demo site: its history gives every meter a live reading and 60 days of usage from the start.
const suite = useBrowserSuite({ env: { DEMO_DATA: "1" } });
const demo = { tenantId: "100001", password: "admin" };

test("a meter's page opens from the meter table, its room's and owner's pages from there, each with live data", async () => {
  const { page } = suite.session;
  const token = await tokenOf(suite.server.baseUrl, demo.tenantId, "admin", demo.password);
  await signInOperator(page, { ...demo, token });

  // The meter number in 电表管理 is a link to the meter's page.
  const meters = await openResource(page, "/pms/meter", "meter");
  const link = meters.locator('[data-detail-link="productCode"]').first();
  const productCode = await textOf(link);
  await link.click();
  await page.waitForURL(/\/pms\/meter\/detail\/\d+$/);
  const meter = page.getByTestId("meter-detail");
  await meter.waitFor();
  assert.match(await textOf(meter.getByTestId("detail-title")), new RegExp(`^电表 ${productCode}$`));
  assert.match(await textOf(meter.getByTestId("detail-live-reading")), /^\d+\.\d{2} kWh$/);
  // The usage chart is this meter's: 30 days, drawn.
  const chart = meter.getByTestId("detail-usage-electric");
  await eventually(async () => {
    const bars = JSON.parse((await chart.getAttribute("data-bars")) ?? "[]") as [string, string][];
    assert.equal(bars.length, 30);
    assert.ok(
      bars.some(([, value]) => Number(value) > 0),
      "the demo history shows some use",
    );
  });
  // The tab is named after the meter.
  await eventually(async () =>
    assert.ok(
      (await page.getByTestId("tab").allInnerTexts()).some((label) => label.includes(`电表 ${productCode}`)),
    ),
  );
  await expectAccessible(page, "meter detail");

  // Its room, from the live card: the room's path, its owner and its meters with their readings.
  await meter.getByTestId("detail-live").getByRole("link").first().click();
  await page.waitForURL(/\/pms\/room\/detail\/\d+$/);
  const room = page.getByTestId("room-detail");
  await room.waitFor();
  assert.match(await textOf(room.getByTestId("detail-room-path")), / \/ /);
  assert.ok((await room.getByTestId("detail-owner-link").count()) >= 1, "the room has an owner");
  const listed = room.getByTestId("detail-meters").getByTestId("detail-meter-link");
  assert.ok((await listed.allInnerTexts()).includes(productCode), "the room lists the meter");
  assert.ok((await room.getByTestId("detail-meter-reading").count()) >= 1);
  await expectAccessible(page, "room detail");

  // The room's owner: their rooms and accounts with balances.
  await room.getByTestId("detail-owner-link").first().click();
  await page.waitForURL(/\/pms\/owner\/detail\/\d+$/);
  const owner = page.getByTestId("owner-detail");
  await owner.waitFor();
  assert.ok((await owner.getByTestId("detail-meter-link").allInnerTexts()).includes(productCode));
  assert.match(await textOf(owner.getByTestId("detail-owner-balance")), /^-?\d+\.\d{2}$/);
  // The pointer left where the owner link was would hover a link of this page (antd's hover colour).
  await page.mouse.move(0, 0);
  await expectAccessible(page, "owner detail");
});

test("a meter's page lists the alarms open on it, each rule named in the reader's language", async () => {
  const { page } = suite.session;
  const { baseUrl } = suite.server;
  const token = await tokenOf(baseUrl, demo.tenantId, "admin", demo.password);
  type OpenRecord = { energyType: number; meterId: string; ruleCode: string; checkRuleName: string };
  // The demo's low balances and faulty meters raise records on the first start.
  let open: OpenRecord | undefined;
  await eventually(async () => {
    const found = await call<{ records: OpenRecord[] }>(baseUrl, token, "/api/blade-pms/checkRecord/page", {
      query: { alarmStatus: "1", size: "1" },
    });
    open = found.records[0];
    assert.ok(open, "an open alarm in the demo");
  }, 90_000);
  await signInOperator(page, { ...demo, token });
  await page.goto(`/pms/${open!.energyType === 2 ? "water" : "meter"}/detail/${open!.meterId}`);
  const alarms = page.getByTestId("detail-alarms");
  await eventually(async () => assert.match(await textOf(alarms), new RegExp(open!.checkRuleName)));
  assert.match(await textOf(alarms), /自 \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/);
});

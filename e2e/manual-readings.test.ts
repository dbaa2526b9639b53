import assert from "node:assert/strict";
import { test } from "node:test";
import { openResource, rowsWith, settled } from "./crud-helpers.ts";
import { textOf, useBrowserSuite } from "./harness.ts";
import { call, eventually, newOperator, openDropdown, signInOperator } from "./registry-helpers.ts";

const suite = useBrowserSuite();

/** The tenant's wall clock (Asia/Shanghai) a few minutes ago, as the reading calls take it. */
const minutesAgo = (minutes: number) =>
  new Date(Date.now() - minutes * 60_000)
    .toLocaleString("sv-SE", { timeZone: "Asia/Shanghai", hour12: false })
    .slice(0, 19);

test("a read entered by hand changes the day's usage on 电表日用量; voiding it with a reason brings it back", async () => {
  const { page } = suite.session;
  const { baseUrl } = suite.server;
  const operator = await newOperator(baseUrl, "抄表物业");
  const post = (path: string, body: unknown) =>
    call<{ id: string }>(baseUrl, operator.token, `/api/blade-pms/${path}`, { body });
  const park = (await post("area/save", { areaName: "抄表园区", areaType: 1 })).id;
  const room = (await post("room/save", { areaId: park, roomName: "101" })).id;
  const collector = (
    await post("collector/submit", {
      collectorName: "抄表DTU",
      collectorCode: `E2E-READ-${operator.tenantId}`,
    })
  ).id;
  const meter = (
    await post("meter/save", { productCode: "300000000701", collectorId: collector, channel: 1 })
  ).id;
  await post("roommeter/submit", { roomId: room, energyType: 1, meterId: meter });
  // The day opens with a read taken on site earlier today.
  await post("dataread/submit", { meterId: meter, readTime: minutesAgo(3), totalValue: "100" });

  await signInOperator(page, operator);
  const reads = await openResource(page, "/reading/dataread", "dataRead");
  // The screen also imports reads taken on site from a sheet (its rows are checked server-side).
  await page.getByTestId("manual-read-import").click();
  await page.getByTestId("manual-read-import-dialog").waitFor();
  await page.keyboard.press("Escape");
  await page.getByTestId("manual-read-import-dialog").waitFor({ state: "hidden" });
  await page.getByTestId("manual-read-add").click();
  // Meters are picked from the registry tree (areas, rooms, their meters), searched by number.
  await page.getByTestId("manual-read-form").locator("#meterId").click();
  await page.keyboard.type("300000000701");
  await openDropdown(page)
    .locator(".ant-select-tree-node-content-wrapper", { hasText: "300000000701" })
    .first()
    .click();
  // Lower than the earlier read: refused, the reason under the register.
  await page.getByTestId("manual-read-total").fill("90");
  await page.getByTestId("manual-read-ok").click();
  await page.locator(".ant-form-item-explain-error", { hasText: "低于" }).waitFor();
  await page.getByTestId("manual-read-total").fill("112.5");
  await page.getByTestId("manual-read-ok").click();
  await page.getByTestId("manual-read-form").waitFor({ state: "detached" });
  await settled(reads);
  await rowsWith(reads, "112.50").waitFor();

  const usage = async (expected: string) => {
    const daily = await openResource(page, "/reading/datadailydd", "dataDaily");
    await eventually(async () =>
      assert.match(await textOf(rowsWith(daily, "300000000701")), new RegExp(expected)),
    );
  };
  await usage("100\\.00.*112\\.50.*12\\.50");

  const again = await openResource(page, "/reading/dataread", "dataRead");
  const entered = rowsWith(again, "112.50");
  await entered.getByTestId("read-void").click();
  await page.getByTestId("void-read-ok").click();
  await page.locator(".ant-form-item-explain-error", { hasText: "作废原因不能为空" }).waitFor();
  await page.getByTestId("void-read-reason").fill("抄错了表");
  await page.getByTestId("void-read-ok").click();
  await entered.getByTestId("read-voided").waitFor();
  assert.equal(await entered.getByTestId("read-void").count(), 0, "a voided read is not voided twice");

  await usage("100\\.00.*100\\.00.*0\\.00");
  assert.deepEqual(suite.session.errors, []);
});

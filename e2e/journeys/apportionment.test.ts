import assert from "node:assert/strict";
import { test } from "node:test";
import { expectAccessible } from "../axe.ts";
import { toast } from "../crud-helpers.ts";
import { textOf, useBrowserSuite } from "../harness.ts";
import { call, eventually, newOperator, signInOperator } from "../registry-helpers.ts";

/**
 * A manager shares last month's corridor electricity of a building to its two rooms by floor area:
 * the corridor used 33.33 kWh, the rooms have 60 and 90 m², so they take 13.33 and 20.00 kWh (the
 * leftover hundredth to the larger remainder), 7.84 and 11.77 yuan at 0.5883. The manager books it,
 * sees the run booked, and reverses it with a reason.
 */

const suite = useBrowserSuite();

/** The month before the current one in Asia/Shanghai (the server's zone), yyyy-MM. */
function lastMonth(): string {
  const [y, m] = new Intl.DateTimeFormat("en-CA", {
    timeZone: "Asia/Shanghai",
    year: "numeric",
    month: "2-digit",
  })
    .format(new Date())
    .split("-")
    .map(Number);
  return new Date(Date.UTC(y!, m! - 2, 1)).toISOString().slice(0, 7);
}
/** Asia/Shanghai is UTC+8 all year. */
const SHANGHAI_MS = 8 * 3_600_000;
/** `ms` after (or before) a local midnight, as the server reads a time: yyyy-MM-dd HH:mm:ss. */
const localTime = (day: string, ms: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + ms).toISOString().slice(0, 19).replace("T", " ");
/**
 * How far from the local midnight `day` the reads around it go: an hour, or, while that hour is
 * not over, half of what has passed since the midnight (waiting for a few seconds to pass first).
 */
async function offsetAroundNow(day: string): Promise<number> {
  const midnightUtc = Date.parse(`${day}T00:00:00Z`) - SHANGHAI_MS;
  while (Date.now() - midnightUtc < 10_000) await new Promise((resolve) => setTimeout(resolve, 1_000));
  return Math.min(3_600_000, Math.floor((Date.now() - midnightUtc) / 2_000) * 1_000);
}
const monthAfter = (month: string) => {
  const [y, m] = month.split("-").map(Number);
  return new Date(Date.UTC(y!, m!, 1)).toISOString().slice(0, 7);
};

test("a manager previews a building's shared costs of last month, books them and reverses them", async () => {
  const { page } = suite.session;
  const base = suite.server.baseUrl;
  const operator = await newOperator(base, "公摊物业");
  const post = (path: string, body: unknown) =>
    call<{ id: string }>(base, operator.token, `/api/blade-pms/${path}`, { body });

  const area = (await post("area/save", { areaName: "公摊楼", areaType: 2 })).id;
  const owner = (await post("owner/submit", { ownerName: "李四", ownerCode: "G1", phone: "13800000002" })).id;
  const scheme = (
    await post("chargingscheme/submit", {
      schemeName: "居民电价",
      energyType: 1,
      priceMode: 1,
      price: "0.5883",
    })
  ).id;
  const meter = async (productCode: string) =>
    (await post("meter/save", { productCode, controlStatus: 1, chargingSchemeId: scheme })).id;
  const room1 = await meter("400000000101");
  const room2 = await meter("400000000102");
  const corridor = await meter("400000000900");
  for (const [name, floorArea, meterId] of [
    ["101", "60.00", room1],
    ["102", "90.00", room2],
  ] as const) {
    const roomId = (await post("room/save", { areaId: area, roomName: name, floorArea })).id;
    await post("roommeter/submit", { roomId, energyType: 1, meterId });
    await post("ownerroom/submit", { ownerId: owner, roomId });
  }
  const node = (
    await post("meteringnode/submit", { nodeTitle: "公摊楼", energyType: 1, nodeKind: 2, apportionRule: 1 })
  ).id;
  for (const [meterId, meterRole] of [
    [room1, 1],
    [room2, 1],
    [corridor, 2],
  ] as const)
    await post("meteringnodemeter/submit", { nodeId: node, energyType: 1, meterId, meterRole });
  // Reads either side of the month's bounds, symmetric so that interpolation lands on them: an
  // hour, or less in the first hour of a month (a read may not be later than now).
  const month = lastMonth();
  const offsetMs = await offsetAroundNow(`${monthAfter(month)}-01`);
  for (const [meterId, used] of [
    [room1, 100],
    [room2, 300],
    [corridor, 33.33],
  ] as const) {
    for (const [midnight, value] of [
      [`${month}-01`, 1000],
      [`${monthAfter(month)}-01`, 1000 + used],
    ] as const) {
      await post("dataread/submit", {
        meterId,
        readTime: localTime(midnight, -offsetMs),
        totalValue: (value - 0.5).toFixed(2),
      });
      await post("dataread/submit", {
        meterId,
        readTime: localTime(midnight, offsetMs),
        totalValue: (value + 0.5).toFixed(2),
      });
    }
  }
  for (const meterId of [room1, room2]) await post("message/openAccount", { meterId, deposit: "100" });

  await signInOperator(page, operator);
  await page.keyboard.press("Control+k");
  await page.keyboard.type("公摊分摊");
  await page.getByTestId("menu-search-label").filter({ hasText: "公摊分摊" }).first().waitFor();
  await page.keyboard.press("Enter");
  const screen = page.getByTestId("apportionment-page");
  await screen.waitFor();
  await screen.getByTestId("apportionment-node").click();
  await page.locator(".ant-select-dropdown:visible .ant-select-item-option", { hasText: "公摊楼" }).click();

  const rooms = screen.getByTestId("apportionment-rooms");
  const row = (name: string) => rooms.locator(".ant-table-row", { hasText: name }).first();
  await eventually(async () => {
    const text = await textOf(row("400000000101"));
    for (const part of ["101", "60.00", "100.00", "13.33", "7.84"])
      assert.ok(text.includes(part), `${part} in ${text}`);
  });
  const second = await textOf(row("400000000102"));
  for (const part of ["102", "90.00", "300.00", "20.00", "11.77"])
    assert.ok(second.includes(part), `${part} in ${second}`);
  const totals = await textOf(screen.getByTestId("apportionment-totals"));
  for (const part of ["33.33", "按面积", "19.61"]) assert.ok(totals.includes(part), `${part} in ${totals}`);
  await expectAccessible(page, "apportionment page");

  await screen.getByTestId("apportionment-book").click();
  await page.getByTestId("apportionment-book-ok").click();
  await toast(page, "已入账");
  const runs = screen.getByTestId("apportionment-runs");
  const run = runs.locator(".ant-table-row", { hasText: month }).first();
  await eventually(async () => {
    const text = await textOf(run);
    for (const part of ["已入账", "19.61", "33.33"]) assert.ok(text.includes(part), `${part} in ${text}`);
  });

  // antd spaces a two-character label ("冲 正"): the button is found by its test id.
  await run.locator('[data-testid^="apportionment-reverse-"]').click();
  await page.getByTestId("apportionment-reverse-reason").fill("面积录错");
  await page.getByTestId("apportionment-reverse-ok").click();
  await toast(page, "已冲正");
  await eventually(async () => {
    const text = await textOf(run);
    for (const part of ["已冲正", "面积录错"]) assert.ok(text.includes(part), `${part} in ${text}`);
  });
});

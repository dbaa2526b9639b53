import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import type { Locator, Page } from "playwright-core";
import { expectAccessible } from "../axe.ts";
import {
  clickRowAction,
  dialog,
  field,
  openResource,
  pick,
  pickTreeNode,
  rowsWith,
  settled,
  toast,
} from "../crud-helpers.ts";
import { repoRoot, textOf, useBrowserSuite } from "../harness.ts";
import { call, eventually, newOperator, signInOperator } from "../registry-helpers.ts";

/**
 * A site manager maps the metering of a building through the console: a transformer node with its
 * master meter, the building under it with its own master, two room meters and a corridor meter
 * counted under the building. The loss page then shows the loss of a day worked out from the reads
 * the meters sent (stored here through the API as the gateway would): 5 kWh of 40 in the building
 * (12.50 %), 2 of 42 at the transformer (4.76 %), and the building's chart for that day.
 */

const suite = useBrowserSuite();

const DAY_MS = 24 * 3600_000;
/** The server counts days in Asia/Shanghai (its default zone). */
const localDay = (at: number) =>
  new Intl.DateTimeFormat("en-CA", {
    timeZone: "Asia/Shanghai",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).format(new Date(at));

const save = async (page: Page) => {
  await dialog(page).getByTestId("crud-dialog-ok").click();
  await toast(page, "新增成功");
  await dialog(page).waitFor({ state: "detached" });
};

async function addLink(page: Page, screen: Locator, node: string, meter: string, role: string) {
  await screen.getByTestId("crud-add").click();
  await dialog(page).waitFor();
  await pickTreeNode(page, "nodeId", node);
  await pickTreeNode(page, "meterId", meter);
  await pick(page, "meterRole", role);
  await save(page);
  await settled(screen);
}

test("a manager maps a building's meters into nodes and reads the day's line loss of each", async () => {
  const { page } = suite.session;
  const base = suite.server.baseUrl;
  const operator = await newOperator(base, "线损物业");
  const post = (path: string, body: unknown) =>
    call<{ id: string }>(base, operator.token, `/api/blade-pms/${path}`, { body });

  // The registry as it stands: a building with two rooms and their meters, and two meters in no room.
  const area = (await post("area/save", { areaName: "线损楼", areaType: 2 })).id;
  const meters = {
    transformer: "300000000001",
    building: "300000000002",
    room1: "300000000101",
    room2: "300000000102",
    corridor: "300000000900",
  };
  const ids: Record<string, string> = {};
  for (const [name, code] of Object.entries(meters))
    ids[name] = (await post("meter/save", { productCode: code })).id;
  for (const [room, meter] of [
    ["101", ids.room1],
    ["102", ids.room2],
  ] as const) {
    const roomId = (await post("room/save", { areaId: area, roomName: room })).id;
    await post("roommeter/submit", { roomId, energyType: 1, meterId: meter });
  }
  // Reads an hour either side of the two midnights bounding the day before yesterday.
  const day = localDay(Date.now() - 2 * DAY_MS);
  const dayBefore = localDay(Date.parse(`${day}T12:00:00+08:00`) - DAY_MS);
  const dayAfter = localDay(Date.parse(`${day}T12:00:00+08:00`) + DAY_MS);
  const perDay: Record<string, number> = { transformer: 42, building: 40, room1: 10, room2: 20, corridor: 5 };
  for (const [name, rate] of Object.entries(perDay)) {
    for (const [readTime, value] of [
      [`${dayBefore} 23:00:00`, 999.5],
      [`${day} 01:00:00`, 1000.5],
      [`${day} 23:00:00`, 999.5 + rate],
      [`${dayAfter} 01:00:00`, 1000.5 + rate],
    ] as const) {
      await post("dataread/submit", { meterId: ids[name], readTime, totalValue: value.toFixed(2) });
    }
  }

  await signInOperator(page, operator);

  // The node tree: the transformer, and the building under it, each with its master meter.
  const nodes = await openResource(page, "/pms/meteringnode", "meteringNode");
  await nodes.getByTestId("crud-add").click();
  await dialog(page).waitFor();
  await field(page, "nodeTitle").fill("1号变压器");
  await pick(page, "nodeKind", "供电点/变压器");
  await pickTreeNode(page, "masterMeterId", meters.transformer);
  await save(page);
  await settled(nodes);
  await clickRowAction(rowsWith(nodes, "1号变压器").first(), "row-add-child");
  await dialog(page).waitFor();
  await field(page, "nodeTitle").fill("线损楼");
  await pickTreeNode(page, "masterMeterId", meters.building);
  await save(page);
  await settled(nodes);

  // What the building's master feeds: two room meters and the corridor's common-area meter.
  const links = await openResource(page, "/pms/meteringnodemeter", "meteringNodeMeter");
  await addLink(page, links, "线损楼", meters.room1, "分户表");
  await addLink(page, links, "线损楼", meters.room2, "分户表");
  await addLink(page, links, "线损楼", meters.corridor, "公区表");
  assert.match(await textOf(rowsWith(links, meters.corridor).first()), /公区表/);
  // A master meter cannot be counted under a node as well: the form says why.
  await links.getByTestId("crud-add").click();
  await dialog(page).waitFor();
  await pickTreeNode(page, "nodeId", "线损楼");
  await pickTreeNode(page, "meterId", meters.building);
  await dialog(page).getByTestId("crud-dialog-ok").click();
  await dialog(page).locator(".ant-form-item-explain-error", { hasText: "的总表,不能再作下级表" }).waitFor();
  await page.keyboard.press("Escape");
  await dialog(page).waitFor({ state: "detached" });

  // The loss page, found from the menu search, on that day.
  await page.keyboard.press("Control+k");
  await page.keyboard.type("线损分析");
  await page.getByTestId("menu-search-label").filter({ hasText: "线损分析" }).first().waitFor();
  await page.keyboard.press("Enter");
  const screen = page.getByTestId("line-loss-page");
  await screen.waitFor();
  const date = screen.locator(".ant-picker input");
  await date.click();
  await date.fill(day);
  await date.press("Enter");
  const table = screen.getByTestId("line-loss-table");
  const row = (name: string) => table.locator(".ant-table-row", { hasText: name }).first();
  await eventually(async () => {
    const text = await textOf(row("线损楼"));
    for (const part of [meters.building, "40.00", "35.00", "5.00", "12.50", "正常"])
      assert.ok(text.includes(part), `${part} in ${text}`);
  });
  const top = await textOf(row("1号变压器"));
  for (const part of [meters.transformer, "42.00", "40.00", "2.00", "4.76"])
    assert.ok(top.includes(part), `${part} in ${top}`);
  await expectAccessible(page, "line loss page");

  // The building's series ends on that day at 12.50 %.
  await row("线损楼").click();
  const chart = screen.getByTestId("line-loss-chart");
  await eventually(async () => {
    const series = JSON.parse((await chart.getAttribute("data-series")) ?? "{}") as Record<string, string[]>;
    assert.equal(series["损耗率(%)"]?.at(-1), "12.50");
    assert.equal(series["损耗率(%)"]?.length, 60);
  });
  // The page with the building's chart, kept for a look when a run fails (once the chart has drawn).
  await page.waitForTimeout(1500);
  await mkdir(path.join(repoRoot, "e2e", "artifacts"), { recursive: true });
  await page.screenshot({ path: path.join(repoRoot, "e2e", "artifacts", "line-loss.png"), fullPage: true });
});

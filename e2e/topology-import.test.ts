import assert from "node:assert/strict";
import { test } from "node:test";
import ExcelJS from "exceljs";
import type { Page } from "playwright-core";
import { expectAccessible } from "./axe.ts";
import { openResource } from "./crud-helpers.ts";
import { textOf, useBrowserSuite } from "./harness.ts";
import { newOperator, signInOperator } from "./registry-helpers.ts";
import { downloadOf, sheetRows } from "./workbook-helpers.ts";

const suite = useBrowserSuite();

const importDialog = (page: Page) => page.getByTestId("room-import-dialog");
const count = (page: Page, key: string) => textOf(page.getByTestId(`room-import-${key}`));

/** A workbook of named sheets, as an operator fills the template's three pages. */
async function workbookOf(sheets: Record<string, readonly (readonly string[])[]>): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  for (const [name, rows] of Object.entries(sheets)) {
    const sheet = book.addWorksheet(name);
    for (const row of rows) sheet.addRow([...row]);
  }
  return Buffer.from(await book.xlsx.writeBuffer());
}

test("a site's rooms and metering topology import from one workbook, and the tree shows each meter under its node", async () => {
  const { page } = suite.session;
  const operator = await newOperator(suite.server.baseUrl, "拓扑导入物业");
  await signInOperator(page, operator);
  const rooms = await openResource(page, "/pms/room", "room");
  await rooms.getByTestId("room-import").click();
  await importDialog(page).waitFor();

  // The template's first page is the rooms as before; the topology pages follow it.
  const template = await downloadOf(page, () => page.getByTestId("room-import-template").click());
  const [header = []] = await sheetRows(template);
  const book = new ExcelJS.Workbook();
  const chunks: Buffer[] = [];
  for await (const chunk of await template.createReadStream()) chunks.push(Buffer.from(chunk as Buffer));
  await book.xlsx.load(Buffer.concat(chunks) as unknown as ArrayBuffer);
  const headerOf = (name: string) => {
    const sheet = book.getWorksheet(name);
    assert.ok(sheet, `the template has a ${name} sheet`);
    return (sheet.getRow(1).values as unknown[]).slice(1).map(String);
  };
  const nodeHeader = headerOf("计量节点");
  const linkHeader = headerOf("节点下级表");
  const rowOf = (columns: string[], cells: Record<string, string>) => columns.map((c) => cells[c] ?? "");

  const file = await workbookOf({
    房间档案: [
      header,
      rowOf(header, { 区域路径: "拓扑园区/1号楼", 房间名称: "101", 电表表号: "710000000101" }),
      rowOf(header, { 区域路径: "拓扑园区/1号楼", 房间名称: "102", 电表表号: "710000000102" }),
      rowOf(header, { 区域路径: "拓扑园区/1号楼", 房间名称: "配电间", 电表表号: "710000000900" }),
      rowOf(header, { 区域路径: "拓扑园区/1号楼", 房间名称: "走廊", 电表表号: "710000000990" }),
    ],
    计量节点: [
      nodeHeader,
      rowOf(nodeHeader, { 节点名称: "1号楼", 上级节点: "1号变压器" }),
      rowOf(nodeHeader, {
        节点名称: "1号变压器",
        能源类型: "电",
        节点类型: "供电点/变压器",
        总表表号: "710000000900",
      }),
      rowOf(nodeHeader, { 节点名称: "东区", 上级节点: "西区" }),
      rowOf(nodeHeader, { 节点名称: "西区", 上级节点: "东区" }),
    ],
    节点下级表: [
      linkHeader,
      rowOf(linkHeader, { 计量节点: "1号楼", 表号: "710000000101" }),
      rowOf(linkHeader, { 计量节点: "1号楼", 表号: "710000000102", 表计角色: "分户表" }),
      rowOf(linkHeader, { 计量节点: "1号楼", 表号: "710000000990", 表计角色: "公区表" }),
    ],
  });
  await importDialog(page).locator('input[type="file"]').setInputFiles({
    name: "site.xlsx",
    mimeType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    buffer: file,
  });
  await importDialog(page).getByText("site.xlsx").waitFor();

  // The preview counts the topology rows and names the sheet and the cycle of the two refused ones.
  await page.getByTestId("room-import-preview").click();
  await page.getByTestId("room-import-preview-result").waitFor();
  assert.equal(await count(page, "preview-total"), "11");
  assert.equal(await count(page, "preview-valid"), "9");
  assert.equal(await count(page, "creates-nodes"), "2");
  assert.equal(await count(page, "creates-nodeMeters"), "3");
  const problems = await page.getByTestId("room-import-problems").locator(".ant-table-row").allInnerTexts();
  assert.equal(problems.length, 2);
  assert.match(problems[0] ?? "", /^4\s+计量节点\s+上级节点: 节点之间循环引用: 东区 → 西区 → 东区$/);
  await expectAccessible(page, "registry import preview with topology problems");

  await page.getByTestId("room-import-submit").click();
  await page.getByTestId("room-import-result").waitFor();
  assert.equal(await count(page, "imported"), "9");
  assert.equal(await count(page, "rejected"), "2");
  await page.getByTestId("room-import-close").click();

  // The tree: the building under the transformer, its meters under it with their rooms.
  await page.goto("/pms/topology");
  const view = page.getByTestId("metering-topology-page");
  await view.waitFor();
  await view.getByTestId("topology-table").waitFor();
  await view.locator(".ant-spin-spinning").waitFor({ state: "detached" });
  await expectAccessible(page, "screen /pms/topology");
  assert.equal(await textOf(view.getByTestId("topology-counts-1号楼")), "分户表 2 · 公区表 1 · 下级节点 0");
  assert.equal(await textOf(view.getByTestId("topology-master-710000000900")), "710000000900");

  // Finding a meter keeps it and the nodes above it, and nothing else.
  await view.getByTestId("topology-search").locator("input").fill("710000000102");
  await view.getByTestId("topology-summary").getByText("找到 1 项").waitFor();
  const rows = view.locator(".ant-table-tbody .ant-table-row");
  const texts = await rows.allInnerTexts();
  assert.equal(texts.length, 3, texts.join("\n"));
  assert.match(texts[0] ?? "", /^1号变压器/);
  assert.match(texts[1] ?? "", /^1号楼/);
  assert.match(texts[2] ?? "", /^710000000102\s+分户表\s+1号楼 102/);
  assert.ok(
    (await rows.nth(2).getAttribute("class"))?.includes("ant-table-row-level-2"),
    "the meter sits under 1号楼",
  );

  // The whole address shows and opens the meter's detail; the node links to its line loss.
  const meter = view.getByTestId("topology-meter-710000000102");
  assert.equal(
    await meter.evaluate((el) => el.scrollWidth <= el.clientWidth + 1),
    true,
    "the address is not cut",
  );
  await meter.click();
  await page.waitForURL(/\/pms\/meter\/detail\/\d+$/);
  await page.goto("/pms/topology");
  await page.getByTestId("topology-loss-1号楼").click();
  await page.waitForURL(/\/operation\/lineloss\?energyType=1&node=\d+$/);
  await page.getByTestId("line-loss-page").waitFor();
});

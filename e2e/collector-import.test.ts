import assert from "node:assert/strict";
import { test } from "node:test";
import ExcelJS from "exceljs";
import type { Page } from "playwright-core";
import { openResource } from "./crud-helpers.ts";
import { textOf, useBrowserSuite } from "./harness.ts";
import { call, newOperator, signInOperator } from "./registry-helpers.ts";
import { downloadOf, sheetRows } from "./workbook-helpers.ts";

const suite = useBrowserSuite();

const importDialog = (page: Page) => page.getByTestId("room-import-dialog");
const count = (page: Page, key: string) => textOf(page.getByTestId(`room-import-${key}`));

/** A workbook of named sheets, as an operator fills the template's pages. */
async function workbook(sheets: Record<string, readonly (readonly string[])[]>): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  for (const [name, rows] of Object.entries(sheets)) {
    const sheet = book.addWorksheet(name);
    for (const row of rows) sheet.addRow([...row]);
  }
  return Buffer.from(await book.xlsx.writeBuffer());
}

const COLLECTOR_HEADER = ["采集器注册码", "采集器名称", "采集器类型", "终端地址", "接入密钥"];

async function choose(page: Page, name: string, buffer: Buffer) {
  await importDialog(page).locator('input[type="file"]').setInputFiles({
    name,
    mimeType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    buffer,
  });
  await importDialog(page).getByText(name).waitFor();
}

test("a concentrator and its DL/T 698.45 meters come in from the template's 采集器 sheet and 电表规约 column", async () => {
  const { page } = suite.session;
  const operator = await newOperator(suite.server.baseUrl, "集中器公司");
  await signInOperator(page, operator);
  const rooms = await openResource(page, "/pms/room", "room");
  await rooms.getByTestId("room-import").click();
  await importDialog(page).waitFor();

  const template = await downloadOf(page, () => page.getByTestId("room-import-template").click());
  const [header = []] = await sheetRows(template);
  assert.ok(header.includes("电表规约"));
  const rowOf = (cells: Record<string, string>) => header.map((name) => cells[name] ?? "");
  const file = await workbook({
    房间档案: [
      header,
      rowOf({
        区域路径: "集中器园区/A栋",
        房间名称: "101",
        电表表号: "800000000101",
        采集器注册码: "34010203",
        通道号: "31",
        电表规约: "DL/T 698.45",
      }),
      rowOf({
        区域路径: "集中器园区/A栋",
        房间名称: "102",
        电表表号: "800000000102",
        采集器注册码: "34010203",
      }),
    ],
    采集器: [
      COLLECTOR_HEADER,
      ["", "A栋 集中器", "集中器", "3401-0203", "0123456789ABCDEF0123456789ABCDEF"],
      ["", "B栋 集中器", "集中器", "3401-0204", ""],
    ],
  });
  await choose(page, "site.xlsx", file);

  // The preview counts the collector it makes and names the sheet of the row it refuses.
  await page.getByTestId("room-import-preview").click();
  await page.getByTestId("room-import-preview-result").waitFor();
  assert.equal(await count(page, "preview-valid"), "3");
  assert.equal(await count(page, "preview-rejected"), "1");
  assert.equal(await count(page, "creates-collectors"), "1");
  const problem = await textOf(page.getByTestId("room-import-problems").locator(".ant-table-row"));
  assert.match(problem, /^3/);
  assert.match(problem, /采集器/);
  assert.match(problem, /接入密钥: 集中器须填写登录密码/);

  await page.getByTestId("room-import-submit").click();
  await page.getByTestId("room-import-result").waitFor();
  assert.equal(await count(page, "imported"), "3");
  assert.equal(await count(page, "creates-collectors"), "1");

  const meters = await call<{ records: { productCode: string; protocol: string; collectorName: string }[] }>(
    suite.server.baseUrl,
    operator.token,
    "/api/blade-pms/meter/page",
    { query: { size: "10" } },
  );
  assert.deepEqual(
    meters.records
      .map((m) => [m.productCode, m.protocol, m.collectorName])
      .sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    [
      ["800000000101", "dlt698_45", "A栋 集中器"],
      ["800000000102", "dlt645_2007", "A栋 集中器"],
    ],
  );

  // The same file again: the concentrator is there already and is said to be left as it was.
  await page.getByTestId("room-import-close").click();
  await rooms.getByTestId("room-import").click();
  await importDialog(page).waitFor();
  await choose(page, "again.xlsx", file);
  await page.getByTestId("room-import-preview").click();
  await page.getByTestId("room-import-preview-result").waitFor();
  assert.match(await textOf(page.getByTestId("room-import-existing-collectors")), /34010203/);
  assert.equal(await count(page, "creates-collectors"), "0");
});

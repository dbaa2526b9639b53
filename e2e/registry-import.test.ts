import assert from "node:assert/strict";
import { test } from "node:test";
import type { Locator, Page } from "playwright-core";
import { openResource, settled, toast } from "./crud-helpers.ts";
import { textOf, useBrowserSuite } from "./harness.ts";
import { call, chooseArea, eventually, newOperator, signInOperator } from "./registry-helpers.ts";
import { downloadOf, sheetRows, workbookOf } from "./workbook-helpers.ts";

const suite = useBrowserSuite();

const importDialog = (page: Page) => page.getByTestId("room-import-dialog");
const count = (page: Page, key: string) => textOf(page.getByTestId(`room-import-${key}`));
const chooseFile = (page: Page, name: string, buffer: Buffer) =>
  importDialog(page).locator('input[type="file"]').setInputFiles({
    name,
    mimeType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    buffer,
  });
const roomNames = async (screen: Locator) =>
  (await screen.locator(".ant-table-row").allInnerTexts())
    .map((r) => r.match(/\b(\d{3})\b/)?.[1] ?? r)
    .sort();

test("the registry is imported from a sheet: preview with problems, import with progress, rejected rows to download", async () => {
  const { page } = suite.session;
  const operator = await newOperator(suite.server.baseUrl, "导入公司");
  await signInOperator(page, operator);
  const rooms = await openResource(page, "/pms/room", "room");
  await rooms.getByTestId("room-import").click();
  await importDialog(page).waitFor();

  // The template is the sheet to fill: its header names the columns.
  const template = await downloadOf(page, () => page.getByTestId("room-import-template").click());
  assert.match(template.suggestedFilename(), /\.xlsx$/);
  const [header = []] = await sheetRows(template);
  for (const column of ["区域路径", "房间名称", "业主姓名", "电表表号", "水表表号"])
    assert.ok(header.includes(column), column);
  const rowOf = (cells: Record<string, string>) => header.map((name) => cells[name] ?? "");
  const sheet = await workbookOf([
    header,
    rowOf({
      区域路径: "导入园区/A栋",
      房间名称: "101",
      业主姓名: "王一",
      手机号码: "13800000101",
      电表表号: "500000000101",
    }),
    rowOf({
      区域路径: "导入园区/A栋",
      房间名称: "102",
      业主姓名: "王二",
      电表表号: "500000000102",
      水表表号: "50000000000102",
    }),
    rowOf({ 区域路径: "导入园区/B栋", 房间名称: "201" }),
    rowOf({ 区域路径: "导入园区/A栋", 房间名称: "103", 电表表号: "12345" }),
  ]);

  // Nothing to send yet; a wrong kind of file never leaves the console.
  assert.equal(await page.getByTestId("room-import-preview").isDisabled(), true);
  await chooseFile(page, "rooms.csv", Buffer.from("区域路径\nx"));
  await toast(page, "只能导入 .xlsx 格式的 Excel 文件");
  await chooseFile(page, "rooms.xlsx", sheet);
  await importDialog(page).getByText("rooms.xlsx").waitFor();
  assert.equal(await page.getByTestId("room-import-submit").isDisabled(), true, "import waits for a preview");

  // The preview writes nothing and says what would happen and why the bad row fails.
  await page.getByTestId("room-import-preview").click();
  await page.getByTestId("room-import-preview-result").waitFor();
  assert.equal(await count(page, "preview-total"), "4");
  assert.equal(await count(page, "preview-valid"), "3");
  assert.equal(await count(page, "preview-rejected"), "1");
  assert.equal(await count(page, "creates-areas"), "3");
  assert.equal(await count(page, "creates-rooms"), "3");
  assert.equal(await count(page, "creates-meters"), "2");
  assert.equal(await count(page, "creates-waters"), "1");
  const problem = await textOf(page.getByTestId("room-import-problems").locator(".ant-table-row"));
  assert.match(problem, /^5/, "the sheet's row number (the header is row 1)");
  assert.match(problem, /电表表号/);
  const before = await call<{ total: number }>(
    suite.server.baseUrl,
    operator.token,
    "/api/blade-pms/room/page",
  );
  assert.equal(before.total, 0, "a preview writes nothing");

  await page.getByTestId("room-import-submit").click();
  await page.getByTestId("room-import-result").waitFor();
  assert.equal(await count(page, "imported"), "3");
  assert.equal(await count(page, "rejected"), "1");

  // The rejected rows download as a sheet: the bad row as sent, with its reason.
  const refused = await downloadOf(page, () => page.getByTestId("room-import-rejected-file").click());
  const [refusedHeader = [], ...refusedRows] = await sheetRows(refused);
  assert.ok(refusedHeader.includes("失败原因"), refusedHeader.join(","));
  assert.equal(refusedRows.length, 1);
  const [refusedRow = []] = refusedRows;
  assert.equal(refusedRow[header.indexOf("房间名称")], "103");
  assert.match(refusedRow[refusedHeader.indexOf("失败原因")] ?? "", /电表表号/);

  // The table and the area tree reloaded by themselves.
  await page.getByTestId("room-import-close").click();
  await eventually(async () => assert.deepEqual(await roomNames(rooms), ["101", "102", "201"]));
  await chooseArea(page, "A栋");
  await eventually(async () => assert.deepEqual(await roomNames(rooms), ["101", "102"]));
  await settled(rooms);

  // The links came with them: the room meter screen lists 101's meter with its owner.
  const roomMeters = await openResource(page, "/pms/roommeter", "roomMeter");
  const installed = roomMeters.locator(".ant-table-row", { hasText: "500000000101" });
  assert.match(await textOf(installed), /王一/);
});

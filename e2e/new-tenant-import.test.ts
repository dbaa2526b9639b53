import assert from "node:assert/strict";
import { test } from "node:test";
import type { Page } from "playwright-core";
import { openResource } from "./crud-helpers.ts";
import { textOf, useBrowserSuite } from "./harness.ts";
import { call, newOperator, signInOperator } from "./registry-helpers.ts";
import { downloadOf, sheetRows, workbookOf } from "./workbook-helpers.ts";

const suite = useBrowserSuite();

const importDialog = (page: Page) => page.getByTestId("room-import-dialog");
const count = (page: Page, key: string) => textOf(page.getByTestId(`room-import-${key}`));

test("a new site's sheet brings each meter's control mode and initial reading", async () => {
  const { page } = suite.session;
  const operator = await newOperator(suite.server.baseUrl, "新站点公司");
  await signInOperator(page, operator);
  const rooms = await openResource(page, "/pms/room", "room");
  await rooms.getByTestId("room-import").click();
  await importDialog(page).waitFor();

  // The template carries the new columns, and its example row shows how to fill them.
  const template = await downloadOf(page, () => page.getByTestId("room-import-template").click());
  const [header = [], example = []] = await sheetRows(template);
  for (const column of ["电表控制方式", "电表初始读数", "水表初始读数"])
    assert.ok(header.includes(column), column);
  assert.equal(example[header.indexOf("电表控制方式")], "远程控制");

  const rowOf = (cells: Record<string, string>) => header.map((name) => cells[name] ?? "");
  const sheet = await workbookOf([
    header,
    rowOf({
      区域路径: "新园区/A栋",
      房间名称: "101",
      电表表号: "600000000101",
      电表控制方式: "本地预付费",
      电表初始读数: "321.5",
    }),
    rowOf({ 区域路径: "新园区/A栋", 房间名称: "102", 电表表号: "600000000102" }),
    rowOf({ 区域路径: "新园区/A栋", 房间名称: "103", 电表表号: "600000000103", 电表控制方式: "遥控" }),
  ]);
  await importDialog(page).locator('input[type="file"]').setInputFiles({
    name: "site.xlsx",
    mimeType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    buffer: sheet,
  });
  await importDialog(page).getByText("site.xlsx").waitFor();

  // The preview names the bad control mode by its column and lists the accepted values.
  await page.getByTestId("room-import-preview").click();
  await page.getByTestId("room-import-preview-result").waitFor();
  assert.equal(await count(page, "preview-valid"), "2");
  assert.equal(await count(page, "preview-rejected"), "1");
  const problem = await textOf(page.getByTestId("room-import-problems").locator(".ant-table-row"));
  assert.match(problem, /^4/);
  assert.match(problem, /电表控制方式: \[遥控\] 不存在, 可选 远程控制、本地预付费/);

  await page.getByTestId("room-import-submit").click();
  await page.getByTestId("room-import-result").waitFor();
  assert.equal(await count(page, "imported"), "2");
  assert.equal(await count(page, "rejected"), "1");

  // What was stored: 101 local prepaid from 321.5, 102 remote (the blank cell) with no initial reading.
  const meters = await call<{ records: { id: string; productCode: string; controlStatus: number }[] }>(
    suite.server.baseUrl,
    operator.token,
    "/api/blade-pms/meter/page",
    { query: { size: "10" } },
  );
  const byCode = new Map(meters.records.map((m) => [m.productCode, m]));
  assert.equal(byCode.get("600000000101")?.controlStatus, 0);
  assert.equal(byCode.get("600000000102")?.controlStatus, 1);
  const initial = await call<{ records: { meterId: string; totalValue: string }[] }>(
    suite.server.baseUrl,
    operator.token,
    "/api/blade-pms/meterorigvalue/list",
  );
  assert.deepEqual(
    initial.records.map((v) => [v.meterId, Number(v.totalValue)]),
    [[byCode.get("600000000101")?.id, 321.5]],
  );
});

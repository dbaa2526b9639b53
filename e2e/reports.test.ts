import assert from "node:assert/strict";
import { test } from "node:test";
import type { Locator, Page } from "playwright-core";
import { expectAccessible } from "./axe.ts";
import { useBrowserSuite } from "./harness.ts";
import { call, chooseOption, openDropdown, signInOperator, tokenOf } from "./registry-helpers.ts";
import { downloadOf, sheetRows } from "./workbook-helpers.ts";

// The demo site: a tenant with 60 days of usage and recharges behind it.
const suite = useBrowserSuite({ env: { DEMO_DATA: "1" } });
const demo = { tenantId: "100001", password: "admin", token: "" };

/** Picks one option of a multiple select, which stays open after a pick, and closes it. */
async function pickOne(page: Page, select: Locator, text: string): Promise<void> {
  await select.click();
  await openDropdown(page).locator(".ant-select-item-option", { hasText: text }).first().click();
  await page.keyboard.press("Escape");
  await openDropdown(page).waitFor({ state: "detached" });
}

interface Run {
  columns: { key: string; zh: string }[];
  rows: Record<string, string | null>[];
}

test("a report is designed, run as chart and table, and exported as Excel and PDF", async () => {
  const { page } = suite.session;
  await signInOperator(page, demo);
  await page.goto("/report/reportlist");
  const screen = page.getByTestId("reports");
  await screen.getByTestId("report-list").getByText("欠费清单").waitFor();

  await screen.getByTestId("report-create").click();
  const designer = page.getByTestId("report-designer");
  await designer.locator("#report-name").fill("各支付方式充值");
  await chooseOption(page, designer.getByTestId("report-dataset"), "充值记录", false);
  await pickOne(page, designer.getByTestId("report-group"), "支付方式");
  await pickOne(page, designer.getByTestId("report-measures"), "净额(元) · 合计");
  await chooseOption(page, designer.getByTestId("report-filter-recharge_type"), "充值类型: 充值", false);
  await designer.getByTestId("report-chart-type").getByText("柱状图").click();
  await expectAccessible(page, "report designer");
  await page.getByTestId("report-save").click();

  const output = page.getByTestId("report-output");
  await output.getByText("运行结果:各支付方式充值").waitFor();
  const chart = output.getByTestId("report-chart");
  await chart.waitFor();
  await expectAccessible(page, "report run");

  // What the screen shows is what the server computes for the saved definition.
  const token = await tokenOf(suite.server.baseUrl, demo.tenantId, "admin", demo.password);
  const list = await call<{ records: { id: string; name: string }[] }>(
    suite.server.baseUrl,
    token,
    "/api/blade-report/report/rest/list",
    { query: { name: "各支付方式充值" } },
  );
  const id = list.records.find((r) => r.name === "各支付方式充值")!.id;
  const run = await call<Run>(suite.server.baseUrl, token, "/api/blade-report/report/rest/run", {
    body: { id },
  });
  assert.ok(run.rows.length >= 2, "the demo takes money by several methods");
  const drawn = JSON.parse((await chart.getAttribute("data-series")) ?? "{}");
  assert.equal(drawn.kind, "bar");
  assert.deepEqual(
    drawn.categories,
    run.rows.map((r) => r.g0),
  );
  assert.deepEqual(
    drawn.series[0].values,
    run.rows.map((r) => r.m0),
  );
  const cells = await output
    .getByTestId("report-table")
    .locator(".ant-table-tbody tr.ant-table-row")
    .evaluateAll((rows) =>
      rows.map((row) => Array.from(row.querySelectorAll("td"), (td) => td.textContent ?? "")),
    );
  assert.deepEqual(
    cells,
    run.rows.map((r) => [r.g0, r.m0]),
  );

  const excel = await downloadOf(page, () => output.getByTestId("report-export-xlsx").click());
  assert.match(excel.suggestedFilename(), /^各支付方式充值-.*\.xlsx$/);
  const sheet = await sheetRows(excel);
  assert.deepEqual(sheet[0], ["支付方式", "净额(元)合计"]);
  assert.deepEqual(
    sheet.slice(1).map(([method, amount]) => [method, Number(amount)]),
    run.rows.map((r) => [r.g0, Number(r.m0)]),
  );

  const pdf = await downloadOf(page, () => output.getByTestId("report-export-pdf").click());
  assert.match(pdf.suggestedFilename(), /\.pdf$/);
  const chunks: Buffer[] = [];
  for await (const chunk of await pdf.createReadStream()) chunks.push(Buffer.from(chunk as Buffer));
  const bytes = Buffer.concat(chunks);
  assert.equal(bytes.subarray(0, 5).toString("latin1"), "%PDF-");
  assert.match(bytes.toString("latin1"), /\/Type \/Page\b/);

  // A shipped report runs too; it cannot be removed from the screen.
  const shipped = screen.getByTestId("report-list").locator("tr", { hasText: "各楼栋月用电量" });
  assert.equal(await shipped.getByTestId("report-remove").count(), 0);
  await shipped.getByTestId("report-run").click();
  await output.getByText("运行结果:各楼栋月用电量").waitFor();
  await output.getByTestId("report-table").locator(".ant-table-tbody tr.ant-table-row").first().waitFor();
  assert.deepEqual(suite.session.errors, []);
});

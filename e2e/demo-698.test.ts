import assert from "node:assert/strict";
import { test } from "node:test";
import { expectAccessible } from "./axe.ts";
import { textOf, useBrowserSuite } from "./harness.ts";
import { call, eventually, signInOperator, tokenOf } from "./registry-helpers.ts";

// The demo site with its simulated fleet polled every 10 s: 5号楼(698) hangs on a concentrator.
const suite = useBrowserSuite({ env: { DEMO_DATA: "1", POLL_INTERVAL_SECONDS: "10" } });
const demo = { tenantId: "100001", password: "admin" };
/** The first 698.45 meter of the demo (DEMO_698_FLEET, serials from 900) and its concentrator. */
const ADDRESS = "201000000900";
const CONCENTRATOR = "34010001";

test("a 698.45 meter behind the demo's concentrator shows live readings and its balance, is cut, and its concentrator's page shows the meter file", async () => {
  const { page } = suite.session;
  const { baseUrl } = suite.server;
  const token = await tokenOf(baseUrl, demo.tenantId, "admin", demo.password);
  const meters = await call<{ records: { id: string; productCode: string; protocol: string }[] }>(
    baseUrl,
    token,
    "/api/blade-pms/meter/page",
    { query: { productCode: ADDRESS, size: "10" } },
  );
  const meter = meters.records.find((m) => m.productCode === ADDRESS);
  assert.ok(meter, "the 698 meter is in the registry");
  assert.equal(meter.protocol, "dlt698_45");
  // A live read through the concentrator: newer than the last one the demo's seeded past holds.
  const latestRead = async () =>
    (
      await call<{ records: { productCode: string; readTime: string }[] }>(
        baseUrl,
        token,
        "/api/blade-pms/dataread/page",
        { query: { productCode: ADDRESS, size: "1" } },
      )
    ).records.find((r) => r.productCode === ADDRESS)?.readTime;
  const seeded = await latestRead();
  await eventually(async () => {
    const latest = await latestRead();
    assert.ok(latest && latest !== seeded, `live read after ${seeded}: ${latest}`);
  }, 120_000);

  await signInOperator(page, { ...demo, token });
  await page.goto(`/pms/meter/detail/${meter.id}`);
  const detail = page.getByTestId("meter-detail");
  await detail.waitFor();
  await eventually(async () => {
    assert.match(await textOf(detail.getByTestId("detail-live-reading")), /^\d+\.\d{2} kWh$/);
    assert.match(await textOf(detail.getByTestId("detail-balance")), /^-?\d+\.\d{2}$/);
    assert.equal(await textOf(detail.getByTestId("detail-online")), "在线");
  }, 30_000);

  // Cut from the meter's page: the gateway forwards the relay command through the concentrator.
  await detail.getByTestId("detail-switch").first().click();
  const dialog = page.getByTestId("switch-dialog");
  await dialog.waitFor();
  await page.getByTestId("switch-choice-2").click();
  await page.getByTestId("switch-ok").click();
  await eventually(async () => {
    const commands = await call<{ records: { productCode: string; stateName: string }[] }>(
      baseUrl,
      token,
      "/api/blade-pms/metercommand/list",
      { query: { commandType: "switch" } },
    );
    assert.ok(
      commands.records.some((c) => c.productCode === ADDRESS && c.stateName === "成功"),
      JSON.stringify(commands.records.filter((c) => c.productCode === ADDRESS)),
    );
  }, 90_000);
  // One meter's cut runs as a job like any batch: it settles with the relay open, confirmed.
  const job = page.getByTestId("job-dialog");
  await eventually(
    async () => assert.match(await textOf(job.getByTestId("job-count-success")), /成功\s*1/),
    30_000,
  );
  await eventually(async () => assert.match(await textOf(page.getByTestId("job-dialog-close")), /关\s*闭/));
  await page.getByTestId("job-dialog-close").click();
  // The page learns the supply from the server (live changes) and shows it cut.
  await eventually(
    async () => assert.equal(await textOf(detail.getByTestId("detail-supply")), "拉闸"),
    30_000,
  );

  // The concentrator's page, from the meter's: online, its meter file, which meters answer.
  await detail.getByTestId("detail-collector-link").click();
  await page.waitForURL(/\/pms\/collector\/detail\/\d+$/);
  const collector = page.getByTestId("collector-detail");
  await collector.waitFor();
  assert.match(await textOf(collector), new RegExp(CONCENTRATOR));
  assert.equal(await textOf(collector.getByTestId("collector-online")), "在线");
  const file = collector.getByTestId("collector-file");
  await file.waitFor();
  const rows = file.locator(".ant-table-row");
  assert.equal(await rows.count(), 10, "the ten meters of 5号楼(698) are on file");
  const row = rows.filter({ hasText: ADDRESS });
  assert.match(await textOf(row), /DL\/T 698\.45/);
  const cells = (await row.locator("td").allInnerTexts()).map((cell) => cell.trim());
  assert.ok(cells.includes("31"), `on the carrier port: ${cells.join(" | ")}`);
  await eventually(async () => {
    await collector.getByTestId("detail-refresh").click();
    assert.equal(await textOf(row.getByTestId("collector-file-answered")), "已应答");
  }, 30_000);
  await expectAccessible(page, "concentrator page");
});

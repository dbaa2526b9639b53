import assert from "node:assert/strict";
import { test } from "node:test";
import { demoConditions } from "../apps/server/src/demo/demo-site.ts";
import { useBrowserSuite } from "./harness.ts";
import { call, eventually, signInOperator, tokenOf } from "./registry-helpers.ts";

const suite = useBrowserSuite({ env: { DEMO_DATA: "1", POLL_INTERVAL_SECONDS: "10" } });
const demo = { tenantId: "100001", password: "admin" };

test("the demo's faulty meters ring the bell on the first start and show on 告警记录 under their rule's name", async () => {
  const { page } = suite.session;
  const { baseUrl } = suite.server;
  const token = await tokenOf(baseUrl, demo.tenantId, "admin", demo.password);
  const [battery] = Object.entries(demoConditions()).find(([, condition]) => condition.batteryLow) ?? [];
  assert.ok(battery, "the demo has a meter with a low battery");
  await eventually(async () => {
    const bell = await call<{ records: { productCode: string; ruleCode: string }[] }>(
      baseUrl,
      token,
      "/api/blade-pms/checkRecord/upPage",
      { query: { size: "200" } },
    );
    const rules = new Set(bell.records.map((r) => r.ruleCode));
    for (const rule of ["battery_low", "reverse_energy", "clock_drift", "over_power", "valve_fault"])
      assert.ok(rules.has(rule), `the bell has a ${rule} alarm`);
  }, 90_000);

  await signInOperator(page, { ...demo, token });
  await page.goto("/operation/checkrecord");
  const screen = page.getByTestId("check-records");
  await screen.getByTestId("alarm-filter-meter").fill(battery);
  await screen.getByTestId("alarm-search").click();
  await eventually(async () => {
    const texts = await screen.locator(".ant-table-row").allInnerTexts();
    assert.ok(
      texts.some((text) => text.includes(battery) && text.includes("电池欠压")),
      texts.join("\n"),
    );
  });
  assert.deepEqual(suite.session.errors, []);
});

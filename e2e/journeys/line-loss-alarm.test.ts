import assert from "node:assert/strict";
import { test } from "node:test";
import { textOf, useBrowserSuite } from "../harness.ts";
import { call, eventually, newOperator, signInOperator } from "../registry-helpers.ts";

/**
 * A building's master counted 37 kWh a day for its rooms' 35 (5.41 % lost), until the day before
 * yesterday when it counted 45 (22.22 %). The manager runs the sweep from 窃电与漏水 and finds the
 * day in 告警记录: one record on the building's master meter, whose detail names the node, the day,
 * the loss and the band it left.
 */

const suite = useBrowserSuite();

/** A day `n` days before today in Asia/Shanghai (the server's zone), yyyy-MM-dd. */
const dayBefore = (n: number) =>
  new Intl.DateTimeFormat("en-CA", { timeZone: "Asia/Shanghai" }).format(
    new Date(Date.now() - n * 86_400_000),
  );

test("a day above the building's band shows in 告警记录 with its loss and band", async () => {
  const { page } = suite.session;
  const base = suite.server.baseUrl;
  const operator = await newOperator(base, "线损告警物业");
  const post = (path: string, body: unknown) =>
    call<{ id: string }>(base, operator.token, `/api/blade-pms/${path}`, { body });

  const codes = { master: "400000000001", room1: "400000000101", room2: "400000000102" };
  const ids: Record<string, string> = {};
  for (const [name, code] of Object.entries(codes))
    ids[name] = (await post("meter/save", { productCode: code })).id;
  const node = (
    await post("meteringnode/submit", {
      nodeTitle: "告警楼",
      energyType: 1,
      nodeKind: 2,
      masterMeterId: ids.master,
    })
  ).id;
  for (const meter of [ids.room1, ids.room2])
    await post("meteringnodemeter/submit", { nodeId: node, energyType: 1, meterId: meter, meterRole: 1 });
  // A read at each local midnight from ten days ago to today's.
  const values: Record<string, number> = { master: 5000, room1: 1000, room2: 2000 };
  for (let k = 10; k >= 0; k--) {
    for (const name of Object.keys(codes))
      await post("dataread/submit", {
        meterId: ids[name],
        readTime: `${dayBefore(k)} 00:00:00`,
        totalValue: values[name]!.toFixed(2),
      });
    values.room1! += 15;
    values.room2! += 20;
    values.master! += k === 2 ? 45 : 37;
  }

  await signInOperator(page, operator);
  await page.goto("/operation/suspects");
  const suspects = page.getByTestId("suspects-page");
  await suspects.getByTestId("suspects-sweep").click();
  await page.locator(".ant-message", { hasText: "排查完成" }).first().waitFor();

  await page.goto("/operation/checkrecord");
  const screen = page.getByTestId("check-records");
  await screen.getByTestId("alarm-filter-meter").fill(codes.master);
  await screen.getByTestId("alarm-search").click();
  const row = screen.locator(".ant-table-row", { hasText: "线损超出正常范围" });
  await eventually(async () => {
    const texts = await screen.locator(".ant-table-row").allInnerTexts();
    assert.equal(texts.length, 1, texts.join("\n"));
    assert.ok(texts[0]!.includes(codes.master), texts[0]);
  });
  await row.getByTestId("alarm-detail").click();
  const detail = page.getByTestId("alarm-detail-dialog");
  await detail.waitFor();
  const text = await textOf(detail);
  for (const part of ["告警楼", dayBefore(2), "22.22%", "超出正常范围 3.91%–6.91%"])
    assert.ok(text.includes(part), `${part} in ${text}`);
  assert.deepEqual(suite.session.errors, []);
});

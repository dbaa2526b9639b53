import assert from "node:assert/strict";
import { test } from "node:test";
import { expectAccessible } from "../axe.ts";
import { toast } from "../crud-helpers.ts";
import { textOf, useBrowserSuite } from "../harness.ts";
import { call, eventually, newOperator, signInOperator } from "../registry-helpers.ts";

/**
 * A manager sweeps the tenant for suspects: a room's water meter turned 0.05 m³ every hour of the
 * last three quiet nights (a leak after the meter). The manager opens its evidence (three nights, the
 * least night flow, a chart of its daily usage), confirms it with a reason, and finds it under
 * the confirmed ones.
 */

const suite = useBrowserSuite();

/** A day `n` days before today in Asia/Shanghai (the server's zone), yyyy-MM-dd. */
const dayBefore = (n: number) =>
  new Intl.DateTimeFormat("en-CA", { timeZone: "Asia/Shanghai" }).format(
    new Date(Date.now() - n * 86_400_000),
  );

test("a manager confirms the top water leak with a reason and finds it among the confirmed", async () => {
  const { page } = suite.session;
  const base = suite.server.baseUrl;
  const operator = await newOperator(base, "漏水物业");
  const post = (path: string, body: unknown) =>
    call<{ id: string }>(base, operator.token, `/api/blade-pms/${path}`, { body });

  const area = (await post("area/save", { areaName: "漏水楼", areaType: 2 })).id;
  const roomId = (await post("room/save", { areaId: area, roomName: "301" })).id;
  const water = (await post("water/submit", { productCode: "50000000000301" })).id;
  await post("roommeter/submit", { roomId, energyType: 2, meterId: water });
  // The last three nights whose quiet hours (00:00–05:00) are over.
  const nights = [0, 1, 2, 3]
    .map(dayBefore)
    .filter((day) => Date.parse(`${day}T05:00:00+08:00`) <= Date.now())
    .slice(0, 3)
    .reverse();
  let value = 100;
  for (const day of nights) {
    for (let hour = 0; hour <= 5; hour++) {
      await post("waterdataread/submit", {
        meterId: water,
        readTime: `${day} 0${hour}:00:00`,
        totalValue: value.toFixed(2),
      });
      value += 0.05;
    }
    value += 1;
  }

  await signInOperator(page, operator);
  await page.keyboard.press("Control+k");
  await page.keyboard.type("窃电与漏水");
  await page.getByTestId("menu-search-label").filter({ hasText: "窃电与漏水" }).first().waitFor();
  await page.keyboard.press("Enter");
  const screen = page.getByTestId("suspects-page");
  await screen.waitFor();
  await screen.getByTestId("suspects-sweep").click();
  await toast(page, "排查完成");
  await screen.getByTestId("suspects-energy").getByText("漏水").click();

  const table = screen.getByTestId("suspects-table");
  const top = table.locator(".ant-table-row").first();
  await eventually(async () => {
    const text = await textOf(top);
    for (const part of ["50000000000301", "漏水楼 · 301", "夜间持续流量", "新发现"])
      assert.ok(text.includes(part), `${part} in ${text}`);
  });
  await expectAccessible(page, "suspects page");

  await top.getByTestId("suspect-open-0").click();
  const drawer = page.getByTestId("suspect-drawer");
  const figures = drawer.getByTestId("suspect-figures");
  await eventually(async () => {
    const text = await textOf(figures);
    for (const part of ["连续夜数", "3 夜", "夜间最小流量", "0.05"])
      assert.ok(text.includes(part), `${part} in ${text}`);
  });
  await drawer.getByTestId("suspect-chart").waitFor();
  await expectAccessible(page, "suspect evidence");
  await drawer.getByTestId("suspect-reason").fill("入户查看,马桶水箱漏水");
  await drawer.getByTestId("suspect-mark-confirmed").click();
  await toast(page, "已更新");
  await eventually(async () => {
    const text = await textOf(figures);
    assert.ok(text.includes("已确认") && text.includes("入户查看,马桶水箱漏水"), text);
  });
  await page.keyboard.press("Escape");

  await screen.getByTestId("suspects-state-filter").click();
  await page.locator(".ant-select-dropdown:visible .ant-select-item-option", { hasText: "已确认" }).click();
  await eventually(async () => {
    const rows = await table.locator(".ant-table-row").allInnerTexts();
    assert.equal(rows.length, 1, rows.join("\n"));
    for (const part of ["50000000000301", "已确认", "入户查看,马桶水箱漏水"])
      assert.ok(rows[0]!.includes(part), `${part} in ${rows[0]}`);
  });
});

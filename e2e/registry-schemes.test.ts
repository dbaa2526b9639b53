import assert from "node:assert/strict";
import { test } from "node:test";
import type { Page } from "playwright-core";
import { dialog, field, fieldErrors, openResource, pick, rowsWith, toast } from "./crud-helpers.ts";
import { useBrowserSuite } from "./harness.ts";
import {
  call,
  chooseOption,
  eventually,
  newOperator,
  type Operator,
  openDropdown,
  signInOperator,
} from "./registry-helpers.ts";

const suite = useBrowserSuite();

/** A scheme as the server stored it, found by name. */
async function stored(operator: Operator, path: string, schemeName: string) {
  const page = await call<{ records: Record<string, unknown>[] }>(
    suite.server.baseUrl,
    operator.token,
    `/api/blade-pms/${path}/list`,
    { query: { schemeName } },
  );
  const [row] = page.records;
  assert.ok(row, `${schemeName} was saved`);
  return row;
}

const saveButton = (page: Page) => dialog(page).getByTestId("crud-dialog-ok");
const time = (page: Page, testId: string, value: string) =>
  chooseOption(page, page.getByTestId(testId), value);
const band = (page: Page, index: number, name: string) =>
  chooseOption(page, page.getByTestId(`tou-band-${index}`), name, false);
const gapMinutes = async (page: Page) =>
  Number(await page.getByTestId("tou-day-bar").getAttribute("data-gap-minutes"));

test("charging schemes: a ladder and time-of-use slots through their editors; the server's refusal is shown", async () => {
  const { page } = suite.session;
  const operator = await newOperator(suite.server.baseUrl, "收费方案公司");
  await signInOperator(page, operator);
  const schemes = await openResource(page, "/pms/chargingscheme", "chargingScheme");

  // A ladder: the flat price gives way to a cycle and a table of tiers.
  await schemes.getByTestId("crud-add").click();
  await field(page, "schemeName").fill("居民阶梯电价");
  await pick(page, "energyType", "电");
  assert.equal(await field(page, "price").count(), 1, "a flat price by default");
  await pick(page, "priceMode", "阶梯价格");
  assert.equal(await field(page, "price").count(), 0);
  await pick(page, "ladderCycle", "按月");
  await page.getByTestId("ladder-limit-0").fill("2880");
  await page.getByTestId("ladder-price-0").fill("0.4883");
  await page.getByTestId("ladder-add").click();
  await page.getByTestId("ladder-limit-1").fill("2000");
  await page.getByTestId("ladder-price-1").fill("0.5383");
  await page.getByTestId("ladder-price-2").fill("0.7883");
  await saveButton(page).click();
  await eventually(async () => assert.ok((await fieldErrors(page)).includes("第 2 档上限必须大于上一档")));
  await page.getByTestId("ladder-limit-1").fill("4800");
  await saveButton(page).click();
  await toast(page, "新增成功");
  await dialog(page).waitFor({ state: "detached" });
  const ladder = await stored(operator, "chargingscheme", "居民阶梯电价");
  assert.deepEqual(JSON.parse(String(ladder.ladder)), [
    { limit: "2880", price: "0.4883" },
    { limit: "4800", price: "0.5383" },
    { limit: null, price: "0.7883" },
  ]);
  assert.equal(ladder.price ?? null, null);

  // Time of use: slots with bands, the day bar shows what is still uncovered, band prices appear as used.
  await schemes.getByTestId("crud-add").click();
  await field(page, "schemeName").fill("工业分时电价");
  await pick(page, "energyType", "电");
  await pick(page, "priceMode", "分时价格");
  assert.equal(await field(page, "peakPrice").count(), 0, "no band is used yet");
  await page.getByTestId("tou-add").click();
  await time(page, "tou-end-0", "08:00");
  await band(page, 0, "谷");
  await page.getByTestId("tou-add").click();
  await time(page, "tou-end-1", "22:00");
  await band(page, 1, "峰");
  assert.equal(await gapMinutes(page), 120, "22:00–24:00 is not covered yet");
  await page.getByTestId("tou-add").click();
  await time(page, "tou-end-2", "24:00");
  await band(page, 2, "平");
  assert.equal(await gapMinutes(page), 0);
  assert.equal(await field(page, "tipPrice").count(), 0, "no slot is a tip slot");
  await field(page, "lowPrice").fill("0.3");
  await field(page, "peakPrice").fill("0.9");
  await field(page, "peacePrice").fill("0.6");
  await saveButton(page).click();
  await toast(page, "新增成功");
  await dialog(page).waitFor({ state: "detached" });
  const tou = await stored(operator, "chargingscheme", "工业分时电价");
  assert.deepEqual(JSON.parse(String(tou.touPeriods)), [
    { start: "00:00", end: "08:00", band: "low" },
    { start: "08:00", end: "22:00", band: "peak" },
    { start: "22:00", end: "24:00", band: "peace" },
  ]);
  await rowsWith(schemes, "工业分时电价").waitFor();

  // Two neighbouring slots of one band pass the console's checks; the server refuses them by field.
  await schemes.getByTestId("crud-add").click();
  await field(page, "schemeName").fill("重复费率");
  await pick(page, "energyType", "电");
  await pick(page, "priceMode", "分时价格");
  await page.getByTestId("tou-add").click();
  await time(page, "tou-end-0", "12:00");
  await band(page, 0, "峰");
  await page.getByTestId("tou-add").click();
  await time(page, "tou-end-1", "24:00");
  await band(page, 1, "峰");
  await field(page, "peakPrice").fill("0.6");
  await saveButton(page).click();
  await toast(page, "touPeriods: 相邻时段 00:00 与 12:00 费率相同,请合并");
  await eventually(async () =>
    assert.ok((await fieldErrors(page)).includes("相邻时段 00:00 与 12:00 费率相同,请合并")),
  );
  assert.equal(await dialog(page).count(), 1, "the dialog stays open with what was entered");
});

test("alarm schemes: falling amounts, protection windows, dates and channels through their editors", async () => {
  const { page } = suite.session;
  const operator = await newOperator(suite.server.baseUrl, "告警方案公司");
  await signInOperator(page, operator);
  const schemes = await openResource(page, "/pms/alarmscheme", "alarmScheme");
  await schemes.getByTestId("crud-add").click();
  await field(page, "schemeName").fill("宿舍告警");
  await pick(page, "energyType", "电");
  await field(page, "firstAlarm").fill("20");
  await field(page, "secondAlarm").fill("50");
  await saveButton(page).click();
  await eventually(async () =>
    assert.ok((await fieldErrors(page)).includes("一级告警金额必须大于二级告警金额")),
  );
  await field(page, "firstAlarm").fill("80");

  await page.getByTestId("protect-add").click();
  await time(page, "protect-start-0", "22:00");
  await time(page, "protect-end-0", "07:00");
  await page.getByTestId("protect-weekend").click();
  const datePicker = page.getByTestId("protect-dates").locator(".ant-picker input");
  await datePicker.fill("2026-10-01");
  await datePicker.press("Enter");
  await page.getByTestId("protect-date-list").getByText("2026-10-01").waitFor();
  // Several channels: the list stays open while they are picked.
  await page.getByTestId("notify-channels").click();
  for (const channel of ["短信", "微信"])
    await openDropdown(page).locator(".ant-select-item-option", { hasText: channel }).click();
  await dialog(page).locator(".ant-modal-title").click();
  await openDropdown(page).waitFor({ state: "detached" });
  await saveButton(page).click();
  await toast(page, "新增成功");
  await dialog(page).waitFor({ state: "detached" });

  const scheme = await stored(operator, "alarmscheme", "宿舍告警");
  assert.deepEqual(JSON.parse(String(scheme.protectTimes)), [{ start: "22:00", end: "07:00" }]);
  assert.deepEqual(JSON.parse(String(scheme.protectDates)), ["2026-10-01", "weekend"]);
  assert.equal(scheme.notifyChannels, "sms,wechat");
});

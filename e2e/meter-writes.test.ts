import assert from "node:assert/strict";
import { test } from "node:test";
import { expectAccessible } from "./axe.ts";
import { clickRowAction, openResource, rowsWith, settled } from "./crud-helpers.ts";
import { textOf, useBrowserSuite } from "./harness.ts";
import { seedMoneySite } from "./money-helpers.ts";
import { call, newOperator, signInOperator } from "./registry-helpers.ts";

const suite = useBrowserSuite();

test("a price write from the meter screen names the meters it could not write and why", async () => {
  const { page } = suite.session;
  const operator = await newOperator(suite.server.baseUrl, "写表公司");
  const site = await seedMoneySite(suite.server.baseUrl, operator, {
    rooms: 1,
    firstCode: 500000000301,
    ownerName: "钱写表",
    phone: "13900000301",
  });
  const meter = site.meters[0]!.productCode;
  await signInOperator(page, operator);

  const meters = await openResource(page, "/pms/meter", "meter");
  await settled(meters);
  const write = meters.getByTestId("meter-write-price");
  assert.equal(await write.isDisabled(), true, "nothing ticked, nothing to write");
  await rowsWith(meters, meter).locator(".ant-checkbox-input").check();
  await write.click();
  await page.getByTestId("meter-write-price-ok").click();

  // The meter has no open account: nothing is queued, and the answer says so by its address.
  const skipped = page.getByTestId("meter-write-skipped");
  await skipped.waitFor();
  assert.equal((await textOf(skipped)).trim(), `${meter}:表计未开户`);
  await expectAccessible(page, "meters left out of a price write");
});

test("the water meter screen writes prices, alarm amounts and reads valves, naming the meters left out", async () => {
  const { page } = suite.session;
  const operator = await newOperator(suite.server.baseUrl, "写水表公司");
  const productCode = "78330000000301";
  await call(suite.server.baseUrl, operator.token, "/api/blade-pms/water/submit", { body: { productCode } });
  await signInOperator(page, operator);

  const waters = await openResource(page, "/pms/water", "water");
  await settled(waters);
  for (const part of ["price", "alarm", "valve"])
    assert.equal(
      await waters.getByTestId(`water-write-${part}`).isDisabled(),
      true,
      `${part}: nothing ticked`,
    );
  await rowsWith(waters, productCode).locator(".ant-checkbox-input").check();
  await waters.getByTestId("water-write-price").click();
  await page.getByTestId("water-write-price-ok").click();

  // No open account: nothing is queued, and the answer names the meter by its number.
  const skipped = page.getByTestId("meter-write-skipped");
  await skipped.waitFor();
  assert.equal((await textOf(skipped)).trim(), `${productCode}:表计未开户`);
  await expectAccessible(page, "water meters left out of a price write");
  await page.keyboard.press("Escape");
  await skipped.waitFor({ state: "detached" });

  // A valve is spoken of as a valve: no 供电 or 合闸 in its dialog, and one meter is one meter.
  await clickRowAction(rowsWith(waters, productCode), "row-switch");
  const valve = page.getByTestId("switch-dialog");
  await valve.getByTestId("switch-choice-2").click();
  const words = await textOf(valve);
  assert.match(words, /开阀[\s\S]*关阀[\s\S]*停止供水/);
  assert.doesNotMatch(words, /供电|合闸|拉闸|等/);
  assert.match(words, new RegExp(productCode));
  await page.keyboard.press("Escape");
  await valve.waitFor({ state: "detached" });
});

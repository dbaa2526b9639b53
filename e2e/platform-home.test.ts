import assert from "node:assert/strict";
import { test } from "node:test";
import type { Page } from "playwright-core";
import { expectAccessible } from "./axe.ts";
import { signIn, textOf, useBrowserSuite } from "./harness.ts";
import { seedMoneySite } from "./money-helpers.ts";
import { chooseOption, eventually, newOperator } from "./registry-helpers.ts";

// The demo site (tenant 100001: 150 room meters, the 5 buildings' masters and common-area meters
// and 4 Modbus shop meters: 164 electric meters) beside a second tenant made in the test.
const suite = useBrowserSuite({ env: { DEMO_DATA: "1" } });
const DEMO = { tenantId: "100001", electric: 164 };
const SECOND_METERS = 3;

/** The electric meters the device card counts ("online / total"): its total. */
const electricTotal = async (page: Page) => {
  // The statistic's suffix alone: the card's next line begins with a number in English ("3 offline").
  const text = await textOf(page.getByTestId("overview-electric").locator(".ant-statistic-content-suffix"));
  return Number(/^\/\s*(\d+)$/.exec(text.trim())?.[1]);
};

const expectElectric = (page: Page, total: number) =>
  eventually(async () => assert.equal(await electricTotal(page), total), 15_000);

/**
 * The platform administrator's home sums every tenant, and its tenant picker narrows every card to
 * one: once in Chinese, once in English, axe on every step.
 */
test("the platform administrator's home shows every tenant summed, or the one it picks", async () => {
  const { page } = suite.session;
  const base = suite.server.baseUrl;
  const second = await newOperator(base, "第二物业公司");
  await seedMoneySite(base, second, {
    rooms: SECOND_METERS,
    firstCode: 530000000101,
    ownerName: "钱二号",
    phone: "13900000531",
  });
  const all = DEMO.electric + SECOND_METERS;

  await signIn(page);
  const picker = page.getByTestId("home-tenant");
  await picker.waitFor();
  assert.match(await textOf(page.getByTestId("home-tenant-card")), /查看租户\s*全部租户/);
  await expectElectric(page, all);
  await expectAccessible(page, "首页(全部租户)");

  await chooseOption(page, picker, DEMO.tenantId);
  await expectElectric(page, DEMO.electric);
  await expectAccessible(page, `首页(租户 ${DEMO.tenantId})`);
  await chooseOption(page, picker, second.tenantId);
  await expectElectric(page, SECOND_METERS);
  await expectAccessible(page, `首页(租户 ${second.tenantId})`);

  // The same in English: every tenant again, then the demo site alone.
  await page.getByTestId("language-switch").click();
  await page.getByTestId("language-en").click();
  await page.waitForFunction(() => document.documentElement.lang === "en");
  await chooseOption(page, picker, "All tenants");
  assert.match(await textOf(page.getByTestId("home-tenant-card")), /View tenant\s*All tenants/);
  await expectElectric(page, all);
  await expectAccessible(page, "home (all tenants)");
  await chooseOption(page, picker, DEMO.tenantId);
  await expectElectric(page, DEMO.electric);
  await expectAccessible(page, `home (tenant ${DEMO.tenantId})`);
});

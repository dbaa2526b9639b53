import assert from "node:assert/strict";
import { test } from "node:test";
import type { Page } from "playwright-core";
import { ctwingSignature } from "../apps/server/src/modules/iot-platform/platform-signing.ts";
import { expectAccessible } from "./axe.ts";
import { useBrowserSuite } from "./harness.ts";
import { call, chooseOption, newOperator, signInOperator } from "./registry-helpers.ts";

const suite = useBrowserSuite();

const CTWING = {
  baseUrl: "https://ag-api.ctwing.cn",
  appId: "e2e-ctw-app-key",
  appSecret: "e2e-ctw-app-secret-4f1b",
  pushToken: "e2e-ctw-master-9d2e",
  account: "15099887",
};
const WATER_METER = "20238800000042";
const DEVICE_ID = "869988770000042";

/** An input of a platform's card by its field name (antd names it `<form name>_<field>`). */
const input = (page: Page, platform: string, name: string) => page.locator(`#iot-${platform}_${name}`);

async function openPlatformScreen(page: Page) {
  const sidebar = page.getByTestId("sidebar");
  const group = sidebar.locator('[data-testid="menu-group"][data-code="pms"]');
  const item = sidebar.locator('[data-testid="menu-item"][data-code="iotPlatform"]');
  if (!(await item.isVisible())) await group.click();
  await item.click();
  await page.waitForURL("**/pms/iotplatform");
  await page.getByTestId("iot-platform-ctwing").waitFor();
}

/** Whether the server takes a CTWing push signed with `secret` for the application `appId`. */
async function ctwingPushTaken(tenantId: string, appId: string, secret: string): Promise<number> {
  const body = JSON.stringify({ messageType: "deviceOnlineOfflineReport", deviceId: DEVICE_ID });
  const timestamp = String(Date.now());
  const answer = await fetch(`${suite.server.baseUrl}/api/blade-pms/iot/push/ctwing/${tenantId}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      application: appId,
      timestamp,
      signature: ctwingSignature({ application: appId, timestamp, secret, body }),
    },
    body,
  });
  return answer.status;
}

test("an operator configures CTWing on 物联网平台, secrets come back masked and are kept, and links a water meter to its device", async () => {
  const { page, errors } = suite.session;
  const operator = await newOperator(suite.server.baseUrl, "物联网物业");
  const meter = await call<{ id: string }>(
    suite.server.baseUrl,
    operator.token,
    "/api/blade-pms/water/submit",
    {
      body: { productCode: WATER_METER },
    },
  );
  await signInOperator(page, operator);

  await openPlatformScreen(page);
  const card = page.getByTestId("iot-platform-ctwing");
  assert.equal(await card.getAttribute("data-configured"), "0");
  // The address to give CTWing: this server's push route for this tenant.
  assert.equal(
    (await card.getByTestId("iot-push-url-ctwing").textContent())?.trim(),
    `${suite.server.baseUrl}/api/blade-pms/iot/push/ctwing/${operator.tenantId}`,
  );
  assert.equal(
    (await page.getByTestId("iot-push-url-iotda").textContent())?.trim(),
    `${suite.server.baseUrl}/api/blade-pms/iot/push/iotda/${operator.tenantId}?token=`,
  );
  await expectAccessible(page, "iot platforms");
  // Saving without the secrets is refused in the form, naming them.
  await input(page, "ctwing", "baseUrl").fill(CTWING.baseUrl);
  await card.getByTestId("iot-save-ctwing").click();
  await card.locator(".ant-form-item-explain-error", { hasText: "AppSecret" }).waitFor();
  for (const [name, value] of Object.entries(CTWING)) await input(page, "ctwing", name).fill(value);
  await card.getByTestId("iot-save-ctwing").click();
  await page.locator(".ant-message-notice", { hasText: "配置已保存" }).first().waitFor();
  await page.waitForSelector('[data-testid="iot-platform-ctwing"][data-configured="1"]');
  assert.equal(await ctwingPushTaken(operator.tenantId, CTWING.appId, CTWING.appSecret), 200);

  // Reopened: the secrets masked (their last four shown), everything else as saved.
  await page.reload();
  await page.getByTestId("iot-platform-ctwing").waitFor();
  const masked = await input(page, "ctwing", "appSecret").inputValue();
  assert.match(masked, /^\*+4f1b$/);
  assert.ok(!masked.includes(CTWING.appSecret));
  assert.match(await input(page, "ctwing", "pushToken").inputValue(), /^\*+9d2e$/);
  assert.equal(await input(page, "ctwing", "baseUrl").inputValue(), CTWING.baseUrl);
  assert.equal(await input(page, "ctwing", "appId").inputValue(), CTWING.appId);
  assert.equal(await input(page, "ctwing", "account").inputValue(), CTWING.account);
  assert.equal(await page.getByTestId("iot-platform-onenet").getAttribute("data-configured"), "0");

  // One field changed, the masked secrets left as they are: the stored secrets still sign pushes.
  await input(page, "ctwing", "appId").fill("e2e-ctw-app-key-2");
  await page.getByTestId("iot-save-ctwing").click();
  await page.locator(".ant-message-notice", { hasText: "配置已保存" }).first().waitFor();
  const stored = await call<Record<string, string>>(
    suite.server.baseUrl,
    operator.token,
    "/api/blade-pms/iot/platform/detail",
    { query: { platform: "ctwing" } },
  );
  assert.equal(stored.appId, "e2e-ctw-app-key-2");
  assert.equal(stored.account, CTWING.account);
  assert.equal(await ctwingPushTaken(operator.tenantId, "e2e-ctw-app-key-2", CTWING.appSecret), 200);
  assert.equal(await ctwingPushTaken(operator.tenantId, "e2e-ctw-app-key-2", masked), 401);

  // The water meter's page: no device yet; linked from there, the link is shown.
  await page.goto(`/pms/water/detail/${meter.id}`);
  const deviceCard = page.getByTestId("iot-device-card");
  await deviceCard.getByTestId("iot-device-none").waitFor();
  await deviceCard.getByTestId("iot-device-edit").click();
  const form = page.getByTestId("iot-device-form");
  await form.waitFor();
  await chooseOption(page, form.locator(".ant-select"), "CTWing", false);
  await page.locator("#iot-device_deviceId").fill(DEVICE_ID);
  await expectAccessible(page, "device link dialog");
  await page.getByTestId("iot-device-ok").click();
  await page.locator(".ant-message-notice", { hasText: DEVICE_ID }).first().waitFor();
  await deviceCard.getByTestId("iot-device-id").waitFor();
  assert.equal((await deviceCard.getByTestId("iot-device-id").textContent())?.trim(), DEVICE_ID);
  assert.equal(await deviceCard.getByTestId("iot-device-platform").getAttribute("data-platform"), "ctwing");
  // Read again from the server after a reload, not only what the dialog left on screen.
  await page.reload();
  await page.getByTestId("iot-device-id").waitFor();
  assert.equal((await page.getByTestId("iot-device-id").textContent())?.trim(), DEVICE_ID);
  await expectAccessible(page, "water meter with its device");
  assert.deepEqual(errors, []);
});

import assert from "node:assert/strict";
import { test } from "node:test";
import type { Locator, Page } from "playwright-core";
import { dialog, field, openResource, pick, rowsWith, settled, toast } from "./crud-helpers.ts";
import { textOf, useBrowserSuite } from "./harness.ts";
import { call, newOperator, signInOperator } from "./registry-helpers.ts";

const suite = useBrowserSuite();

const save = async (page: Page, toastText = "新增成功") => {
  await dialog(page).getByTestId("crud-dialog-ok").click();
  await toast(page, toastText);
  await dialog(page).waitFor({ state: "detached" });
};

async function openAdd(page: Page, screen: Locator) {
  await screen.getByTestId("crud-add").click();
  await dialog(page).waitFor();
}

test("an operator registers a Modbus TCP endpoint with its host and port, a meter on it, and sees the endpoint on the collector's page", async () => {
  const { page } = suite.session;
  const operator = await newOperator(suite.server.baseUrl, "Modbus 商铺");
  await signInOperator(page, operator);
  const code = `E2E-MBTCP-${operator.tenantId}`;

  const collectors = await openResource(page, "/pms/collector", "collector");
  await openAdd(page, collectors);
  await field(page, "collectorName").fill("商铺 Modbus TCP 网关");
  await field(page, "collectorCode").fill(code);
  // A DTU dials in: no host or port to fill until the transport says Modbus TCP.
  assert.equal(await field(page, "modbusHost").count(), 0);
  await pick(page, "transport", "Modbus TCP 直连");
  await field(page, "modbusHost").waitFor();
  await field(page, "modbusHost").fill("192.168.1.300");
  await field(page, "modbusPort").fill("502");
  // The server refuses a host that is no address, naming the field: shown under it.
  await dialog(page).getByTestId("crud-dialog-ok").click();
  await dialog(page)
    .locator(".ant-form-item-explain-error", { hasText: "[192.168.1.300] 不是 IP 地址或主机名" })
    .waitFor();
  await field(page, "modbusHost").fill("192.168.1.30");
  await save(page);
  await settled(collectors);
  await rowsWith(collectors, code).waitFor();

  const meters = await openResource(page, "/pms/meter", "meter");
  await openAdd(page, meters);
  await field(page, "productCode").fill("000000000701");
  await pick(page, "collectorId", "商铺 Modbus TCP 网关");
  assert.equal(await field(page, "modbusModel").count(), 0, "a DL/T 645 meter has no Modbus model");
  await pick(page, "protocol", "Modbus TCP");
  await pick(page, "modbusModel", "安科瑞 DDSY1352 预付费");
  await field(page, "modbusSlave").fill("3");
  await save(page);

  const [collector] = (
    await call<{ records: { id: string; transport: string; modbusHost: string; modbusPort: number }[] }>(
      suite.server.baseUrl,
      operator.token,
      "/api/blade-pms/collector/page",
      { query: { collectorCode: code } },
    )
  ).records;
  assert.deepEqual(
    [collector?.transport, collector?.modbusHost, collector?.modbusPort],
    ["modbus", "192.168.1.30", 502],
  );
  const [meter] = (
    await call<{ records: { protocol: string; modbusModel: string; modbusSlave: number }[] }>(
      suite.server.baseUrl,
      operator.token,
      "/api/blade-pms/meter/page",
      { query: { productCode: "000000000701" } },
    )
  ).records;
  assert.deepEqual([meter?.protocol, meter?.modbusModel, meter?.modbusSlave], ["modbus_tcp", "ddsy1352", 3]);

  await page.goto(`/pms/collector/detail/${collector!.id}`);
  const detail = page.getByTestId("collector-detail");
  await detail.waitFor();
  assert.equal(await textOf(detail.getByTestId("collector-modbus-endpoint")), "192.168.1.30:502");
});

import assert from "node:assert/strict";
import { test } from "node:test";
import { clickRowAction, openResource, rowsWith } from "./crud-helpers.ts";
import { textOf, useBrowserSuite } from "./harness.ts";
import { call, newOperator, signInOperator } from "./registry-helpers.ts";

const suite = useBrowserSuite();

test("拉合闸记录 shows a cut by meter and room; removing it while still queued is refused with the reason; the command log tells 拉闸 from 合闸", async () => {
  const { page } = suite.session;
  const { baseUrl } = suite.server;
  const operator = await newOperator(baseUrl, "记录物业");
  const post = (path: string, body: unknown) =>
    call<{ id: string }>(baseUrl, operator.token, `/api/blade-pms/${path}`, { body });
  const park = (await post("area/save", { areaName: "记录园区", areaType: 1 })).id;
  const building = (await post("area/save", { parentId: park, areaName: "2号楼" })).id;
  const room = (await post("room/save", { areaId: building, roomName: "305" })).id;
  const collector = (
    await post("collector/submit", {
      collectorName: "记录DTU",
      collectorCode: `E2E-REC-${operator.tenantId}`,
    })
  ).id;
  const meter = (
    await post("meter/save", { productCode: "300000000305", collectorId: collector, channel: 1 })
  ).id;
  await post("roommeter/submit", { roomId: room, energyType: 1, meterId: meter });
  await post("message/switch", { meterId: meter, switchType: 2 });
  // A second meter switched on: the other direction, for the command log.
  const second = (
    await post("meter/save", { productCode: "300000000306", collectorId: collector, channel: 2 })
  ).id;
  await post("message/switch", { meterId: second, switchType: 1 });

  await signInOperator(page, operator);
  const records = await openResource(page, "/operation/dataswitch", "dataSwitch");
  const row = rowsWith(records, "300000000305");
  await row.waitFor();
  assert.match(await textOf(row), /2号楼 305.*排队中/);

  await clickRowAction(row, "row-remove");
  await page.locator(".ant-modal-confirm-btns .ant-btn-primary").click();
  await page.locator(".ant-message-notice", { hasText: "命令尚未结束" }).first().waitFor();
  assert.equal(await rowsWith(records, "300000000305").count(), 1);

  const sent = await openResource(page, "/operation/message", "message");
  await rowsWith(sent, "300000000305").waitFor();

  // The command log says each direction in words, not one 拉合闸 for both.
  const commands = await openResource(page, "/operation/metercommand", "meterCommand");
  const off = rowsWith(commands, "300000000305");
  const on = rowsWith(commands, "300000000306");
  await on.waitFor();
  assert.match(await textOf(off), /拉闸/);
  assert.doesNotMatch(await textOf(off), /合闸/);
  assert.match(await textOf(on), /合闸/);
  assert.doesNotMatch(await textOf(on), /拉闸/);
  assert.deepEqual(suite.session.errors, []);
});

import assert from "node:assert/strict";
import { test } from "node:test";
import type { Page } from "playwright-core";
import { clickRowAction, dialog, field, openResource, rowsWith, settled, toast } from "./crud-helpers.ts";
import { textOf, useBrowserSuite } from "./harness.ts";
import { call, eventually, newOperator, signInOperator } from "./registry-helpers.ts";

const suite = useBrowserSuite();

/** The owner names one side of the binding transfer lists (0 = in no group, 1 = in the group). */
const side = (page: Page, index: 0 | 1) =>
  page.getByTestId("owner-group-transfer").locator(".ant-transfer-section").nth(index);
const namesOn = async (page: Page, index: 0 | 1) =>
  (await side(page, index).locator(".ant-transfer-list-content-item-text").allInnerTexts())
    .map((text) => text.split(" ")[0] ?? "")
    .sort();

test("owners join and leave a group through the transfer list; the group's supply is cut after a confirmation", async () => {
  const { page } = suite.session;
  const base = suite.server.baseUrl;
  const operator = await newOperator(base, "分组公司");
  const post = (path: string, body: unknown) =>
    call<{ id: string }>(base, operator.token, `/api/blade-pms/${path}`, { body });
  // 甲 lives in a room with a meter behind a collector; 乙 and 丙 have no room.
  const area = (await post("area/save", { areaName: "分组园区", areaType: 1 })).id;
  const room = (await post("room/save", { areaId: area, roomName: "G101" })).id;
  const collector = (
    await post("collector/submit", {
      collectorName: "分组DTU",
      collectorCode: `E2E-GROUP-${operator.tenantId}`,
    })
  ).id;
  const meter = (await post("meter/submit", { productCode: "000000000401", collectorId: collector })).id;
  await post("roommeter/submit", { roomId: room, energyType: 1, meterId: meter });
  const jia = (await post("owner/submit", { ownerName: "甲业主", phone: "13900000401" })).id;
  await post("ownerroom/submit", { ownerId: jia, roomId: room });
  await post("owner/submit", { ownerName: "乙业主" });
  await post("owner/submit", { ownerName: "丙业主" });

  await signInOperator(page, operator);
  const groups = await openResource(page, "/pms/ownergroup", "ownerGroup");
  await groups.getByTestId("crud-add").click();
  await field(page, "groupName").fill("一号宿舍");
  await dialog(page).getByTestId("crud-dialog-ok").click();
  await toast(page, "新增成功");
  await settled(groups);
  const group = rowsWith(groups, "一号宿舍");

  await clickRowAction(group, "row-group-bind");
  await eventually(async () =>
    assert.deepEqual(await namesOn(page, 0), ["丙业主", "乙业主", "甲业主"].sort()),
  );
  assert.deepEqual(await namesOn(page, 1), []);
  for (const name of ["甲业主", "乙业主"]) await side(page, 0).getByText(name).click();
  await page.getByTestId("owner-group-transfer").getByRole("button", { name: "加入分组" }).click();
  await toast(page, "已将 2 位业主加入分组");
  await eventually(async () => assert.deepEqual(await namesOn(page, 1), ["乙业主", "甲业主"].sort()));
  assert.deepEqual(await namesOn(page, 0), ["丙业主"]);

  await side(page, 1).getByText("乙业主").click();
  await page.getByTestId("owner-group-transfer").getByRole("button", { name: "移出分组" }).click();
  await toast(page, "已将 1 位业主移出分组");
  await eventually(async () => assert.deepEqual(await namesOn(page, 1), ["甲业主"]));

  // What the lists show is what the server holds.
  const groupId = (
    await call<{ records: { id: string }[] }>(base, operator.token, "/api/blade-pms/ownerGroup/page")
  ).records[0]?.id;
  const members = await call<{ records: { ownerName: string }[] }>(
    base,
    operator.token,
    "/api/blade-pms/owner/page",
    {
      query: { ownerGroupId: groupId ?? "" },
    },
  );
  assert.deepEqual(
    members.records.map((m) => m.ownerName),
    ["甲业主"],
  );
  await page.getByTestId("owner-group-bind-close").click();

  // The cut asks first; cancelling sends nothing, confirming queues one command per meter.
  await clickRowAction(group, "row-group-cut");
  const confirm = page.locator(".ant-modal-confirm");
  assert.match(await textOf(confirm), /一号宿舍/);
  await confirm.getByRole("button", { name: /取\s*消/ }).click();
  await confirm.waitFor({ state: "detached" });
  await clickRowAction(group, "row-group-cut");
  await page.getByTestId("owner-group-cut-ok").click();
  await toast(page, "已下发 1 条断电命令");
  // The command log shows the cut waiting for the meter's collector (it is not online here).
  const commands = await openResource(page, "/operation/metercommand", "meterCommand");
  assert.match(await textOf(rowsWith(commands, "000000000401")), /拉闸[\s\S]*排队中/);

  // The owner screen shows each owner's group, and 乙's log tells the story in words.
  const owners = await openResource(page, "/pms/owner", "owner");
  assert.match(await textOf(rowsWith(owners, "甲业主")), /一号宿舍/);
  assert.match(await textOf(rowsWith(owners, "甲业主")), /G101/);
  await clickRowAction(rowsWith(owners, "乙业主"), "row-owner-log");
  const log = page.getByTestId("owner-log-table");
  await eventually(async () =>
    assert.deepEqual(
      // Action and content cells of each entry, newest first.
      await log.locator(".ant-table-row").evaluateAll((rows) =>
        rows.map((row) =>
          Array.from(row.querySelectorAll("td"))
            .slice(1, 3)
            .map((cell) => {
              // The content cell holds one paragraph per line.
              const lines = Array.from(cell.querySelectorAll("div.ant-typography")).map((p) => p.textContent);
              return lines.length > 0 ? lines.join("\n") : (cell.textContent ?? "").trim();
            })
            .join(" | "),
        ),
      ),
      [
        "退出分组 | 分组: 一号宿舍",
        "加入分组 | 分组: 一号宿舍",
        "新增 | 业主姓名: 乙业主\n业主类型: 个人\n余额(元): 0.00",
      ],
    ),
  );
});

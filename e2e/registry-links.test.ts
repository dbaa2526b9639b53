import assert from "node:assert/strict";
import { test } from "node:test";
import type { Locator, Page } from "playwright-core";
import { expectAccessible } from "./axe.ts";
import {
  clickRowAction,
  dialog,
  field,
  openResource,
  pick,
  pickTreeNode,
  rowsWith,
  settled,
  toast,
} from "./crud-helpers.ts";
import { textOf, useBrowserSuite } from "./harness.ts";
import {
  call,
  chooseArea,
  eventually,
  newOperator,
  signInOperator,
  treeChoices,
} from "./registry-helpers.ts";

const suite = useBrowserSuite();

const save = async (page: Page, toastText = "新增成功") => {
  await dialog(page).getByTestId("crud-dialog-ok").click();
  await toast(page, toastText);
  await dialog(page).waitFor({ state: "detached" });
};

/** Adds a row through the screen's add button; `fill` fills the dialog. */
async function add(page: Page, screen: Locator, fill: () => Promise<void>) {
  await screen.getByTestId("crud-add").click();
  await dialog(page).waitFor();
  await fill();
  await save(page);
  await settled(screen);
}

/** The room names (three digits) a room table lists, sorted. */
const roomNames = async (screen: Locator) =>
  (await screen.locator(".ant-table-row").allInnerTexts())
    .map((r) => r.match(/\b(\d{3})\b/)?.[1] ?? r)
    .sort();
const roomsAre = (screen: Locator, names: string[]) =>
  eventually(async () => assert.deepEqual(await roomNames(screen), names));

test("an operator builds areas, rooms, an owner, a collector and a meter and links them through the screens", async () => {
  const { page } = suite.session;
  const operator = await newOperator(suite.server.baseUrl, "链接园区公司");
  await signInOperator(page, operator);

  // Areas: a park and two buildings under it.
  const areas = await openResource(page, "/pms/area", "area");
  await add(page, areas, async () => {
    await field(page, "areaName").fill("链接园区");
    await pick(page, "areaType", "园区");
  });
  for (const building of ["1号楼", "2号楼"]) {
    await clickRowAction(rowsWith(areas, "链接园区").first(), "row-add-child");
    await field(page, "areaName").fill(building);
    await save(page);
    await settled(areas);
  }

  // Rooms through the area tree: a new room starts in the chosen area.
  const rooms = await openResource(page, "/pms/room", "room");
  await chooseArea(page, "1号楼");
  await settled(rooms);
  for (const name of ["301", "302"]) {
    await rooms.getByTestId("crud-add").click();
    // The chosen area shows by its name once the picker's choices have arrived.
    await eventually(async () =>
      assert.match(
        await textOf(dialog(page).locator(".ant-form-item", { has: page.locator("#areaId") })),
        /1号楼/,
      ),
    );
    await field(page, "roomName").fill(name);
    await save(page);
    await settled(rooms);
  }
  await chooseArea(page, "2号楼");
  await roomsAre(rooms, []);
  await add(page, rooms, () => field(page, "roomName").fill("201"));
  // The tree narrows the table to the area and everything below it.
  await roomsAre(rooms, ["201"]);
  await chooseArea(page, "1号楼");
  await roomsAre(rooms, ["301", "302"]);
  await chooseArea(page, "链接园区");
  await roomsAre(rooms, ["201", "301", "302"]);

  const owners = await openResource(page, "/pms/owner", "owner");
  await add(page, owners, async () => {
    await field(page, "ownerName").fill("张链接");
    await field(page, "phone").fill("13900000301");
  });

  const collectors = await openResource(page, "/pms/collector", "collector");
  await add(page, collectors, async () => {
    await field(page, "collectorName").fill("链接DTU");
    await field(page, "collectorCode").fill(`E2E-LINK-${operator.tenantId}`);
  });

  // A meter with a relay password: stored encrypted, shown masked, kept when the mask is sent back.
  const meters = await openResource(page, "/pms/meter", "meter");
  await add(page, meters, async () => {
    await field(page, "productCode").fill("000000000301");
    await pick(page, "collectorId", "链接DTU");
    await field(page, "relayPassword").fill("1A2B3C4D");
  });
  await rowsWith(meters, "000000000301").getByTestId("row-edit").click();
  assert.equal(await field(page, "relayPassword").getAttribute("type"), "password");
  assert.equal(await field(page, "relayPassword").inputValue(), "****3C4D");
  await save(page, "修改成功");
  const [meter] = (
    await call<{ records: { id: string; relayPassword: string }[] }>(
      suite.server.baseUrl,
      operator.token,
      "/api/blade-pms/meter/page",
      { query: { productCode: "000000000301" } },
    )
  ).records;
  assert.equal(meter?.relayPassword, "****3C4D", "the stored password survived the edit");

  // Owner ↔ room through the pickers of free owners and free rooms.
  const ownerRooms = await openResource(page, "/pms/ownerroom", "ownerRoom");
  await ownerRooms.getByTestId("crud-add").click();
  await pickTreeNode(page, "ownerId", "张链接");
  await pickTreeNode(page, "roomId", "301");
  await save(page);
  await settled(ownerRooms);
  const link = rowsWith(ownerRooms, "张链接");
  assert.match(await textOf(link), /301/, "the table shows the room's name, not its id");
  // Editing keeps the current room choosable although it is no longer free; new links cannot take it.
  await link.getByTestId("row-edit").click();
  // Rooms are named with their building (1号楼 301), not by a number every building has.
  assert.ok((await treeChoices(page, "roomId")).includes("1号楼 301"));
  await page.keyboard.press("Escape");
  await dialog(page).waitFor({ state: "detached" });
  await ownerRooms.getByTestId("crud-add").click();
  const freeRooms = await treeChoices(page, "roomId");
  assert.ok(freeRooms.includes("1号楼 302") && !freeRooms.includes("1号楼 301"), freeRooms.join(","));
  assert.ok(!(await treeChoices(page, "ownerId")).includes("张链接"), "the owner has a room now");
  await page.keyboard.press("Escape");

  // Room ↔ meter: free rooms of the energy type and uninstalled electric meters.
  const roomMeters = await openResource(page, "/pms/roommeter", "roomMeter");
  await roomMeters.getByTestId("crud-add").click();
  await pickTreeNode(page, "roomId", "301");
  await pickTreeNode(page, "meterId", "000000000301");
  await save(page);
  await settled(roomMeters);
  const installed = rowsWith(roomMeters, "000000000301");
  const text = await textOf(installed);
  for (const part of ["1号楼", "301", "张链接", "电"]) assert.ok(text.includes(part), `${part} in ${text}`);

  // The linked room is no longer offered for another electric meter, but is for a water meter.
  await roomMeters.getByTestId("crud-add").click();
  const electricRooms = await treeChoices(page, "roomId");
  assert.ok(
    electricRooms.includes("1号楼 302") && !electricRooms.includes("1号楼 301"),
    electricRooms.join(","),
  );
  assert.ok(!(await treeChoices(page, "meterId")).includes("000000000301"), "the meter is installed");
  await pick(page, "energyType", "水");
  // Rooms are named with their building (1号楼 301), not by a number every building has.
  assert.ok((await treeChoices(page, "roomId")).includes("1号楼 301"));
  await page.keyboard.press("Escape");

  // The area tree narrows room meters too.
  await dialog(page).waitFor({ state: "detached" });
  await chooseArea(page, "2号楼");
  await eventually(async () => assert.equal(await installed.count(), 0));
  await chooseArea(page, "1号楼");
  await installed.waitFor();
});

test("the topology opens at the buildings, finds a meter by its last digits, offline ones marked", async () => {
  const { page } = suite.session;
  const base = suite.server.baseUrl;
  const operator = await newOperator(base, "拓扑公司");
  const post = <T = { id: string }>(path: string, body: unknown) =>
    call<T>(base, operator.token, `/api/blade-pms/${path}`, { body });
  const park = (await post("area/save", { areaName: "拓扑园区", areaType: 1 })).id;
  const building = (await post("area/save", { areaName: "拓扑楼", parentId: park })).id;
  const other = (await post("area/save", { areaName: "另一园区", areaType: 1 })).id;
  const room = (await post("room/save", { areaId: building, roomName: "T101" })).id;
  await post("room/save", { areaId: other, roomName: "X999" });
  const collector = (
    await post("collector/submit", {
      collectorName: "拓扑DTU",
      collectorCode: `E2E-TOPO-${operator.tenantId}`,
    })
  ).id;
  const meter = (await post("meter/submit", { productCode: "000000000201", collectorId: collector })).id;
  await post("roommeter/submit", { roomId: room, energyType: 1, meterId: meter });

  await signInOperator(page, operator);
  const areas = await openResource(page, "/pms/area", "area");
  const nodesShown = async (expected: string) => {
    const chart = page.getByTestId("topology-chart");
    await chart.waitFor();
    // The chart notes what it drew after each drawing: wait for the drawing that holds `expected`.
    await page.waitForFunction(
      (name) =>
        document.querySelector('[data-testid="topology-chart"]')?.getAttribute("data-nodes")?.includes(name),
      expected,
    );
    return JSON.parse((await chart.getAttribute("data-nodes")) ?? "[]") as {
      name: string;
      kind: string;
      offline: boolean;
      match: boolean;
    }[];
  };

  // Nothing ticked: the whole tenant, opened down to its buildings, the collector closed with its count.
  await areas.getByTestId("area-topology").click();
  const all = await nodesShown("拓扑DTU");
  assert.deepEqual(
    all.map((n) => [n.name, n.kind]),
    [
      ["拓扑园区（1 块表，1 离线）", "area"],
      ["拓扑楼（1 块表，1 离线）", "area"],
      ["+ 拓扑DTU（1）", "collector"],
      ["另一园区（0 块表，0 离线）", "area"],
    ],
  );
  const chart = page.getByTestId("topology-chart");
  assert.match((await chart.getAttribute("aria-label")) ?? "", /3 个区域，1 个采集器，1 块表，其中 1 块离线/);
  // Searching a meter's last digits opens its collector and marks it; it never reported, so offline.
  await page.getByTestId("topology-search").locator("input").fill("0201");
  const found = await nodesShown("T101 · 000000000201");
  assert.deepEqual(
    found.find((n) => n.name === "T101 · 000000000201"),
    { name: "T101 · 000000000201", kind: "meter", offline: true, match: true },
  );
  await page.getByTestId("topology-found").getByText("找到 1 个").waitFor();
  await expectAccessible(page, "topology dialog");
  await page.keyboard.press("Escape");
  await page.getByTestId("topology-dialog").waitFor({ state: "detached" });

  // A ticked area: only what lies below it.
  await rowsWith(areas, "拓扑园区").first().locator(".ant-checkbox-input").first().check();
  await areas.getByTestId("area-topology").click();
  const below = (await nodesShown("拓扑DTU")).map((n) => n.name);
  assert.ok(!below.some((name) => name.startsWith("另一园区")), below.join(","));
});

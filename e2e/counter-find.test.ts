import assert from "node:assert/strict";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import type { CounterHit, Page } from "@meterline/contracts";
import { expectAccessible } from "./axe.ts";
import { repoRoot, textOf, useBrowserSuite } from "./harness.ts";
import { call, eventually, signInOperator, tokenOf } from "./registry-helpers.ts";

// The demo site with its simulated fleet: the account in arrears is cut off by the gateway as the fleet comes up.
const suite = useBrowserSuite({ env: { DEMO_DATA: "1", POLL_INTERVAL_SECONDS: "10" } });
const demo = { tenantId: "100001", password: "admin" };

test("the counter finds a demo room typed as a desk says it: its owner, each meter's balance apart, and the cut", async () => {
  const { page, errors } = suite.session;
  const base = suite.server.baseUrl;
  const token = await tokenOf(base, demo.tenantId, "admin", demo.password);
  const search = (query: Record<string, string>) =>
    call<Page<CounterHit>>(base, token, "/api/blade-pms/ownerRecharge/search", { query });

  // The room of the account in arrears, once the gateway has cut its electric meter off.
  let room: CounterHit | undefined;
  await eventually(async () => {
    const [arrears] = (await search({ alarmLevel: "3" })).records;
    assert.ok(arrears?.room, "a room in arrears");
    assert.ok(
      arrears.meters.some((m) => m.account?.alarmLevel === 3 && m.switchStatus === 1),
      "its meter is cut off",
    );
    room = arrears;
  }, 120_000);
  const [building = "", number = ""] = room!.room!.label.split(" ");
  const electric = room!.meters.find((m) => m.energyType === 1)!;
  const water = room!.meters.find((m) => m.energyType === 2)!;
  assert.ok(electric && water, `${room!.room!.label} has an electric and a water meter`);

  await signInOperator(page, { ...demo, token });
  await page.goto("/money/ownerrecharge");
  const counter = page.getByTestId("counter-page");
  const box = counter.getByLabel("查找业主、房间或表计");
  // "1号楼 109" as a desk says it, without the space: the room comes first. Balances move with the
  // fleet's usage: the lines are compared with the answer the counter itself received.
  const answered = page.waitForResponse(
    (res) => res.url().includes("/ownerRecharge/search") && res.url().includes(encodeURIComponent(number)),
  );
  await box.fill(`${building}${number}`);
  await box.press("Enter");
  const shown = ((await (await answered).json()) as { data: Page<CounterHit> }).data.records[0]!;
  assert.equal(shown.room?.id, room!.room!.id);
  const hit = counter.getByTestId("counter-hit").first();
  await eventually(async () =>
    assert.equal(await textOf(hit.getByTestId("counter-hit-room")), room!.room!.label),
  );
  assert.equal(await textOf(hit.getByTestId("counter-owner")), room!.owner!.ownerName);
  assert.equal(await textOf(hit.getByTestId("counter-hit-phone")), room!.owner!.phone);

  // Each meter on its own line: its number whole, its own balance (never a sum), its level, its supply.
  const lines = hit.getByTestId("counter-hit-meter");
  assert.equal(await lines.count(), 2);
  const lineOf = (energy: number) =>
    hit.locator(`[data-testid="counter-hit-meter"][data-energy="${energy}"]`);
  for (const [meter, kind, supply] of [
    [shown.meters.find((m) => m.energyType === 1)!, "电", "拉闸"],
    [shown.meters.find((m) => m.energyType === 2)!, "水", "合闸"],
  ] as const) {
    const line = lineOf(meter.energyType);
    assert.match(await textOf(line), new RegExp(`^${kind}`));
    assert.equal(await textOf(line.getByTestId("counter-hit-code")), meter.productCode);
    assert.equal(await textOf(line.getByTestId("counter-hit-balance")), meter.account!.balance);
    assert.equal(await textOf(line.getByTestId("counter-hit-supply")), supply);
  }
  assert.equal(await textOf(lineOf(1).locator(".counter-level").first()), "欠费");

  // Nothing is cut off: every number and amount shows whole, none clipped by its box.
  const clipped = await counter
    .getByTestId("counter-hits")
    .locator(".counter-code, .counter-level, .counter-hit-room")
    .evaluateAll((nodes) =>
      nodes.filter((node) => node.scrollWidth > node.clientWidth + 1).map((node) => node.textContent),
    );
  assert.deepEqual(clipped, []);
  await expectAccessible(page, "counter hits");
  const folder = path.join(repoRoot, "e2e", "artifacts");
  await mkdir(folder, { recursive: true });
  await counter.getByTestId("counter-hits").screenshot({ path: path.join(folder, "counter-find.png") });

  // The other spoken forms find the same room first; "305" alone lists each building's 305 by name.
  for (const typed of [
    `${building} ${number}`,
    `${building.replace("号楼", "-")}${number}`,
    `${building.replace("号楼", "栋")}${number}`,
  ]) {
    await box.fill(typed);
    await box.press("Enter");
    await eventually(async () =>
      assert.equal(await textOf(counter.getByTestId("counter-hit-room").first()), room!.room!.label, typed),
    );
  }
  await box.fill("305");
  await box.press("Enter");
  await eventually(async () =>
    assert.deepEqual(await counter.getByTestId("counter-hit-room").allInnerTexts(), [
      "1号楼 305",
      "2号楼 305",
      "3号楼 305",
      "4号楼 305",
    ]),
  );
  await page.screenshot({ path: path.join(folder, "counter-find-305.png") });

  // Choosing the owner opens their accounts for the desk, as before.
  await box.fill(room!.room!.label);
  await box.press("Enter");
  await eventually(async () =>
    assert.equal(await textOf(hit.getByTestId("counter-hit-room")), room!.room!.label),
  );
  await hit.getByTestId("counter-owner").click();
  await counter
    .getByTestId("counter-accounts")
    .locator(".ant-table-row", { hasText: electric.productCode })
    .waitFor();
  assert.deepEqual(errors, []);
});

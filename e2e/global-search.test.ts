import assert from "node:assert/strict";
import { test } from "node:test";
import type { Page } from "playwright-core";
import { expectAccessible } from "./axe.ts";
import { useBrowserSuite } from "./harness.ts";
import { call, signInOperator, tokenOf } from "./registry-helpers.ts";

// The demo site: a park of four buildings ("1号楼" … "4号楼") with rooms 101 … 510 each, owners
// with 139… phones, and the simulated fleet's meters.
const suite = useBrowserSuite({ env: { DEMO_DATA: "1" } });
const demo = { tenantId: "100001", password: "admin" };

interface TreeNode {
  id: string;
  title: string;
  children?: TreeNode[];
}
const child = (nodes: TreeNode[] | undefined, title: string) => nodes?.find((n) => n.title === title);

/**
 * Does `action` and waits until the console goes to `path` (the detail pages are routes of their
 * own; going there is what the search decides), then comes back to where it was.
 */
async function opens(page: Page, path: string, action: () => Promise<void>): Promise<void> {
  const went = page.waitForEvent("framenavigated", {
    predicate: (frame) => frame === page.mainFrame() && new URL(frame.url()).pathname === path,
    timeout: 10_000,
  });
  await action();
  await went;
  await page.goBack();
  await page.getByTestId("global-search-input").waitFor();
}

test("the top bar's search finds a room by building and number, an owner by phone and a meter by its last digits, each opening its page", async () => {
  const { page } = suite.session;
  const base = suite.server.baseUrl;
  const token = await tokenOf(base, demo.tenantId, "admin", demo.password);
  // What each search must open, read from the registry's own calls.
  const rooms = await call<TreeNode[]>(base, token, "/api/blade-pms/room/tree");
  // Room nodes read with their building, so the chosen value reads whole.
  const room = child(child(child(rooms, "阳光公寓")?.children, "2号楼")?.children, "2号楼 305");
  assert.ok(room, "the demo has room 305 in building 2");
  const owners = await call<{ records: { id: string; phone: string }[] }>(
    base,
    token,
    "/api/blade-pms/owner/page",
    {
      query: { phone: "13910000000" },
    },
  );
  const owner = owners.records[0]!;
  const meters = await call<{ records: { id: string; productCode: string }[] }>(
    base,
    token,
    "/api/blade-pms/meter/page",
    { query: { size: "1" } },
  );
  const meter = meters.records[0]!;
  const collectors = await call<{ records: { id: string; collectorCode: string }[] }>(
    base,
    token,
    "/api/blade-pms/collector/page",
    { query: { size: "1" } },
  );
  const collector = collectors.records[0]!;

  await signInOperator(page, { ...demo, token });
  const box = page.getByTestId("global-search-input");
  const panel = page.getByTestId("global-search-panel");
  const hits = panel.getByTestId("search-hit");

  // A room as people say it: building, then number. The keyboard opens it.
  await box.fill("2号楼 305");
  await hits.first().waitFor();
  assert.deepEqual(await panel.getByTestId("search-group-room").getByTestId("search-hit").count(), 1);
  assert.match((await hits.first().textContent()) ?? "", /阳光公寓 \/ 2号楼 \/ 305/);
  await expectAccessible(page, "global search results");
  await box.press("ArrowDown");
  await box.press("ArrowUp");
  await opens(page, `/pms/room/detail/${room.id}`, () => box.press("Enter"));

  // An owner by the phone number.
  await box.fill(owner.phone);
  const ownerHit = panel.locator(`[data-testid="search-hit"][data-kind="owner"]`);
  await ownerHit.first().waitFor();
  assert.equal(await ownerHit.count(), 1);
  await opens(page, `/pms/owner/detail/${owner.id}`, () => ownerHit.click());

  // A meter by the last six digits printed on it.
  await box.fill(meter.productCode.slice(-6));
  const meterHit = panel.locator(`[data-testid="search-hit"][data-href="/pms/meter/detail/${meter.id}"]`);
  await meterHit.waitFor();
  assert.match((await meterHit.textContent()) ?? "", new RegExp(meter.productCode));
  await opens(page, `/pms/meter/detail/${meter.id}`, () => meterHit.click());

  // Esc closes the panel and leaves the page where it is.
  const here = page.url();
  await box.fill("305");
  await hits.first().waitFor();
  await box.press("Escape");
  await panel.waitFor({ state: "hidden" });
  assert.equal(page.url(), here);

  // Ctrl+K lists the same hits beside the menus.
  await page.keyboard.press("Control+k");
  const overlay = page.getByTestId("menu-search");
  await page.getByTestId("menu-search-input").fill("2号楼 305");
  const overlayHit = overlay.locator(`[data-testid="search-hit"][data-kind="room"]`);
  await overlayHit.waitFor();
  await expectAccessible(page, "menu search with global search results");
  await opens(page, `/pms/room/detail/${room.id}`, () => overlayHit.click());

  // A collector has no page of its own: the collector screen opens showing it alone.
  await box.fill(collector.collectorCode);
  await panel.locator(`[data-testid="search-hit"][data-kind="collector"]`).first().click();
  await page.waitForURL((url) => url.pathname === "/pms/collector");
  assert.equal(new URL(page.url()).searchParams.get("collectorCode"), collector.collectorCode);
  await page.getByTestId("collector-link-filter").waitFor();
  const table = page.locator('.ml-page[data-page="/pms/collector"] .ant-table-row');
  await table.first().waitFor();
  assert.equal(await table.count(), 1);
});

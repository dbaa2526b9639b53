import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Browser, Locator, Page } from "playwright-core";
import { expectAccessible } from "../axe.ts";
import { toast } from "../crud-helpers.ts";
import { launchBrowser, openSession, type RunningServer, signIn, startServer, textOf } from "../harness.ts";
import { call, eventually, signInOperator, tokenOf } from "../registry-helpers.ts";

/**
 * A manager of the demo site goes from a high loss to the money it moves, through the console only:
 * on 线损分析 she finds the building whose loss is the highest yesterday (read from the table), opens
 * its suspects from there (窃电与漏水 filtered by that node), confirms one with a reason, then opens
 * 公摊分摊 for last month on that building, previews it and books it. Its total is above the site's
 * approval threshold: it waits, a second person approves it from the bell, and it is booked: the
 * run reads 已入账 and this month's statement of the site carries its total.
 */

let server: RunningServer;
let browser: Browser;
let token: string;
const demo = { tenantId: "100001", password: "admin" };
const approver = { username: "approver", password: "Approver-pw1", name: "钱审批" };

before(async () => {
  server = await startServer({ DEMO_DATA: "1" });
  browser = await launchBrowser();
  token = await tokenOf(server.baseUrl, demo.tenantId, "admin", demo.password);
  // The site's money policy and its second person are set up beforehand; the story is the console's.
  await call(server.baseUrl, token, "/api/blade-pms/money-policy/submit", {
    body: { threshold: "100.00", approverRole: "admin" },
  });
  const roles = await call<{ id: string; roleAlias: string }[]>(
    server.baseUrl,
    token,
    "/api/blade-system/role/list",
  );
  const admin = roles.find((role) => role.roleAlias === "admin");
  assert.ok(admin, "the demo tenant's administrator role");
  const depts = await call<{ id: string }[]>(server.baseUrl, token, "/api/blade-system/dept/list");
  await call(server.baseUrl, token, "/api/blade-user/submit", {
    body: {
      account: approver.username,
      password: approver.password,
      name: approver.name,
      realName: approver.name,
      roleId: admin.id,
      deptId: depts[0]!.id,
    },
  });
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

/** The month before the current one in Asia/Shanghai (the server's zone), yyyy-MM. */
function lastMonth(): string {
  const [y, m] = new Intl.DateTimeFormat("en-CA", {
    timeZone: "Asia/Shanghai",
    year: "numeric",
    month: "2-digit",
  })
    .format(new Date())
    .split("-")
    .map(Number);
  return new Date(Date.UTC(y!, m! - 2, 1)).toISOString().slice(0, 7);
}
const thisMonth = () =>
  new Intl.DateTimeFormat("en-CA", { timeZone: "Asia/Shanghai", year: "numeric", month: "2-digit" }).format(
    new Date(),
  );

async function openByMenuSearch(page: Page, label: string, testId: string): Promise<Locator> {
  await page.keyboard.press("Control+k");
  await page.keyboard.type(label);
  await page.getByTestId("menu-search-label").filter({ hasText: label }).first().waitFor();
  await page.keyboard.press("Enter");
  const screen = page.getByTestId(testId);
  await screen.waitFor();
  return screen;
}

/** The electric nodes of the loss table as read on screen: id, name and loss %. */
async function lossRows(table: Locator) {
  const rows = table.locator(".ant-table-row[data-node-id]");
  const read = [];
  for (let i = 0; i < (await rows.count()); i++) {
    const row = rows.nth(i);
    const cells = row.locator("td");
    read.push({
      id: (await row.getAttribute("data-node-id"))!,
      name: (await textOf(cells.nth(0))).trim(),
      percent: Number.parseFloat(await textOf(cells.nth(5))),
    });
  }
  return read;
}

/** The net 公摊 booked this month over the whole site, as the month statement sums the ledger. */
async function bookedThisMonth(): Promise<number> {
  const statement = await call<{ apportion: string }>(
    server.baseUrl,
    token,
    "/api/blade-pms/statement/month",
    {
      query: { month: thisMonth(), scope: "site", size: "1" },
    },
  );
  return Math.abs(Number(statement.apportion));
}

test("a manager follows the highest loss to its suspects, confirms one, and books the building's 公摊 through approval", async () => {
  const requester = await openSession(browser, server.baseUrl);
  const second = await openSession(browser, server.baseUrl);
  try {
    const page = requester.page;
    await signInOperator(page, { ...demo, token });
    await signIn(second.page, { tenantId: demo.tenantId, ...approver });

    // 线损分析 opens on yesterday's electricity: the building with the highest loss is read off it.
    const loss = await openByMenuSearch(page, "线损分析", "line-loss-page");
    const table = loss.getByTestId("line-loss-table");
    let rows: Awaited<ReturnType<typeof lossRows>> = [];
    await eventually(async () => {
      rows = await lossRows(table);
      assert.ok(rows.length >= 4 && rows.every((r) => Number.isFinite(r.percent)), JSON.stringify(rows));
    }, 30_000);
    const highest = rows.reduce((a, b) => (b.percent > a.percent ? b : a));
    for (const other of rows.filter((r) => r !== highest))
      assert.ok(other.percent < highest.percent, `${other.name} ${other.percent} < ${highest.percent}`);
    const state = table.getByTestId(`line-loss-state-${highest.id}`);
    assert.equal(await state.getAttribute("data-state"), "above-band", "the highest is outside its band");
    await expectAccessible(page, "line loss of the demo site");

    // Its suspects: 窃电与漏水 for that node only, each one a meter of that building.
    await table.getByTestId(`line-loss-suspects-${highest.id}`).click();
    const suspects = page.getByTestId("suspects-page");
    await suspects.waitFor();
    const filter = suspects.getByTestId("suspects-node-filter");
    assert.equal(await filter.getAttribute("data-node-id"), highest.id);
    assert.match(await textOf(filter), new RegExp(highest.name));
    const list = suspects.getByTestId("suspects-table");
    let listed: string[] = [];
    await eventually(async () => {
      listed = await list.locator(".ant-table-row").allInnerTexts();
      assert.ok(listed.length > 0, "the building has suspects");
    }, 15_000);
    for (const row of listed) assert.ok(row.includes(highest.name), `${highest.name} in ${row}`);
    // The site's other suspects (3号楼's leak at least) stay out of the node's list.
    const all = await call<{ records: { nodeName: string | null }[] }>(
      server.baseUrl,
      token,
      "/api/blade-pms/suspects/page",
    );
    assert.ok(
      all.records.some((s) => s.nodeName !== highest.name),
      "the site has suspects under other nodes",
    );
    await expectAccessible(page, "suspects of the node");

    // The first is confirmed with what the visit found.
    const reason = "现场核查:电表进线被短接";
    const top = list.locator(".ant-table-row").first();
    await top.getByTestId("suspect-open-0").click();
    const drawer = page.getByTestId("suspect-drawer");
    await drawer.getByTestId("suspect-figures").waitFor();
    await drawer.getByTestId("suspect-reason").fill(reason);
    await drawer.getByTestId("suspect-mark-confirmed").click();
    await toast(page, "已更新");
    await eventually(async () => {
      const text = await textOf(drawer.getByTestId("suspect-figures"));
      assert.ok(text.includes("已确认") && text.includes(reason), text);
    });
    await page.keyboard.press("Escape");
    await eventually(async () => {
      const text = await textOf(list.locator(".ant-table-row", { hasText: reason }).first());
      assert.ok(text.includes("已确认"), text);
    });

    // 公摊分摊 of last month on that building: previewed, then booked.
    const month = lastMonth();
    const shared = await openByMenuSearch(page, "公摊分摊", "apportionment-page");
    await shared.getByTestId("apportionment-node").click();
    await page
      .locator(".ant-select-dropdown:visible .ant-select-item-option", {
        hasText: new RegExp(`^${highest.name} · `),
      })
      .click();
    const totals = shared.getByTestId("apportionment-totals");
    let total = "";
    await eventually(async () => {
      const text = await textOf(totals);
      total = /分摊金额合计\s*([\d.]+)/.exec(text)?.[1] ?? "";
      assert.ok(Number(total) > 100, `above the threshold: ${text}`);
    }, 30_000);
    await shared.getByTestId("apportionment-rooms").locator(".ant-table-row").first().waitFor();
    // What the screen previews is the node's month as the server computes it: every room's meter.
    const preview = await call<{ total: string; rooms: unknown[] }>(
      server.baseUrl,
      token,
      "/api/blade-pms/apportionment/preview",
      { query: { nodeId: highest.id, month } },
    );
    assert.equal(preview.total, total);
    const tenantMeters = await call<{ total: number }>(
      server.baseUrl,
      token,
      "/api/blade-pms/meteringnodemeter/page",
      { query: { nodeId: highest.id, meterRole: "1", size: "1" } },
    );
    assert.ok(tenantMeters.total > 0);
    assert.equal(preview.rooms.length, tenantMeters.total, `every 分户表 of ${highest.name}`);
    await expectAccessible(page, "apportionment preview");
    const before = await bookedThisMonth();
    await shared.getByTestId("apportionment-book").click();
    await page.getByTestId("apportionment-book-ok").click();
    await toast(page, "已提交审批");
    const run = shared
      .getByTestId("apportionment-runs")
      .locator(".ant-table-row", { hasText: month })
      .first();
    await eventually(async () => {
      const text = await textOf(run);
      assert.ok(text.includes("待审批") && text.includes(total), text);
    });
    assert.equal(await bookedThisMonth(), before, "nothing booked while it waits");

    // The second person approves it from the bell.
    const other = second.page;
    await other.reload();
    await other.getByTestId("notice-button").click();
    const notice = other.getByTestId("approval-notice").filter({ hasText: total });
    await notice.waitFor();
    await notice.getByTestId("approval-notice-open").click();
    const handle = other.getByTestId("approval-handle");
    await handle.waitFor();
    assert.equal(await textOf(handle.getByTestId("approval-kind")), "公摊分摊");
    assert.equal(await textOf(handle.getByTestId("approval-amount")), total);
    assert.equal(await textOf(handle.getByTestId("approval-room")), highest.name);
    assert.match(await textOf(handle.getByTestId("approval-reason")), new RegExp(`公摊 ${month}`));
    await expectAccessible(other, "approval of the 公摊");
    await handle.getByTestId("approval-comment").fill("核对公区表读数无误,同意");
    await handle.getByTestId("approval-pass").click();
    await other.locator(".ant-message-notice", { hasText: "已同意,已入账" }).first().waitFor();

    // Booked: the run says so, and this month's statement carries it.
    await page.reload();
    await shared.waitFor();
    await shared.getByTestId("apportionment-node").click();
    await page
      .locator(".ant-select-dropdown:visible .ant-select-item-option", {
        hasText: new RegExp(`^${highest.name} · `),
      })
      .click();
    await eventually(async () => {
      const text = await textOf(
        shared.getByTestId("apportionment-runs").locator(".ant-table-row", { hasText: month }).first(),
      );
      assert.ok(text.includes("已入账"), text);
    }, 15_000);
    // The site's ledger for this month now carries the run's total, to the fen.
    assert.equal(
      Math.round((await bookedThisMonth()) * 100) - Math.round(before * 100),
      Math.round(Number(total) * 100),
    );
    assert.deepEqual([...requester.errors, ...second.errors], [], "no page error");
    assert.deepEqual([...requester.cspViolations, ...second.cspViolations], []);
  } finally {
    await requester.context.close();
    await second.context.close();
  }
});

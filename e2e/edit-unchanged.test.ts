import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import {
  codeScreen,
  datasourceScreen,
  type MenuRoute,
  menuCodeOf,
  type ResourceDef,
  resourceBase,
  resources,
} from "@meterline/contracts";
import type { Browser, Locator, Page } from "playwright-core";
import { clickRowAction, dialog, field, pick } from "./crud-helpers.ts";
import { type Actor, firstRows, seedRichUser, seeds } from "./edit-seeds.ts";
import {
  admin,
  launchBrowser,
  openSession,
  type RunningServer,
  type Session,
  signIn,
  startServer,
  storedToken,
} from "./harness.ts";
import { call } from "./registry-helpers.ts";

/**
 * Every form must take a saved record back AS IT WAS SAVED: open 编辑, press 保存 without touching
 * anything, and the dialog closes with success and the record is what it was. One server with the
 * demo site, one browser; the demo tenant's administrator edits the tenant's screens and the
 * platform administrator the platform's, each in one page for the whole file.
 */

/** Every declared resource with a form: all but those whose rows only the server writes (logs, readings). */
const declared: ResourceDef[] = [...Object.values(resources), datasourceScreen, codeScreen];
const withForm = declared.filter(
  (def) => !def.readOnly && Object.values(def.fields).some((f) => f.form !== false && !f.secret),
);

/** The dictionaries' screens edit two kinds of rows, the dictionaries and their items: both are tried. */
interface Target {
  def: ResourceDef;
  face: "rows" | "items";
}
const targets: Target[] = withForm.flatMap((def) =>
  def.name === "dict" || def.name === "dictBiz"
    ? [
        { def, face: "rows" as const },
        { def, face: "items" as const },
      ]
    : [{ def, face: "rows" as const }],
);

/**
 * Forms whose 保存 asks for more than an update, and what the server answers an unchanged one: a
 * queued message's 保存 sends it again, which the server refuses for one already sent (the demo's
 * all are). The form must still pass and send the record as it was.
 */
const refusedUnchanged: Partial<Record<string, string>> = {
  messageQueue: "该消息已发送成功,无需重新发送",
};

interface Operator extends Actor {
  session: Session;
  /** Screen paths by menu code, as the side menu of this user offers them. */
  paths: Map<string, string>;
}

let server: RunningServer;
let browser: Browser;
let tenant: Operator;
let platform: Operator;
/** The row a resource's test edits where it is not the first one listed: a user with an avatar and a birthday. */
const chosen = new Map<string, string>();

async function operatorOf(who: Operator["who"], account: Parameters<typeof signIn>[1]): Promise<Operator> {
  const session = await openSession(browser, server.baseUrl);
  await signIn(session.page, account);
  const token = (await storedToken(session.page)) ?? "";
  const routes = await call<MenuRoute[]>(server.baseUrl, token, "/api/blade-system/menu/routes");
  const paths = new Map<string, string>();
  const walk = (nodes: MenuRoute[]) => {
    for (const node of nodes) {
      paths.set(node.code, node.path);
      walk(node.children ?? []);
    }
  };
  walk(routes);
  return { who, baseUrl: server.baseUrl, token, session, paths };
}

before(async () => {
  server = await startServer({ DEMO_DATA: "1" });
  browser = await launchBrowser();
  tenant = await operatorOf("tenant", { tenantId: "100001", username: "admin", password: "admin" });
  platform = await operatorOf("platform", admin);
  chosen.set("user", await seedRichUser(tenant));
});

after(async () => {
  for (const operator of [tenant, platform]) {
    if (!operator) continue;
    await operator.session.context.close();
    assert.deepEqual(operator.session.cspViolations, [], "the Content-Security-Policy blocked something");
    assert.deepEqual(operator.session.errors, [], "no page error");
  }
  await browser?.close();
  await server?.stop();
});

/** The tenant's administrator where the tenant has the screen, else the platform's. */
function operatorFor(def: ResourceDef): { operator: Operator; path: string } {
  const code = menuCodeOf(def);
  for (const operator of [tenant, platform]) {
    const path = operator.paths.get(code);
    if (path) return { operator, path };
  }
  throw new Error(`no menu shows ${def.name} (${code})`);
}

/** A record as the server details it, without the stamps every save renews. */
async function detail(operator: Operator, path: string, query: Record<string, string>) {
  const row = await call<Record<string, unknown>>(server.baseUrl, operator.token, path, { query });
  const { updateTime: _time, updateUser: _user, ...rest } = row;
  return rest;
}

/** Moves the console to a screen the way its menu does, without loading the page again. */
async function visit(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => {
    window.history.pushState(null, "", to);
    window.dispatchEvent(new PopStateEvent("popstate"));
  }, path);
}

/** The shown screen (kept-alive ones stay in the page, hidden). */
const shown = (page: Page) => page.locator(".ml-page:not([hidden])");

/** Waits for a table to have loaded its rows. */
async function loaded(table: Locator): Promise<Locator> {
  await table.locator(".ant-table-row").first().waitFor();
  await table.locator(".ant-spin-spinning").waitFor({ state: "detached" });
  return table;
}

/**
 * Presses 保存 and waits for the outcome: the dialog gone, or what the form or the server said
 * instead (answered, so the caller decides whether that was expected).
 */
async function save(page: Page, modal: Locator, ok: Locator): Promise<string | null> {
  // An error toast of the previous form (the message queue's refusal) stays 3 s: it must not be
  // taken for this save's answer.
  await page.waitForFunction(() => !document.querySelector(".ant-message-notice-error"));
  await ok.click();
  const refused = modal.locator(".ant-form-item-explain-error").first();
  const serverError = page.locator(".ant-message-notice-error").first();
  const outcome = await Promise.race([
    modal.waitFor({ state: "detached" }).then(() => "closed"),
    refused.waitFor().then(() => "refused"),
    serverError.waitFor().then(() => "error"),
  ]);
  if (outcome === "closed") return null;
  const said = [
    ...(await modal.locator(".ant-form-item-explain-error").allInnerTexts()),
    ...(await page.locator(".ant-message-notice-error").allInnerTexts()),
  ];
  return said.join(" | ");
}

/** 保存 of an unchanged form closes it with the success toast. */
async function saveUnchanged(page: Page, modal: Locator, ok: Locator, success = "修改成功") {
  const refusal = await save(page, modal, ok);
  assert.equal(refusal, null, `保存 of the unchanged record was refused: ${refusal}`);
  await page.locator(".ant-message-notice", { hasText: success }).first().waitFor();
}

/** Opens a row's 编辑 and waits until the dialog's pickers have loaded their choices. */
async function openEdit(page: Page, row: Locator): Promise<Locator> {
  await clickRowAction(row, "row-edit");
  const modal = dialog(page);
  await modal.waitFor();
  await page.waitForLoadState("networkidle");
  return modal;
}

/** The row a target edits, on its screen. */
async function rowToEdit(page: Page, { def, face }: Target): Promise<Locator> {
  const screenOf = (pane = "") =>
    shown(page).locator(`${pane} [data-testid="resource-page"][data-resource="${def.name}"]`).first();
  if (face === "rows") {
    const screen = await loaded(screenOf());
    const wanted = chosen.get(def.name);
    return wanted
      ? screen.locator(`.ant-table-row[data-row-key="${wanted}"]`)
      : screen.locator(".ant-table-row").first();
  }
  if ((await shown(page).getByTestId("dict-parents").count()) > 0) {
    // Dictionaries beside their items: the first dictionary's first item (a click on its number).
    const dictionaries = await loaded(screenOf('[data-testid="dict-parents"]'));
    await dictionaries.locator(".ant-table-row").first().locator("td").nth(1).click();
    return (await loaded(screenOf('[data-testid="dict-children"]'))).locator(".ant-table-row").first();
  }
  // A dictionary tree: the first dictionary unfolded, its first item.
  const tree = await loaded(screenOf());
  await tree.locator(".ant-table-row").first().locator(".ant-table-row-expand-icon").click();
  const item = tree.locator(".ant-table-row-level-1").first();
  await item.waitFor();
  return item;
}

test("every form saves a record unchanged: the dialog closes with success and the record is as it was", async (t) => {
  for (const target of targets) {
    const { def, face } = target;
    await t.test(`${def.name}${face === "items" ? " items" : ""}`, async () => {
      const { operator, path } = operatorFor(def);
      const { page } = operator.session;
      const base = resourceBase(def);
      if ((await firstRows(operator, base, def)).length === 0) {
        const seed = seeds[def.name];
        assert.ok(seed, `${def.name} lists no row and has no seed`);
        await seed(operator);
      }
      await visit(page, path);
      const row = await rowToEdit(page, target);
      const id = (await row.getAttribute("data-row-key")) ?? "";
      assert.ok(id, "the row carries its id");
      const before = await detail(operator, `${base}/detail`, { id });

      const modal = await openEdit(page, row);
      const ok = modal.getByTestId("crud-dialog-ok");
      const refusal = refusedUnchanged[def.name];
      if (refusal) {
        const sent = page.waitForRequest((request) => request.url().includes(`${base}/submit`));
        const said = (await save(page, modal, ok)) ?? "";
        assert.ok(said.includes(refusal), `the server's refusal, not the form's: ${said}`);
        const body = (await sent).postDataJSON() as Record<string, unknown>;
        for (const [name, value] of Object.entries(body)) assert.equal(value, before[name] ?? "", name);
        await modal.locator(".ant-modal-close").click();
        await modal.waitFor({ state: "detached" });
      } else {
        await saveUnchanged(page, modal, ok);
      }
      assert.deepEqual(await detail(operator, `${base}/detail`, { id }), before);
    });
  }
  assert.equal(targets.length, withForm.length + 2, "the two dictionaries are tried twice");
});

test("bespoke forms of saved records save them unchanged: the profile, a region, a user's platform, the IoT platforms", async (t) => {
  await t.test("profile", async () => {
    const { page } = tenant.session;
    const own = await call<{ id: string }>(server.baseUrl, tenant.token, "/api/blade-user/info");
    const before = await detail(tenant, "/api/blade-user/detail", { id: own.id });
    await visit(page, "/info/index");
    const form = page.getByTestId("info-profile");
    await form.waitFor();
    await page.waitForLoadState("networkidle");
    await page.getByTestId("info-save").click();
    await page.locator(".ant-message-notice", { hasText: "修改成功" }).first().waitFor();
    assert.deepEqual(await form.locator(".ant-form-item-explain-error").allInnerTexts(), []);
    assert.deepEqual(await detail(tenant, "/api/blade-user/detail", { id: own.id }), before);
  });

  await t.test("region", async () => {
    const { page } = platform.session;
    await visit(page, platform.paths.get("region") ?? "");
    const row = (await loaded(page.getByTestId("region-table"))).locator(".ant-table-row").first();
    const code = (await row.getAttribute("data-row-key")) ?? "";
    const before = await detail(platform, "/api/blade-system/region/detail", { code });
    await row.getByRole("button", { name: "编辑" }).click();
    const modal = page.locator(".ant-modal", { has: page.getByTestId("region-form") });
    await modal.waitFor();
    await page.waitForLoadState("networkidle");
    await saveUnchanged(page, modal, modal.getByTestId("region-save"));
    assert.deepEqual(await detail(platform, "/api/blade-system/region/detail", { code }), before);
  });

  await t.test("user platform", async () => {
    const { page } = tenant.session;
    const id = chosen.get("user") ?? "";
    const before = await detail(tenant, "/api/blade-user/platform-detail", { id });
    await visit(page, tenant.paths.get("user") ?? "");
    const screen = await loaded(shown(page).locator('[data-testid="resource-page"][data-resource="user"]'));
    await clickRowAction(screen.locator(`.ant-table-row[data-row-key="${id}"]`), "row-platform");
    const modal = page.locator(".ant-modal", { has: page.getByTestId("user-platform-dialog") });
    await modal.waitFor();
    await page.waitForLoadState("networkidle");
    await saveUnchanged(page, modal, modal.getByTestId("user-platform-ok"));
    assert.deepEqual(await detail(tenant, "/api/blade-user/platform-detail", { id }), before);
  });

  // The demo tenant's three platforms, each card saved as loaded: secrets sent back masked are kept.
  // Each save's toast names its platform: an earlier card's toast is not taken for this one's.
  const named: Record<string, string> = { ctwing: "CTWing", onenet: "OneNET", iotda: "IoTDA" };
  for (const iot of ["ctwing", "onenet", "iotda"]) {
    await t.test(`iot platform ${iot}`, async () => {
      const { page } = tenant.session;
      const before = await detail(tenant, "/api/blade-pms/iot/platform/detail", { platform: iot });
      assert.ok(before.appId, `the demo configures ${iot}`);
      await visit(page, tenant.paths.get("iotPlatform") ?? "");
      const card = shown(page).locator(`[data-testid="iot-platform-${iot}"][data-configured="1"]`);
      await card.waitFor();
      await page.waitForLoadState("networkidle");
      await card.getByTestId(`iot-save-${iot}`).click();
      await page
        .locator(".ant-message-notice", { hasText: new RegExp(`${named[iot]}.*配置已保存`) })
        .first()
        .waitFor();
      assert.deepEqual(await card.locator(".ant-form-item-explain-error").allInnerTexts(), []);
      assert.deepEqual(await detail(tenant, "/api/blade-pms/iot/platform/detail", { platform: iot }), before);
    });
  }
});

test("a meter's device link saves unchanged: the demo's CTWing water meter keeps its platform and device id", async () => {
  const { page } = tenant.session;
  const found = await call<{ records: { id: string }[] }>(
    server.baseUrl,
    tenant.token,
    "/api/blade-pms/water/page",
    {
      query: { productCode: "30260000000001", current: "1", size: "1" },
    },
  );
  const meterId = found.records[0]?.id ?? "";
  const query = { energyType: "2", meterId };
  const before = await detail(tenant, "/api/blade-pms/iot/device/detail", query);
  assert.equal(before.deviceId, "868000000000001", "the demo links this meter to CTWing");
  await visit(page, `/pms/water/detail/${meterId}`);
  const card = shown(page).getByTestId("iot-device-card");
  await card.getByTestId("iot-device-id").waitFor();
  await card.getByTestId("iot-device-edit").click();
  const modal = page.locator(".ant-modal", { has: page.getByTestId("iot-device-form") });
  await modal.waitFor();
  await saveUnchanged(page, modal, modal.getByTestId("iot-device-ok"), "已绑定设备 868000000000001");
  // The same link, and the meter's report history kept (a wake may have moved it on meanwhile).
  const after = await detail(tenant, "/api/blade-pms/iot/device/detail", query);
  assert.deepEqual([after.platform, after.deviceId], [before.platform, before.deviceId]);
  if (before.lastReportTime) assert.ok(String(after.lastReportTime) >= String(before.lastReportTime));
  if (before.reportIntervalSeconds) assert.ok(after.reportIntervalSeconds);
});

/** Edits the first row of a screen: `change` fills the form; answers the record before and after. */
async function editFirst(path: string, def: ResourceDef, change: (page: Page) => Promise<void>) {
  const { page } = tenant.session;
  const base = resourceBase(def);
  await visit(page, path);
  const screen = await loaded(
    shown(page).locator(`[data-testid="resource-page"][data-resource="${def.name}"]`),
  );
  const row = screen.locator(".ant-table-row").first();
  const id = (await row.getAttribute("data-row-key")) ?? "";
  const before = await detail(tenant, `${base}/detail`, { id });
  const modal = await openEdit(page, row);
  await change(page);
  await saveUnchanged(page, modal, modal.getByTestId("crud-dialog-ok"));
  return { before, after: await detail(tenant, `${base}/detail`, { id }) };
}

/** Asserts that only `changed` differ between the records, and how. */
function assertChanged(
  records: { before: Record<string, unknown>; after: Record<string, unknown> },
  changed: Record<string, unknown>,
) {
  assert.deepEqual(records.after, { ...records.before, ...changed });
}

test("changed values are saved exactly as typed: a decimal, a money amount, an integer, a date and time, a picker", async () => {
  const { page } = tenant.session;
  // A room's 面积 (the pilot site's case) and an alarm scheme's amount, as exact text both ways.
  assertChanged(
    await editFirst(tenant.paths.get("room") ?? "", resources.room, async () => {
      assert.equal(await field(page, "floorArea").inputValue(), "55.00");
      await field(page, "floorArea").fill("66.25");
    }),
    { floorArea: "66.25" },
  );
  assertChanged(
    await editFirst(tenant.paths.get("alarmScheme") ?? "", resources.alarmScheme, async () => {
      await field(page, "firstAlarm").fill("987654.32");
    }),
    { firstAlarm: "987654.32" },
  );
  // A meter's charging scheme (a link picker), its CT ratio (an integer) and install time.
  const schemes = await firstRows(tenant, resourceBase(resources.chargingScheme), resources.chargingScheme);
  const touScheme = schemes.find((s) => s.schemeName === "商铺分时电价");
  assert.ok(touScheme, "the demo has a time-of-use scheme");
  const meter = await editFirst(tenant.paths.get("meter") ?? "", resources.meter, async () => {
    await pick(page, "chargingSchemeId", "商铺分时电价");
    await field(page, "ctRatio").fill("40");
    await field(page, "installTime").fill("2026-02-03 04:05:06");
    await field(page, "installTime").press("Enter");
  });
  assertChanged(meter, {
    chargingSchemeId: String(touScheme.id),
    chargingSchemeName: "商铺分时电价",
    ctRatio: 40,
    installTime: "2026-02-03 04:05:06",
  });
});

import assert from "node:assert/strict";
import { test } from "node:test";
import { expectAccessible } from "./axe.ts";
import { settled } from "./crud-helpers.ts";
import { textOf, useBrowserSuite } from "./harness.ts";
import { call, eventually, openDropdown, signInOperator, tokenOf } from "./registry-helpers.ts";
import { downloadOf, sheetRows } from "./workbook-helpers.ts";

// The demo site: its low balances ring as soon as the fleet's first reads are priced.
const suite = useBrowserSuite({ env: { DEMO_DATA: "1", POLL_INTERVAL_SECONDS: "10" } });
const demo = { tenantId: "100001", password: "admin" };

interface Alarm {
  id: string;
  ruleCode: string;
  checkRuleName: string;
  productCode: string;
  roomName: string;
}

const api = async <T>(path: string, query: Record<string, string> = {}) => {
  const { baseUrl } = suite.server;
  const token = await tokenOf(baseUrl, demo.tenantId, "admin", demo.password);
  return call<T>(baseUrl, token, `/api/blade-pms/${path}`, { query });
};
const alarming = async (query: Record<string, string> = {}) =>
  (await api<{ records: Alarm[] }>("checkRecord/page", { alarmStatus: "1", size: "200", ...query })).records;

test("the home card opens 告警记录 on one rule; the area tree narrows it and the export writes the rows it shows", async () => {
  const { page } = suite.session;
  const { baseUrl } = suite.server;
  // An alarm of a meter installed in a room: its rule and building are the filters below.
  let chosen: Alarm | undefined;
  await eventually(async () => {
    chosen = (await alarming()).find((alarm) => / /.test(alarm.roomName));
    assert.ok(chosen, "an alarm of a meter in a room");
  }, 90_000);
  const { ruleCode, checkRuleName } = chosen!;
  const building = chosen!.roomName.split(" ")[0]!;

  const token = await tokenOf(baseUrl, demo.tenantId, "admin", demo.password);
  await signInOperator(page, { ...demo, token });
  const card = page.getByTestId("home-alarms");
  const line = card.locator(`[data-rule="${ruleCode}"]`);
  await line.waitFor();
  assert.ok(Number(await textOf(line.getByTestId("home-alarm-count"))) >= 1);
  await expectAccessible(page, "home page with open alarms by rule");
  await line.getByRole("button").click();

  const screen = page.getByTestId("check-records");
  await screen.waitFor();
  await settled(screen);
  await eventually(async () => {
    const rows = await screen.locator(".ant-table-row").allInnerTexts();
    assert.ok(rows.length >= 1);
    for (const row of rows) assert.ok(row.includes(checkRuleName) && row.includes("告警中"), row);
  });

  // The area tree: the building of the chosen alarm's room.
  await screen
    .locator(".ant-form-item", { has: page.locator("#alarmSearch_areaId") })
    .locator(".ant-select")
    .click();
  await openDropdown(page)
    .locator(".ant-select-tree-node-content-wrapper", {
      has: page.locator(".ant-select-tree-title", { hasText: new RegExp(`^${building}$`) }),
    })
    .first()
    .click();
  // The demo's fleet keeps polling, so a meter may start alarming meanwhile: searched again until
  // the table and the server agree.
  let expected: Awaited<ReturnType<typeof alarming>> = [];
  await eventually(async () => {
    await screen.getByTestId("alarm-search").click();
    await settled(screen);
    const rows = await screen.locator(".ant-table-row").allInnerTexts();
    expected = (await alarming({ ruleCode })).filter((a) => a.roomName.startsWith(`${building} `));
    assert.ok(expected.length >= 1);
    assert.equal(rows.length, expected.length, rows.join("\n"));
    for (const row of rows) assert.ok(row.includes(`${building} `) && row.includes(checkRuleName), row);
  });
  // The search button keeps the pointer over it (its lighter hover colour): move away first.
  await page.mouse.move(0, 0);
  await expectAccessible(page, "告警记录 filtered by rule and area");

  const download = await downloadOf(page, () => screen.getByTestId("alarm-export").click());
  assert.match(download.suggestedFilename(), /^告警记录-.*\.xlsx$/);
  const [header, ...lines] = await sheetRows(download);
  assert.deepEqual(header?.slice(0, 4), ["表号", "能源类型", "房间", "告警规则"]);
  // The demo's fleet keeps polling: a meter of the building may start alarming between the table's
  // load and the export. The export holds every alarm the table showed and only alarms of the search.
  const exported = new Set(lines.map((l) => l[0]));
  for (const alarm of expected) assert.ok(exported.has(alarm.productCode), `${alarm.productCode} exported`);
  const since = (await alarming({ ruleCode })).filter((a) => a.roomName.startsWith(`${building} `));
  const allowed = new Set(since.map((a) => a.productCode));
  for (const code of exported) assert.ok(allowed.has(code ?? ""), `${code} alarms under the search`);
  for (const l of lines) {
    assert.ok(l[2]?.startsWith(`${building} `), l.join("|"));
    assert.equal(l[3], checkRuleName);
    assert.match(l[5] ?? "", /^告警中/);
  }
  assert.deepEqual(suite.session.errors, []);
});

test("the bell ignores this time and permanently, each confirmed; with its voice on it speaks a new alarm, not the backlog", async () => {
  const { context, page } = suite.session;
  const { baseUrl } = suite.server;
  // The browser's voice, stubbed: what the console asks it to say is kept for the test to read.
  // As text: the test's compiler names functions with a helper the page does not have.
  await context.addInitScript(`
    window.spokenAlarms = [];
    Object.defineProperty(window, "speechSynthesis", {
      configurable: true,
      value: {
        speak(utterance) { window.spokenAlarms.push(utterance.text); },
        cancel() {},
        getVoices() { return []; },
      },
    });
    if (typeof window.SpeechSynthesisUtterance === "undefined")
      window.SpeechSynthesisUtterance = function (text) { this.text = text; this.lang = ""; };
  `);
  const spoken = () => page.evaluate(() => (window as unknown as { spokenAlarms: string[] }).spokenAlarms);
  const token = await tokenOf(baseUrl, demo.tenantId, "admin", demo.password);
  await eventually(async () => assert.ok((await alarming()).length >= 2, "two alarms to ignore"), 90_000);
  await signInOperator(page, { ...demo, token });

  const bell = async () => {
    const panel = page.getByTestId("notice-panel");
    if (!(await panel.isVisible())) await page.getByTestId("notice-button").click();
    await panel.waitFor();
    return panel;
  };
  const ignoresOf = async (recordId: string) =>
    (
      await api<{ records: { recordId: string; ignoreType: number; reason: string }[] }>("checkIgnore/page", {
        size: "200",
      })
    ).records.filter((i) => i.recordId === recordId);

  // This time: one confirmation, then 操作成功! and the record's ignore.
  const first = (await bell()).getByTestId("notice-card").first();
  const firstId = (await first.getAttribute("data-record"))!;
  await first.getByTestId("notice-ignore-1").click();
  await page.locator(".ant-modal-confirm-title", { hasText: "确定忽略本次告警?" }).waitFor();
  await page.getByTestId("alarm-ignore-ok").click();
  await page.getByText("操作成功!").first().waitFor();
  assert.deepEqual(
    (await ignoresOf(firstId)).map((i) => i.ignoreType),
    [1],
  );

  // Permanently: a blank reason is refused with its warning, then the reason and the confirmation.
  await eventually(async () => {
    const card = (await bell()).getByTestId("notice-card").first();
    assert.notEqual(await card.getAttribute("data-record"), firstId);
  });
  const second = (await bell()).getByTestId("notice-card").first();
  const secondId = (await second.getAttribute("data-record"))!;
  await second.getByTestId("notice-ignore-3").click();
  await page.getByTestId("alarm-reason").waitFor();
  await page.getByTestId("alarm-reason-ok").click();
  await page.getByText("忽略理由不能为空").waitFor();
  assert.deepEqual(await ignoresOf(secondId), []);
  await expectAccessible(page, "the permanent ignore's reason dialog");
  await page.getByTestId("alarm-reason").fill("表计已拆除待更换");
  await page.getByTestId("alarm-reason-ok").click();
  await page.locator(".ant-modal-confirm-title", { hasText: "确定忽略本次告警?" }).waitFor();
  await page.getByTestId("alarm-ignore-ok").click();
  await eventually(async () =>
    assert.deepEqual(
      (await ignoresOf(secondId)).map((i) => [i.ignoreType, i.reason]),
      [[3, "表计已拆除待更换"]],
    ),
  );

  // Voice on; after a reload it is still on, and the alarms already there are not read out.
  await bell();
  await page.getByTestId("notice-voice").click();
  const firstRead = page.waitForResponse((response) => response.url().includes("/checkRecord/upPage"));
  await page.reload();
  await firstRead;
  await (await bell()).getByTestId("notice-card").first().waitFor();
  assert.equal(await page.getByTestId("notice-voice").getAttribute("aria-checked"), "true");
  await expectAccessible(page, "the notice bell with its voice switch");
  assert.deepEqual(await spoken(), []);

  // A jump rule so strict that any advancing register trips it at the fleet's next poll.
  const name = "读数跳变(播报)";
  await call(baseUrl, token, "/api/blade-pms/alarm/submit", {
    body: { ruleCode: "register_jump", checkRuleName: name, threshold: "0.01", enabled: 1 },
  });
  const sentence = await call<string>(baseUrl, token, "/api/blade-pms/message/SpeechByContent", {
    query: { type: "2", checkRuleName: name },
  });
  // The bell reads every 30 s: the new alarm is spoken at its next read after the fleet's poll.
  await eventually(
    async () => assert.ok((await spoken()).includes(sentence), JSON.stringify(await spoken())),
    90_000,
  );
  assert.deepEqual(suite.session.errors, []);
});

test("忽略记录 lists the ignores at work with who, why and until when; lifting one un-silences its alarm", async () => {
  const { page } = suite.session;
  const { baseUrl } = suite.server;
  const token = await tokenOf(baseUrl, demo.tenantId, "admin", demo.password);
  let chosen: Alarm | undefined;
  await eventually(async () => {
    chosen = (await alarming()).find((alarm) => alarm.productCode);
    assert.ok(chosen, "an alarm to ignore");
  }, 90_000);
  await call(baseUrl, token, "/api/blade-pms/checkIgnore/save", {
    method: "POST",
    query: { recordId: chosen!.id, days: "9999", reason: "换表施工中" },
  });

  const silenced = async () =>
    (await api<{ ignored: boolean }>("checkRecord/detail", { id: chosen!.id })).ignored;
  assert.equal(await silenced(), true);

  await signInOperator(page, { ...demo, token });
  await page.goto("/operation/checkrecord");
  const screen = page.getByTestId("check-records");
  await screen.getByTestId("alarm-ignores-open").click();
  const drawer = page.getByTestId("alarm-ignores");
  // A merged message ignores each alarm of its owner: the row of the chosen record's own rule.
  const row = drawer
    .locator(".ant-table-row", { hasText: "换表施工中" })
    .filter({ hasText: chosen!.productCode })
    .filter({ hasText: chosen!.checkRuleName });
  await row.waitFor();
  // The kind, the state and the one who ignored it, whole.
  const shown = await textOf(row);
  for (const part of ["永久忽略", "生效中", "admin"]) assert.ok(shown.includes(part), `${part} in ${shown}`);
  await expectAccessible(page, "忽略记录 drawer");

  await row.getByTestId("alarm-lift").click();
  await page.locator(".ant-modal-confirm", { hasText: chosen!.productCode }).waitFor();
  await page.getByTestId("alarm-lift-ok").click();
  await page.getByText("已撤销忽略").first().waitFor();
  await row.waitFor({ state: "detached" });
  const left = await api<{ records: { recordId: string }[] }>("checkIgnore/page", { size: "200" });
  assert.equal(left.records.filter((i) => i.recordId === chosen!.id).length, 0);
  assert.equal(await silenced(), false, "its record is no longer silenced");
});

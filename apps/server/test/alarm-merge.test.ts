import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { DbReadingsSink } from "../src/modules/metering/readings-sink.db.ts";
import { startTestServer, type TestServer } from "./helpers.ts";
import { buildSite, created } from "./registry-fixtures.ts";

const pms = "/api/blade-pms";
const local = (text: string) => new Date(`${text}+08:00`);

interface Card {
  id: string;
  productCode: string;
  ownerId: string | null;
  ruleCode: string;
  checkRuleName: string;
  content: string;
  merged: number;
  recordIds: string[];
}

/**
 * MERGE_ALARM_FLAG on the alarm scheme: the records stay one per meter and rule, while the bell's
 * message merges an owner's alarms into one card when the scheme of the owner's meter says so.
 */
describe("merged alarms: one message per owner when the alarm scheme merges", () => {
  let server: TestServer;
  let admin: string;
  let site: Awaited<ReturnType<typeof buildSite>>;
  let scheme: string;
  let sink: DbReadingsSink;

  const post = (path: string, body: Record<string, unknown>) =>
    server.call("POST", `${pms}/${path}`, admin, body);
  const bell = async (): Promise<{ total: number; records: Card[] }> => {
    const res = await server.call("GET", `${pms}/checkRecord/upPage?current=1&size=10`, admin);
    assert.equal(res.statusCode, 200, res.body);
    return res.json().data;
  };
  const setMerge = async (flag: 0 | 1) => {
    const res = await post("alarmscheme/submit", {
      id: scheme,
      schemeName: "电费告警",
      energyType: 1,
      firstAlarm: "5",
      secondAlarm: "2",
      arrearsLimit: "0",
      tripOnArrears: 0,
      mergeAlarmFlag: flag,
    });
    assert.equal(res.statusCode, 200, res.body);
  };

  before(async () => {
    server = await startTestServer();
    admin = (await server.login()).access_token;
    site = await buildSite(server, admin);
    sink = new DbReadingsSink(server.db, "Asia/Shanghai");
    const price = await created(server, admin, "chargingscheme/submit", {
      schemeName: "一元电",
      energyType: 1,
      priceMode: 1,
      price: "1",
    });
    scheme = await created(server, admin, "alarmscheme/submit", {
      schemeName: "电费告警",
      energyType: 1,
      firstAlarm: "5",
      secondAlarm: "2",
      arrearsLimit: "0",
      tripOnArrears: 0,
    });
    await created(server, admin, "meter/submit", {
      id: site.meter,
      productCode: "100000000101",
      collectorId: site.collector,
      controlStatus: 1,
      chargingSchemeId: price,
      alarmSchemeId: scheme,
    });
    const reading = { meterId: site.meter, address: "100000000101", relay: "closed" as const, missing: [] };
    await sink.record({
      ...reading,
      at: local("2026-11-10T08:00:00"),
      energy: { total: "1000.00", tariffs: [] },
    });
    const opened = await post("message/openAccount", { meterId: site.meter, deposit: "100" });
    assert.equal(opened.statusCode, 200, opened.body);
    // Status word 1: clock battery low (bit 2) and power flowing back (bit 4): two rules on one meter.
    await sink.record({
      ...reading,
      at: local("2026-11-10T09:00:00"),
      energy: { total: "1001.00", tariffs: [] },
      statusWord1: "0014",
    });
    // The water meter has no account, so no owner: its alarm is never merged with anything.
    await sink.record({
      meterId: site.water,
      address: "10000000000101",
      at: local("2026-11-10T09:05:00"),
      volume: "10.00",
      valve: "abnormal",
      missing: [],
    });
  });
  after(() => server.close());

  test("separate (0): a card per record", async () => {
    const { total, records } = await bell();
    assert.equal(total, 3);
    assert.deepEqual(
      records.map((r) => `${r.productCode} ${r.ruleCode} ${r.merged} ${r.recordIds.length}`).sort(),
      ["10000000000101 valve_fault 0 1", "100000000101 battery_low 0 1", "100000000101 reverse_energy 0 1"],
    );
  });

  test("merged (1): the owner's alarms in one card naming every rule; the records stay apart", async () => {
    await setMerge(1);
    const { total, records } = await bell();
    assert.equal(total, 2, "the owner's message and the ownerless water alarm");
    const card = records.find((r) => r.merged === 1)!;
    assert.equal(card.ownerId, site.owner);
    assert.equal(card.checkRuleName, "电池欠压、电能反向");
    assert.equal(card.recordIds.length, 2);
    assert.ok(card.recordIds.includes(card.id), "the card is its newest record's");
    assert.match(card.content, /100000000101 电池欠压/);
    assert.match(card.content, /100000000101 电能反向/);
    const water = records.find((r) => r.merged === 0)!;
    assert.equal(water.ruleCode, "valve_fault");
    const stored = await server.db.query<{ n: string }>(
      "select count(*)::text as n from pms_check_record where alarm_status = 1",
    );
    assert.equal(stored[0]!.n, "3", "merging is the message's, not the records'");
  });

  test("ignoring the merged card ignores each of its alarms, and nothing else", async () => {
    const { records } = await bell();
    const card = records.find((r) => r.merged === 1)!;
    const res = await post("checkIgnore/save", { recordId: card.id, ignoreType: 2, remark: "检修中" });
    assert.equal(res.statusCode, 200, res.body);
    const after = await bell();
    assert.deepEqual(
      after.records.map((r) => r.ruleCode),
      ["valve_fault"],
    );
    const ignores = await server.db.query<{ record_id: string; rule_code: string }>(
      "select record_id::text as record_id, rule_code from pms_check_ignore order by rule_code",
    );
    assert.deepEqual(ignores.map((i) => i.record_id).sort(), [...card.recordIds].sort());
  });

  test("back to separate (0): the ignored records stay ignored, each on its own", async () => {
    await setMerge(0);
    const { total, records } = await bell();
    assert.equal(total, 1);
    assert.equal(records[0]!.merged, 0);
  });
});

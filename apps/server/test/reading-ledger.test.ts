import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { after, before, describe, test } from "node:test";
import { nextId } from "../src/db/ids.ts";
import { splitStatements } from "../src/db/migrate.ts";
import { DbReadingsSink } from "../src/modules/metering/readings-sink.db.ts";
import { localDay } from "../src/modules/metering/usage-periods.ts";
import { closeDay } from "../src/modules/money/daily-close.ts";
import { checkLedger } from "../src/modules/money/ledger-check.ts";
import { startTestServer, type TestServer } from "./helpers.ts";
import { buildSite, created } from "./registry-fixtures.ts";

/** Shanghai wall time as an instant (UTC+8, no daylight saving). */
const local = (text: string) => new Date(`${text}+08:00`);

describe("corrections of the readings of meters whose balance the server keeps", () => {
  let server: TestServer;
  let admin: string;
  let site: Awaited<ReturnType<typeof buildSite>>;
  let sink: DbReadingsSink;
  let electricAccount: string;
  let waterAccount: string;

  const electric = (at: string, total: string) =>
    sink.record({
      meterId: site.meter,
      address: "100000000101",
      at: local(at),
      energy: { total, tariffs: [] },
      relay: "closed",
      missing: [],
    });
  const water = (at: string, volume: string) =>
    sink.record({
      meterId: site.water,
      address: "10000000000101",
      at: local(at),
      volume,
      valve: "open",
      missing: [],
    });
  const post = (path: string, body: Record<string, unknown>) =>
    server.call("POST", `/api/blade-pms/${path}`, admin, body);
  const account = async (id: string) =>
    (
      await server.db.query<{ balance: string; alarm_level: number; arrears_cut: number }>(
        "select balance::text as balance, alarm_level, arrears_cut from pms_account where id = $1",
        [id],
      )
    )[0]!;
  const corrections = (id: string) =>
    server.db.query<{ amount: string; reading_id: string; cause: string; creator: string; usage: string }>(
      `select amount::text as amount, reading_id::text as reading_id, cause, creator, usage::text as usage
         from pms_ledger where account_id = $1 and entry_type = 9 order by create_time, id`,
      [id],
    );
  const readId = async (table: string, meterId: string, at: string) =>
    (
      await server.db.query<{ id: string }>(
        `select id::text as id from ${table} where meter_id = $1 and read_time = $2`,
        [meterId, local(at)],
      )
    )[0]!.id;
  const commands = (meterId: string) =>
    server.db.query<{ id: string; source: string }>(
      "select id::text as id, source from pms_meter_command where meter_id = $1 order by create_time, id",
      [meterId],
    );

  before(async () => {
    server = await startTestServer();
    admin = (await server.login()).access_token;
    site = await buildSite(server, admin);
    sink = new DbReadingsSink(server.db, "Asia/Shanghai");
    const flat = await created(server, admin, "chargingscheme/submit", {
      schemeName: "平价电",
      energyType: 1,
      priceMode: 1,
      price: "0.5883",
      monthlyFee: "5",
    });
    const alarm = await created(server, admin, "alarmscheme/submit", {
      schemeName: "电费告警",
      energyType: 1,
      firstAlarm: "50",
      secondAlarm: "20",
      arrearsLimit: "10",
      tripOnArrears: 1,
    });
    await created(server, admin, "meter/submit", {
      id: site.meter,
      productCode: "100000000101",
      collectorId: site.collector,
      controlStatus: 1,
      chargingSchemeId: flat,
      alarmSchemeId: alarm,
    });
    // Monthly ladder: the first 10 m³ at 3 yuan, the rest at 5.
    const ladder = await created(server, admin, "chargingscheme/submit", {
      schemeName: "阶梯水价",
      energyType: 2,
      priceMode: 2,
      ladderCycle: 1,
      ladder: JSON.stringify([
        { limit: "10", price: "3" },
        { limit: null, price: "5" },
      ]),
    });
    const waterAlarm = await created(server, admin, "alarmscheme/submit", {
      schemeName: "水费告警",
      energyType: 2,
      firstAlarm: "20",
      secondAlarm: "10",
      arrearsLimit: "0",
      tripOnArrears: 1,
    });
    await created(server, admin, "water/submit", {
      id: site.water,
      productCode: "10000000000101",
      collectorId: site.collector,
      chargingSchemeId: ladder,
      alarmSchemeId: waterAlarm,
    });
  });
  after(() => server.close());

  test("voiding a spike gives back what it charged, in one entry; the arrears it caused are lifted", async () => {
    await electric("2026-10-05T08:00:00", "1000.00");
    const opened = await post("message/openAccount", { meterId: site.meter, deposit: "100" });
    assert.equal(opened.statusCode, 200, opened.body);
    electricAccount = opened.json().data[0].accountId;
    await electric("2026-10-05T12:00:00", "1010.00"); // 10 kWh: 5.883 → 5.88, and the fee 5.00
    await electric("2026-10-06T08:00:00", "1900.00"); // a misread: 900 kWh in all → 529.47
    await electric("2026-10-07T08:00:00", "1020.00"); // back down: never charged
    let state = await account(electricAccount);
    assert.equal(state.balance, String(10000 - 52947 - 500));
    assert.deepEqual([state.alarm_level, state.arrears_cut], [3, 2]);
    const [cut] = await commands(site.meter);
    assert.equal(cut?.source, "arrears/cut");
    await server.db.query("update pms_meter_command set state = 'success', result = 1 where id = $1", [
      cut!.id,
    ]);

    const spike = await readId("pms_data_read", site.meter, "2026-10-06T08:00:00");
    const res = await post(`dataread/remove?ids=${spike}`, { reason: "抄表异常" });
    assert.equal(res.statusCode, 200, res.body);
    // 20 kWh in all now: 11.766 → 11.77, so 529.47 − 11.77 = 517.70 comes back.
    const [entry, ...more] = await corrections(electricAccount);
    assert.equal(more.length, 0);
    assert.deepEqual([entry!.amount, entry!.reading_id, entry!.usage], ["51770", spike, "-88000"]);
    assert.match(entry!.cause, /作废抄读 2026-10-06 08:00:00 .*抄表异常/);
    assert.ok(entry!.creator, "who made it");
    state = await account(electricAccount);
    assert.equal(state.balance, String(10000 - 1177 - 500));
    assert.deepEqual([state.alarm_level, state.arrears_cut], [0, 0]);
    assert.equal((await commands(site.meter)).at(-1)?.source, "arrears/restore");

    // Pricing goes on from the corrected registers: 1020 → 1030 is 10 kWh more (30 in all: 17.649 → 17.65).
    await electric("2026-10-08T08:00:00", "1030.00");
    assert.equal((await account(electricAccount)).balance, String(10000 - 1765 - 500));
  });

  test("a repeated void is refused and books nothing", async () => {
    const spike = await readId("pms_data_read", site.meter, "2026-10-06T08:00:00");
    const again = await post(`dataread/remove?ids=${spike}`, { reason: "再来一次" });
    assert.equal(again.statusCode, 400, again.body);
    assert.match(again.json().msg, /^ids: /);
    assert.equal((await corrections(electricAccount)).length, 1);
  });

  test("a reading entered between two, across the month's end, moves usage up the ladder into arrears", async () => {
    await water("2026-10-20T08:00:00", "100.00");
    const opened = await post("waterparam/openAccount", { meterId: site.water, deposit: "60" });
    assert.equal(opened.statusCode, 200, opened.body);
    waterAccount = opened.json().data[0].accountId;
    await water("2026-10-25T08:00:00", "108.00"); // October: 8 m³ at 3 = 24
    await water("2026-11-03T08:00:00", "118.00"); // November: 10 m³ at 3 = 30
    assert.equal((await account(waterAccount)).balance, String(6000 - 5400));
    const res = await post("waterdataread/submit", {
      meterId: site.water,
      readTime: "2026-10-31 20:00:00",
      totalValue: "115",
    });
    assert.equal(res.statusCode, 200, res.body);
    // October 15 m³: 10 × 3 + 5 × 5 = 55; November 3 m³: 9. 64 against 54 charged: 10 more.
    assert.deepEqual(res.json().data.correction, {
      accountId: waterAccount,
      amount: "-10.00",
      ledgerId: res.json().data.correction.ledgerId,
    });
    const [entry] = await corrections(waterAccount);
    assert.deepEqual([entry?.amount, entry?.reading_id], ["-1000", res.json().data.id]);
    const state = await account(waterAccount);
    assert.deepEqual([state.balance, state.alarm_level, state.arrears_cut], ["-400", 3, 2]);
    assert.equal((await commands(site.water)).at(-1)?.source, "arrears/cut");
  });

  test("the statement shows the correction on its own line, and balances agree with the ledger", async () => {
    const timeZone = "Asia/Shanghai";
    const today = localDay(new Date(), timeZone);
    for (const day of ["2026-10-05", "2026-10-06", "2026-10-07", today])
      await closeDay(server.db, day, timeZone);
    const statement = (
      await server.call(
        "GET",
        `/api/blade-pms/account/statement?accountId=${electricAccount}&startDay=2026-10-05&endDay=${today}`,
        admin,
      )
    ).json().data;
    assert.deepEqual(
      statement.corrections.map((c: { amount: string; usageDay: string }) => [c.amount, c.usageDay]),
      [["517.70", "2026-10-06"]],
    );
    assert.equal(statement.totals.correction, "517.70");
    assert.equal(statement.days.at(-1).correction, "517.70", "the day it was made closes with it");
    assert.equal(statement.totals.credit, "100.00", "the deposit only: a correction is not money paid in");
    assert.equal(statement.closingBalance, "77.35");
    assert.equal((await account(electricAccount)).balance, "7735");
    assert.deepEqual(await checkLedger(server.db), []);
  });

  test("two voids of the same read at once: one books, the other is refused", async () => {
    const last = await readId("pms_data_read", site.meter, "2026-10-08T08:00:00");
    const results = await Promise.all(
      ["一", "二"].map((n) => post(`dataread/remove?ids=${last}`, { reason: `同时作废${n}` })),
    );
    assert.deepEqual(results.map((r) => r.statusCode).sort(), [200, 400]);
    // The last priced read voided: 20 kWh in all again (11.77), 5.88 back.
    const entries = await corrections(electricAccount);
    assert.deepEqual(entries.map((e) => [e.amount, e.reading_id]).at(-1), ["588", last]);
    assert.equal(entries.length, 2);
    assert.equal((await account(electricAccount)).balance, String(10000 - 1177 - 500));
    // The next read is priced from the read before the voided one: 1020 → 1025, 25 kWh (14.71).
    await electric("2026-10-09T08:00:00", "1025.00");
    assert.equal((await account(electricAccount)).balance, String(10000 - 1471 - 500));
    assert.deepEqual(await checkLedger(server.db), []);
  });

  test("reads from before the source and the void mark had values get them: from the gateway, not voided", async () => {
    // As such a row was: the columns without values (allowed again for the test only).
    await server.db.query("alter table pms_water_data_read alter column source drop not null");
    await server.db.query("alter table pms_water_data_read alter column voided drop not null");
    const old = nextId();
    await server.db.query(
      `insert into pms_water_data_read (id, tenant_id, meter_id, product_code, read_time, total_value, source, voided)
       values ($1, '000000', $2, '10000000000101', $3, 1, null, null)`,
      [old, site.water, local("2026-09-01T08:00:00")],
    );
    const migration = await readFile(
      new URL("../src/db/migrations/after-resources/024_reading_source_backfill.sql", import.meta.url),
      "utf8",
    );
    for (const statement of splitStatements(migration)) await server.db.query(statement);
    const [row] = await server.db.query<{ source: string; voided: number }>(
      "select source, voided from pms_water_data_read where id = $1",
      [old],
    );
    assert.deepEqual(row, { source: "gateway", voided: 0 });
    // New rows written without them (as older code did) get the same, and they can no longer be empty.
    const fresh = nextId();
    await server.db.query(
      `insert into pms_data_read (id, tenant_id, meter_id, product_code, read_time, total_value)
       values ($1, '000000', $2, '100000000101', $3, 1)`,
      [fresh, site.meter, local("2026-09-01T08:00:00")],
    );
    const [written] = await server.db.query<{ source: string; voided: number }>(
      "select source, voided from pms_data_read where id = $1",
      [fresh],
    );
    assert.deepEqual(written, { source: "gateway", voided: 0 });
    await assert.rejects(server.db.query("update pms_data_read set voided = null where id = $1", [fresh]));
  });
});

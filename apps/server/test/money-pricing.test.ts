import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { MeterReading } from "@meterline/gateway";
import { DbReadingsSink } from "../src/modules/metering/readings-sink.db.ts";
import { localDay } from "../src/modules/metering/usage-periods.ts";
import { runHeldCuts } from "../src/modules/money/arrears.ts";
import { closeDay } from "../src/modules/money/daily-close.ts";
import { startTestServer, type TestServer } from "./helpers.ts";
import { buildSite, created } from "./registry-fixtures.ts";

/** Shanghai wall time as an instant (UTC+8, no daylight saving). */
const local = (text: string) => new Date(`${text}+08:00`);

describe("usage priced as readings arrive, and the arrears cut", () => {
  let server: TestServer;
  let admin: string;
  let site: Awaited<ReturnType<typeof buildSite>>;
  let sink: DbReadingsSink;
  let electricAccount: string;

  const electric = (at: string, total: string, extra: Partial<MeterReading> = {}) =>
    sink.record({
      meterId: site.meter,
      address: "100000000101",
      at: local(at),
      energy: { total, tariffs: [] },
      relay: "closed",
      missing: [],
      ...extra,
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
      await server.db.query<{
        balance: string;
        alarm_level: number;
        arrears_cut: number;
        cut_due_time: Date | null;
      }>(
        "select balance::text as balance, alarm_level, arrears_cut, cut_due_time from pms_account where id = $1",
        [id],
      )
    )[0]!;
  const entries = async (id: string) =>
    server.db.query<{ entry_type: number; amount: string; usage: string | null }>(
      "select entry_type, amount::text as amount, usage::text as usage from pms_ledger where account_id = $1 order by create_time, id",
      [id],
    );
  const commands = async (meterId: string) =>
    server.db.query<{ id: string; payload: string; source: string; state: string }>(
      "select id::text as id, payload, source, state from pms_meter_command where meter_id = $1 order by create_time, id",
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
    const waterPrice = await created(server, admin, "chargingscheme/submit", {
      schemeName: "水价",
      energyType: 2,
      priceMode: 1,
      price: "5",
    });
    // Supply is never cut from midnight to 23:59 local time.
    const waterAlarm = await created(server, admin, "alarmscheme/submit", {
      schemeName: "水费告警",
      energyType: 2,
      firstAlarm: "20",
      secondAlarm: "10",
      arrearsLimit: "0",
      tripOnArrears: 1,
      protectTimes: JSON.stringify([{ start: "00:00", end: "23:59" }]),
    });
    await created(server, admin, "water/submit", {
      id: site.water,
      productCode: "10000000000101",
      collectorId: site.collector,
      chargingSchemeId: waterPrice,
      alarmSchemeId: waterAlarm,
    });
  });
  after(() => server.close());

  test("usage before opening is never charged; each reading is charged by the rounding rule", async () => {
    await electric("2026-11-10T08:00:00", "1000.00");
    const opened = await post("message/openAccount", { meterId: site.meter, deposit: "100" });
    assert.equal(opened.statusCode, 200, opened.body);
    electricAccount = opened.json().data[0].accountId;
    // 10 kWh × 0.5883 = 5.883 → 5.88, plus the month's fixed fee 5.00.
    await electric("2026-11-10T09:00:00", "1010.00");
    assert.equal((await account(electricAccount)).balance, String(10000 - 588 - 500));
    // 0.01 kWh more: 10.01 × 0.5883 = 5.888883 → 5.89 in all, so this reading costs 1 fen.
    await electric("2026-11-10T09:15:00", "1010.01");
    assert.equal((await account(electricAccount)).balance, String(10000 - 589 - 500));
    // A late reply from before the last priced reading changes nothing.
    await electric("2026-11-10T08:30:00", "1005.00");
    assert.equal((await account(electricAccount)).balance, String(10000 - 589 - 500));
    assert.deepEqual(
      (await entries(electricAccount)).map((e) => [e.entry_type, e.amount, e.usage]),
      [
        [1, "10000", null],
        [6, "-588", "1000"],
        [7, "-500", null],
        [6, "-1", "1"],
      ],
    );
  });

  test("a register that runs backwards (meter replaced) is not charged; counting resumes from it", async () => {
    await electric("2026-11-10T10:00:00", "3.00");
    assert.equal((await account(electricAccount)).balance, "8911");
    // 2 kWh more: 12.01 kWh in the month → 7.065483 → 7.07, so 1.18 more.
    await electric("2026-11-10T11:00:00", "5.00");
    assert.equal((await account(electricAccount)).balance, String(8911 - 118));
  });

  test("arrears past the overdraft cut the relay; a recharge restores it once the cut has settled", async () => {
    // 170 kWh more: 182.01 kWh → 107.076483 → 107.08 in all, balance −12.08 ≤ −10: cut.
    await electric("2026-11-10T12:00:00", "175.00");
    let state = await account(electricAccount);
    assert.equal(state.balance, "-1208");
    assert.equal(state.alarm_level, 3);
    assert.equal(state.arrears_cut, 2);
    let sent = await commands(site.meter);
    assert.equal(sent.length, 1);
    assert.deepEqual(JSON.parse(sent[0]!.payload), { switchType: 2 });
    assert.equal(sent[0]!.source, "arrears/cut");

    // The recharge lifts the balance above the line while the cut is still on its way: the
    // restore waits for it instead of being dropped.
    const recharge = await post("datarecharge/submit", { meterId: site.meter, amount: "20" });
    assert.equal(recharge.json().data.balanceAfter, "7.92");
    state = await account(electricAccount);
    assert.equal(state.arrears_cut, 2);
    assert.ok(state.cut_due_time, "a retry of the restore is due");
    assert.equal((await commands(site.meter)).length, 1);

    await server.db.query("update pms_meter_command set state = 'success', result = 1 where id = $1", [
      sent[0]!.id,
    ]);
    assert.equal(await runHeldCuts(server.db, new Date(Date.now() + 10 * 60_000), "Asia/Shanghai"), 1);
    sent = await commands(site.meter);
    assert.equal(sent.length, 2);
    assert.deepEqual(JSON.parse(sent[1]!.payload), { switchType: 1 });
    assert.equal(sent[1]!.source, "arrears/restore");
    state = await account(electricAccount);
    assert.deepEqual([state.arrears_cut, state.cut_due_time], [0, null]);
  });

  test("a cut inside a protection window waits for its end", async () => {
    await water("2026-11-10T08:00:00", "100.00");
    const opened = await post("waterparam/openAccount", { meterId: site.water, deposit: "10" });
    assert.equal(opened.statusCode, 200, opened.body);
    const waterAccount = opened.json().data[0].accountId;
    // 3 m³ × 5 = 15 yuan: balance −5 at noon, inside the window.
    await water("2026-11-10T12:00:00", "103.00");
    const held = await account(waterAccount);
    assert.equal(held.balance, "-500");
    assert.equal(held.arrears_cut, 1);
    assert.deepEqual(held.cut_due_time, local("2026-11-10T23:59:00"));
    assert.equal((await commands(site.water)).length, 0);
    // Still inside: nothing goes.
    assert.equal(await runHeldCuts(server.db, local("2026-11-10T23:00:00"), "Asia/Shanghai"), 0);
    assert.equal((await commands(site.water)).length, 0);
    await runHeldCuts(server.db, local("2026-11-10T23:59:30"), "Asia/Shanghai");
    const sent = await commands(site.water);
    assert.equal(sent.length, 1);
    assert.deepEqual(JSON.parse(sent[0]!.payload), { open: false });
    assert.equal((await account(waterAccount)).arrears_cut, 2);
  });

  test("the daily close writes one row per account and day, survives a crash and never rewrites", async () => {
    const today = localDay(new Date(), "Asia/Shanghai");
    // A crash after the first batch of one account …
    await assert.rejects(
      closeDay(server.db, today, "Asia/Shanghai", {
        batch: 1,
        afterBatch: async () => {
          throw new Error("power cut");
        },
      }),
      /power cut/,
    );
    const closed = async () =>
      server.db.query<Record<string, string>>(
        `select account_id::text as account_id, opening_balance::text as opening, usage::text as usage,
                usage_charge::text as charge, fee::text as fee, credit::text as credit, closing_balance::text as closing
           from pms_account_day where day = $1::date order by account_id`,
        [today],
      );
    assert.equal((await closed()).length, 1);
    // … is finished by the next run, and a third run changes nothing.
    assert.equal(await closeDay(server.db, today, "Asia/Shanghai", { batch: 1 }), 1);
    const rows = await closed();
    assert.equal(await closeDay(server.db, today, "Asia/Shanghai"), 0);
    assert.deepEqual(await closed(), rows);
    const electricDay = rows.find((r) => r.account_id === electricAccount);
    assert.deepEqual(electricDay, {
      account_id: electricAccount,
      opening: "0",
      usage: String(1000 + 1 + 200 + 17000),
      charge: String(588 + 1 + 118 + 10001),
      fee: "500",
      credit: String(10000 + 2000),
      closing: (await account(electricAccount)).balance,
    });
    const statement = (
      await server.call(
        "GET",
        `/api/blade-pms/account/statement?accountId=${electricAccount}&startDay=${today}&endDay=${today}`,
        admin,
      )
    ).json().data;
    assert.equal(statement.openingBalance, "0.00");
    assert.equal(statement.closingBalance, "7.92");
    assert.equal(statement.totals.usage, "182.01");
    assert.equal(statement.recharges.length, 1);
    assert.equal(statement.days.length, 1);
  });

  test("the ledger still proves every balance", async () => {
    const check = (await server.call("GET", "/api/blade-pms/ledger/check", admin)).json().data;
    assert.deepEqual(check, { consistent: true, mismatches: [] });
  });
});

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { MeterReading } from "@meterline/gateway";
import { type Db, openDb } from "../src/db/client.ts";
import { DbReadingsSink } from "../src/modules/metering/readings-sink.db.ts";
import { startTestServer, type TestServer } from "./helpers.ts";
import { seedPricedMeters } from "./priced-meters-fixture.ts";

/**
 * The readings sink writes what arrives together as one batch (set-based statements): these tests
 * hand it bursts, as many DTU sessions answering at once do, and check that batching changes
 * nothing of what is stored and charged — each reading priced once, in order, the ledger summing to
 * every balance — and that one bad reading fails alone.
 */
describe("readings written in batches", () => {
  let server: TestServer;
  let sink: DbReadingsSink;
  /** Meters (and their rooms, owners and accounts) of this test: ids far from the seed's. */
  const BASE = 7_100_000;
  const METERS = 60;
  const DEPOSIT = 100_000n;
  const START = Date.parse("2026-11-02T00:15:00Z");
  const at = (minutes: number) => new Date(START + minutes * 60_000);
  const ids = Array.from({ length: METERS }, (_, i) => String(BASE + i));

  const reading = (meterId: string, minutes: number, total: string): MeterReading => ({
    meterId,
    address: meterId.padStart(12, "0"),
    at: at(minutes),
    energy: { total, tariffs: [] },
    relay: "closed",
    missing: [],
  });

  const ledger = async (db: Db = server.db) =>
    db.query<{ account_id: string; entries: string; charged: string; usage: string }>(
      `select account_id::text as account_id, count(*)::text as entries, (-sum(amount))::text as charged,
              sum(usage)::text as usage
         from pms_ledger where entry_type = 6 and account_id between $1 and $2 group by account_id`,
      [BASE, BASE + METERS - 1],
    );

  before(async () => {
    server = await startTestServer();
    sink = new DbReadingsSink(server.db, "Asia/Shanghai");
    await seedPricedMeters(server.db, {
      base: BASE,
      meters: METERS,
      priced: METERS,
      deposit: DEPOSIT,
      pricedUpTo: at(-15),
    });
  });
  after(async () => server?.close());

  test("a burst of every meter at once is stored and priced exactly, each reading once", async () => {
    // Rounds of 1.00 kWh each; all meters of a round handed over at once, twice over (a repeated
    // reading must not be charged again).
    for (let round = 1; round <= 3; round++) {
      const total = (1000 + round).toFixed(2);
      await Promise.all(ids.flatMap((id) => [sink.record(reading(id, round * 15, total))]));
      await Promise.all(ids.map((id) => sink.record(reading(id, round * 15, total))));
    }
    const rows = await ledger();
    assert.equal(rows.length, METERS);
    for (const row of rows) {
      assert.equal(row.entries, "3", `account ${row.account_id}: one charge per reading`);
      assert.equal(row.usage, "300");
      assert.equal(row.charged, "150", "3.00 kWh at 0.50 元");
    }
    const [sums] = await server.db.query<{ wrong: string; owners: string; reads: string; days: string }>(
      `select (select count(*) from pms_account a where a.id between $1 and $2
                and a.balance <> (select sum(amount) from pms_ledger l where l.account_id = a.id))::text as wrong,
              (select count(*) from pms_owner o where o.id between $1 and $2
                and o.balance * 100 <> (select balance from pms_account a where a.owner_id = o.id))::text as owners,
              (select count(*) from pms_data_read where meter_id between $1 and $2)::text as reads,
              (select count(*) from pms_data_daily where meter_id between $1 and $2 and usage = 2)::text as days`,
      [BASE, BASE + METERS - 1],
    );
    assert.equal(sums!.wrong, "0", "every account's ledger sums to its balance");
    assert.equal(sums!.owners, "0", "every owner's balance is their account's");
    assert.equal(sums!.reads, String(METERS * 6), "every reading is in the log");
    assert.equal(sums!.days, String(METERS), "each meter's day runs from its first read: 2.00 kWh");
  });

  test("two readings of one meter in one burst are written in order; a late and a backwards one charge nothing", async () => {
    const [id] = ids;
    const before = (await ledger()).find((r) => r.account_id === id)!;
    await Promise.all([
      sink.record(reading(id!, 60, "1004.00")),
      sink.record(reading(id!, 75, "1005.00")),
      // Older than what was priced: a late reply, never charged.
      sink.record(reading(id!, 50, "1003.50")),
    ]);
    // The register ran backwards (meter replaced): no charge; the next step from there is charged.
    await sink.record(reading(id!, 90, "10.00"));
    await sink.record(reading(id!, 105, "11.00"));
    const after = (await ledger()).find((r) => r.account_id === id)!;
    assert.equal(BigInt(after.usage) - BigInt(before.usage), 300n, "2.00 kWh, then 1.00 after the reset");
    assert.equal(BigInt(after.charged) - BigInt(before.charged), 150n);
    const [current] = await server.db.query<{ total: string; read_time: Date }>(
      "select total_value::text as total, read_time from pms_meter_current_data where meter_id = $1",
      [id],
    );
    assert.equal(current!.total, "11.00", "the latest values are the last reading's");
  });

  test("a register running backwards within a burst raises its alarm from the kept last two reads", async () => {
    const id = ids[5]!;
    await Promise.all([
      sink.record(reading(id, 120, "1010.00")),
      sink.record(reading(ids[6]!, 120, "1010.00")),
    ]);
    await Promise.all([
      sink.record(reading(id, 135, "1009.00")),
      sink.record(reading(ids[6]!, 135, "1011.00")),
    ]);
    const records = await server.db.query<{ meter_id: string; rule_code: string }>(
      "select meter_id::text as meter_id, rule_code from pms_check_record where meter_id in ($1, $2) and alarm_status = 1",
      [id, ids[6]],
    );
    assert.deepEqual(
      records.filter((r) => r.rule_code === "register_back").map((r) => r.meter_id),
      [id],
      "only the meter whose register went back",
    );
  });

  test("one reading the database refuses fails alone; the rest of its batch is stored and priced", async () => {
    const good = ids.slice(10, 20);
    const bad = ids[20]!;
    const outcomes = await Promise.allSettled([
      ...good.map((id) => sink.record(reading(id, 150, "1020.00"))),
      // A total beyond the column's precision: the set-based write refuses the whole statement.
      sink.record(reading(bad, 150, "99999999999999999999.00")),
    ]);
    assert.equal(outcomes.filter((o) => o.status === "fulfilled").length, good.length);
    assert.equal(outcomes.at(-1)!.status, "rejected", "the bad reading's caller hears of it");
    const stored = await server.db.query<{ meter_id: string }>(
      "select meter_id::text as meter_id from pms_data_read where read_time = $1 and meter_id between $2 and $3",
      [at(150), BASE, BASE + METERS - 1],
    );
    assert.deepEqual(stored.map((r) => r.meter_id).sort(), [...good].sort());
    const charged = await server.db.query<{ n: string }>(
      "select count(*)::text as n from pms_ledger where entry_type = 6 and usage_day is not null and account_id = any($1::bigint[]) and create_time > now() - interval '1 minute' and usage = 1700",
      [good],
    );
    assert.equal(charged[0]!.n, String(good.length), "each good reading priced (17.00 kWh since its last)");
  });

  test("two gateway processes sharing meters' accounts charge each reading once", async () => {
    // A second process: its own connections where the database is a server, its own queue either way.
    const otherDb = server.databaseUrl ? await openDb({ databaseUrl: server.databaseUrl }) : server.db;
    try {
      const other = new DbReadingsSink(otherDb, "Asia/Shanghai");
      const before = new Map((await ledger()).map((r) => [r.account_id, BigInt(r.charged)]));
      const set = ids.slice(30, 60);
      for (let round = 0; round < 3; round++) {
        const minutes = 200 + round * 15;
        const total = (1100 + round).toFixed(2);
        // Both processes get every reading of the round (a meter handed over mid-poll), in opposite orders.
        await Promise.all([
          ...set.map((id) => sink.record(reading(id, minutes, total))),
          ...[...set].reverse().map((id) => other.record(reading(id, minutes, total))),
        ]);
      }
      const after = await ledger();
      for (const id of set) {
        const row = after.find((r) => r.account_id === id)!;
        // From 1003.00 (its last priced) to 1102.00: 99.00 kWh at 0.50 元 = 49.50 元.
        assert.equal(BigInt(row.charged) - before.get(id)!, 4950n, `account ${id}`);
      }
      const [wrong] = await server.db.query<{ n: string }>(
        `select count(*)::text as n from pms_account a where a.id between $1 and $2
            and a.balance <> (select sum(amount) from pms_ledger l where l.account_id = a.id)`,
        [BASE, BASE + METERS - 1],
      );
      assert.equal(wrong!.n, "0");
    } finally {
      if (otherDb !== server.db) await otherDb.close();
    }
  });
});

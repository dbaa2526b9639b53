import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { MeterReading } from "@meterline/gateway";
import type { Db } from "../src/db/client.ts";
import { DbReadingsSink } from "../src/modules/metering/readings-sink.db.ts";
import { lockAccount } from "../src/modules/money/account.repository.ts";
import { book, LEDGER_TYPE } from "../src/modules/money/account-book.ts";
import { startTestServer, type TestServer } from "./helpers.ts";
import { seedPricedMeters } from "./priced-meters-fixture.ts";

/**
 * A gateway's pricing remembers the accounts it wrote and writes the next wave of their meters in
 * one statement that takes an account only if nothing it was priced from changed since
 * (money/pricing-write.ts). These tests change what it remembers behind its back — a recharge, a
 * new price, a write that fails — and check that every reading is still charged once, from the
 * account as it really stands, with the ledger summing to every balance.
 */
describe("pricing from the accounts a gateway remembers", () => {
  let server: TestServer;
  const START = Date.parse("2026-11-04T00:15:00Z");
  const at = (minutes: number) => new Date(START + minutes * 60_000);
  const DEPOSIT = 100_000n;

  const reading = (meterId: string, minutes: number, total: string): MeterReading => ({
    meterId,
    address: meterId.padStart(12, "0"),
    at: at(minutes),
    energy: { total, tariffs: [] },
    relay: "closed",
    missing: [],
  });

  /** The database, counting the statements that lock accounts (pricing under lock) and pricing's writes. */
  function counted(db: Db, fail = { writes: 0, locks: 0 }) {
    const counts = { locked: 0, written: 0 };
    const refused = () => Object.assign(new Error("the database refused (test)"), { code: "57014" });
    const wrapped: Db = Object.create(db) as Db;
    const count = (sql: string) => {
      if (/for update of a/.test(sql)) {
        if (fail.locks-- > 0) throw refused();
        counts.locked++;
      }
      if (/^with fresh as materialized/.test(sql)) {
        if (fail.writes-- > 0) throw refused();
        counts.written++;
      }
    };
    wrapped.query = async (sql, params) => {
      count(sql);
      return db.query(sql, params);
    };
    wrapped.transaction = (fn) =>
      db.transaction((tx) =>
        fn({
          query: async (sql, params) => {
            count(sql);
            return tx.query(sql, params);
          },
        }),
      );
    return { db: wrapped, counts };
  }

  async function seed(base: number, meters: number) {
    await seedPricedMeters(server.db, {
      base,
      meters,
      priced: meters,
      deposit: DEPOSIT,
      pricedUpTo: at(-15),
    });
    return Array.from({ length: meters }, (_, i) => String(base + i));
  }

  async function wave(sink: DbReadingsSink, ids: readonly string[], minutes: number, total: string) {
    await Promise.all(ids.map((id) => sink.record(reading(id, minutes, total))));
  }

  /** Balances, and whether each one is its ledger's sum and its owner's balance (one account per owner here). */
  async function books(ids: readonly string[]) {
    return server.db.query<{ id: string; balance: string; ledger: string; owner: string }>(
      `select a.id::text as id, a.balance::text as balance,
              (select sum(amount) from pms_ledger l where l.account_id = a.id)::text as ledger,
              (o.balance * 100)::bigint::text as owner
         from pms_account a join pms_owner o on o.id = a.owner_id
        where a.id = any($1::bigint[]) order by a.id`,
      [ids],
    );
  }

  before(async () => {
    server = await startTestServer();
  });
  after(async () => server?.close());

  test("an account recharged between two waves is charged from its new balance, under lock", async () => {
    const ids = await seed(7_300_000, 5);
    const { db, counts } = counted(server.db);
    const sink = new DbReadingsSink(db, "Asia/Shanghai");
    await wave(sink, ids, 0, "1001.00");
    assert.deepEqual(counts, { locked: 0, written: 1 }, "the first wave is written in one statement");

    await server.db.transaction(async (tx) => {
      const account = await lockAccount(tx, "000000", ids[0]!);
      await book(tx, account!, {
        type: LEDGER_TYPE.recharge,
        amount: 20_000n,
        cause: "充值",
        actor: { name: "test" },
      });
    });
    await wave(sink, ids, 15, "1003.00");
    assert.equal(counts.written, 2);
    assert.equal(counts.locked, 1, "only the recharged account's reading is priced again under lock");

    const rows = await books(ids);
    // 1.00 kWh then 2.00 kWh at 0.50 元: 50 + 100 fen; the first account got 200 元 between.
    assert.equal(rows[0]!.balance, String(DEPOSIT - 150n + 20_000n));
    for (const row of rows.slice(1)) assert.equal(row.balance, String(DEPOSIT - 150n), `account ${row.id}`);
    for (const row of rows) {
      assert.equal(row.ledger, row.balance, `account ${row.id}: the ledger sums to the balance`);
      assert.equal(row.owner, row.balance, `account ${row.id}: the owner moved with it`);
    }

    await wave(sink, ids, 30, "1004.00");
    assert.equal(
      counts.locked,
      1,
      "written under lock, the account is read afresh and written unlocked again",
    );
    assert.equal((await books(ids))[0]!.balance, String(DEPOSIT - 200n + 20_000n));
  });

  test("a price changed between two waves is charged at once", async () => {
    const ids = await seed(7_310_000, 4);
    const { db, counts } = counted(server.db);
    const sink = new DbReadingsSink(db, "Asia/Shanghai");
    await wave(sink, ids, 0, "1001.00");
    await server.db.query("update pms_charging_scheme set price = 0.8 where id = $1", [7_310_000]);
    await wave(sink, ids, 15, "1003.00");
    assert.equal(counts.locked, 1, "the changed scheme sends the whole wave under lock");
    for (const row of await books(ids)) {
      // 1.00 kWh at 0.50 元, then 2.00 kWh at 0.80 元.
      assert.equal(row.balance, String(DEPOSIT - 50n - 160n), `account ${row.id}`);
      assert.equal(row.ledger, row.balance);
    }
    await wave(sink, ids, 30, "1004.00");
    assert.equal(counts.locked, 1);
    for (const row of await books(ids)) assert.equal(row.balance, String(DEPOSIT - 50n - 160n - 80n));
  });

  test("a wave whose pricing fails is remembered by nobody: the next reading charges all since", async () => {
    const ids = await seed(7_320_000, 6);
    const { db, counts } = counted(server.db);
    const sink = new DbReadingsSink(db, "Asia/Shanghai");
    await wave(sink, ids, 0, "1001.00");
    assert.equal(counts.written, 1);
    // The same sink (so the same memory) over a database that refuses pricing's writes and locks
    // for one wave (an outage): the wave is stored, its pricing lost.
    const failing = counted(server.db, { writes: Number.POSITIVE_INFINITY, locks: Number.POSITIVE_INFINITY });
    Object.assign(sink, { db: failing.db });
    await wave(sink, ids, 15, "1002.00");
    assert.deepEqual(failing.counts, { locked: 0, written: 0 }, "nothing of the wave was priced");
    const back = counted(server.db);
    Object.assign(sink, { db: back.db });
    await wave(sink, ids, 30, "1004.00");
    assert.deepEqual(
      back.counts,
      { locked: 0, written: 1 },
      "the next wave is priced unlocked, the accounts read afresh",
    );
    for (const row of await books(ids)) {
      // 1.00 kWh, then the 3.00 kWh since (the lost wave's included) at 0.50 元. Had the accounts
      // planned over for the lost wave stayed remembered (their versions unchanged, as nothing was
      // written), the last wave would charge from 1002.00 and the balance leave its ledger.
      assert.equal(row.balance, String(DEPOSIT - 200n), `account ${row.id}`);
      assert.equal(row.ledger, row.balance);
      assert.equal(row.owner, row.balance);
    }
  });
});

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { Db, Queryable } from "../src/db/client.ts";
import { priceBatch } from "../src/modules/money/batch-pricing.ts";
import { PricedAccountMemory } from "../src/modules/money/priced-accounts.ts";
import type { PricedReading } from "../src/modules/money/usage-pricing.ts";
import { startTestServer, type TestServer } from "./helpers.ts";
import { seedPricedMeters } from "./priced-meters-fixture.ts";

/**
 * A large wave is priced in two parts by owner, each part's statement written while the next is
 * planned (batch-pricing.ts). These tests price waves bigger than a part through the module itself,
 * with owners holding two accounts each, and check that the parts never share an owner, that each
 * reading is charged once, and that a part whose statement fails is priced under lock while the
 * other part's write stands.
 */
/** Meters (and their rooms, owners and accounts) of this test: ids far from the seed's and other tests'. */
const BASE = 7_300_000;

describe("a large wave priced in parts", () => {
  let server: TestServer;
  const METERS = 300;
  const DEPOSIT = 100_000n;
  const START = Date.parse("2026-11-02T00:15:00Z");
  const ids = Array.from({ length: METERS }, (_, i) => String(BASE + i));
  /** The accounts (by id) each unlocked write of pricing took: one list per statement. */
  const writes: string[][] = [];

  const readingOf = (meterId: string, round: number, kWh = round): PricedReading => ({
    tenantId: "000000",
    energyType: 1,
    meterId,
    at: new Date(START + round * 15 * 60_000),
    registers: { total: (1000 + kWh).toFixed(2) },
  });

  /** The database with each unlocked pricing write's accounts noted (its first parameter). */
  const watched = (db: Db): Db => {
    const noted = <Q extends Queryable>(q: Q): Q["query"] =>
      (async (sql: string, params?: readonly unknown[]) => {
        if (sql.startsWith("with fresh as materialized")) writes.push(literalIds(params?.[0]));
        return q.query(sql, params);
      }) as Q["query"];
    const wrapped = Object.create(db) as Db;
    wrapped.query = noted(db);
    return wrapped;
  };

  before(async () => {
    server = await startTestServer();
    await seedPricedMeters(server.db, {
      base: BASE,
      meters: METERS,
      priced: METERS,
      deposit: DEPOSIT,
      pricedUpTo: new Date(START),
    });
    // Every second account belongs to the owner of the one before it: owners of two meters, the
    // second owner of each pair with no account and nothing left (the deposits' entries, append-only,
    // keep the owner they were booked to; the test sums balances by account).
    await server.db.query(
      `update pms_account set owner_id = id - 1 where id between $1 and $2 and (id - $1) % 2 = 1`,
      [BASE, BASE + METERS - 1],
    );
    await server.db.query(
      `update pms_owner o set balance = coalesce((select sum(a.balance) from pms_account a where a.owner_id = o.id), 0) / 100.0
        where o.id between $1 and $2`,
      [BASE, BASE + METERS - 1],
    );
  });
  after(async () => server?.close());

  const consistency = async () => {
    const [row] = await server.db.query<{ accounts: string; owners: string }>(
      `select (select count(*) from pms_account a where a.id between $1 and $2
                and a.balance <> (select sum(amount) from pms_ledger l where l.account_id = a.id))::text as accounts,
              (select count(*) from pms_owner o where o.id between $1 and $2
                and o.balance * 100 <> coalesce((select sum(balance) from pms_account a where a.owner_id = o.id), 0))::text
                as owners`,
      [BASE, BASE + METERS - 1],
    );
    assert.equal(row!.accounts, "0", "every account's ledger sums to its balance");
    assert.equal(row!.owners, "0", "every owner's balance is the sum of their accounts'");
  };

  const charges = async () =>
    new Map(
      (
        await server.db.query<{ account_id: string; entries: string; charged: string }>(
          `select account_id::text as account_id, count(*)::text as entries, (-sum(amount))::text as charged
             from pms_ledger where entry_type = 6 and account_id between $1 and $2 group by account_id`,
          [BASE, BASE + METERS - 1],
        )
      ).map((row) => [row.account_id, row]),
    );

  /** Every meter's reading of a round, priced as one wave, its unlocked writes noted afresh. */
  const priceRound = (round: number, memory: PricedAccountMemory) => {
    writes.length = 0;
    return priceBatch(
      watched(server.db),
      ids.map((id) => readingOf(id, round)),
      "Asia/Shanghai",
      memory,
    );
  };

  test("two parts, no owner in both, each reading charged once and remembered", async () => {
    const memory = new PricedAccountMemory();
    const outcomes = await priceRound(1, memory);
    assert.equal(writes.length, 2, "one unlocked write a part");
    const [first, second] = writes.map((accounts) => new Set(accounts.map(ownerOf)));
    assert.ok(first!.size > 0 && second!.size > 0);
    for (const owner of first!) assert.ok(!second!.has(owner), `owner ${owner} in both parts`);
    assert.equal(writes[0]!.length + writes[1]!.length, METERS, "every account in one part");
    assert.ok(Math.abs(writes[0]!.length - writes[1]!.length) <= 2, "parts of about equal size");
    assert.deepEqual(
      outcomes.map((o) => o?.charged),
      ids.map(() => 50n),
      "each reading's outcome at its own index: 1.00 kWh at 0.50 元",
    );
    assert.equal(memory.size, METERS, "every account written is remembered");
    // The next wave from memory alone: the versions the parts wrote are the accounts' own.
    await priceRound(2, memory);
    assert.equal(writes.length, 2);
    const charged = await charges();
    for (const id of ids) {
      assert.equal(charged.get(id)?.entries, "2", `account ${id}: one charge a reading`);
      assert.equal(charged.get(id)?.charged, "100");
    }
    await consistency();
  });

  test("a part whose statement fails is priced under lock; the other part's write stands", async () => {
    const memory = new PricedAccountMemory();
    const refused = ids[7]!;
    // The ledger refuses one account's entries: its part's unlocked statement fails whole, and under
    // lock each of that part's readings is priced alone, so only this one is left unpriced.
    await server.db.query(
      `create function refuse_test_entry() returns trigger language plpgsql as
         $$ begin raise exception 'refused for the test'; end $$`,
    );
    await server.db.query(
      `create trigger refuse_test_entry before insert on pms_ledger for each row
         when (new.account_id = ${Number(refused)}) execute function refuse_test_entry()`,
    );
    try {
      const outcomes = await priceRound(3, memory);
      assert.equal(writes.length, 2, "both parts tried unlocked");
      const failedPart = writes.find((accounts) => accounts.includes(refused))!;
      outcomes.forEach((outcome, i) => {
        if (ids[i] === refused) assert.equal(outcome, undefined, "the refused reading has no outcome");
        else assert.equal(outcome?.charged, 50n, `reading of ${ids[i]} priced`);
      });
      assert.equal(memory.size, METERS - failedPart.length, "the failed part's accounts are forgotten");
    } finally {
      await server.db.query("drop trigger refuse_test_entry on pms_ledger");
      await server.db.query("drop function refuse_test_entry()");
    }
    // Its next reading is charged for all it used since its last priced one.
    const [outcome] = await priceBatch(server.db, [readingOf(refused, 4)], "Asia/Shanghai", memory);
    assert.equal(outcome?.charged, 100n, "2.00 kWh since its last priced reading");
    const charged = await charges();
    // Three entries each: the refused account's third covers rounds 3 and 4.
    for (const id of ids) assert.equal(charged.get(id)?.entries, "3", `account ${id}`);
    assert.equal(charged.get(refused)?.charged, "200");
    await consistency();
  });
});

/** The owner of an account of this test: each pair's first meter's (see before()). */
const ownerOf = (accountId: string) => {
  const offset = Number(accountId) - BASE;
  return String(BASE + offset - (offset % 2));
};

/** The ids of a bigint array parameter, as the driver was handed it (an array or its literal text). */
function literalIds(param: unknown): string[] {
  if (Array.isArray(param)) return param.map(String);
  if (typeof param === "string") return param.replace(/[{}"]/g, "").split(",").filter(Boolean);
  return [];
}

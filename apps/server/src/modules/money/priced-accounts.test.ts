import assert from "node:assert/strict";
import { test } from "node:test";
import { PricedAccountMemory, type VersionedAccount } from "./priced-accounts.ts";
import { ACCOUNT } from "./pricing-columns.ts";
import { type PricedAccount, pricedPosition } from "./usage-pricing.ts";

const account = (id: number, overrides: Partial<VersionedAccount> = {}): VersionedAccount =>
  ({
    id: String(id),
    tenant_id: "000000",
    owner_id: String(id),
    energy_type: 1,
    meter_id: String(id),
    balance: "1000",
    alarm_level: 0,
    arrears_status: 0,
    cycle_key: "2026-11",
    cycle_total: String(id * 3),
    cycle_tip: "1",
    cycle_peak: "2",
    cycle_peace: "3",
    cycle_low: "4",
    register_total: String(id * 100),
    register_tip: null,
    register_peak: "7",
    register_peace: null,
    register_low: "9",
    priced_time: new Date(Date.UTC(2026, 10, 30, 1, id % 60)),
    fee_month: "2026-11",
    row_version: "100",
    ...overrides,
  }) as VersionedAccount;

test("a remembered account is lent as it is, and gone once forgotten", () => {
  const memory = new PricedAccountMemory(10);
  const a = account(1);
  memory.remember("k1", a);
  assert.equal(memory.recall("k1"), a, "the same object: pricing plans over it in place");
  memory.forget("k1");
  assert.equal(memory.recall("k1"), undefined);
  assert.equal(memory.size, 0);
});

test("once full, a new meter is not taken in until an entry has aged out; written ones stay", () => {
  let now = 0;
  const memory = new PricedAccountMemory(3, 1_000, () => now);
  for (let i = 1; i <= 3; i++) memory.remember(`k${i}`, account(i));
  memory.remember("k4", account(4));
  assert.equal(memory.recall("k4"), undefined, "full: the fourth is not taken in");
  assert.ok(memory.recall("k1"), "and none of the three was pushed out for it");
  now = 600;
  memory.remember("k2", account(2, { row_version: "101" }));
  assert.equal(memory.recall("k2")?.row_version, "101", "written again: the new version replaces the old");
  now = 1_200;
  memory.remember("k5", account(5));
  assert.ok(memory.recall("k5"), "k1 and k3 aged out and made room");
  assert.equal(memory.recall("k1"), undefined);
  assert.equal(memory.recall("k3"), undefined);
  assert.ok(memory.recall("k2"), "k2 was written 600 ms ago: still young");
  now = 1_700;
  assert.equal(
    memory.recall("k2"),
    undefined,
    "too old to be trusted: a version is never compared that late",
  );
});

test("a full memory of young accounts turns a new meter away after looking at one entry, not all", () => {
  let now = 0;
  const memory = new PricedAccountMemory(1_000, 1_000, () => now);
  for (let i = 1; i <= 1_000; i++) memory.remember(`k${i}`, account(i));
  // Entries looked at, counted where the memory walks its map (its only walk is the look for aged ones).
  let looked = 0;
  const walk = Map.prototype[Symbol.iterator];
  Map.prototype[Symbol.iterator] = function (this: Map<unknown, unknown>) {
    const inner = walk.call(this);
    return {
      next: () => {
        looked++;
        return inner.next();
      },
      [Symbol.iterator]() {
        return this;
      },
    } as ReturnType<typeof walk>;
  };
  try {
    now = 500;
    for (let i = 1_001; i <= 2_000; i++) memory.remember(`k${i}`, account(i));
  } finally {
    Map.prototype[Symbol.iterator] = walk;
  }
  assert.equal(memory.size, 1_000, "none taken in: all remembered ones are young");
  assert.ok(looked <= 1_000, `1,000 meters turned away looked at ${looked} entries`);
  now = 1_200;
  memory.remember("k1", account(1, { row_version: "101" }));
  now = 1_300;
  memory.remember("k2001", account(2001));
  assert.ok(memory.recall("k2001"), "the oldest write aged out and made room");
  assert.equal(memory.recall("k2"), undefined, "k2, written at 0, went first");
  assert.equal(memory.recall("k1")?.row_version, "101", "k1, written again at 1,200, stays");
});

test("the accounts' columns are the priced position's, column by column, for any account", () => {
  for (let seed = 1; seed <= 200; seed++) {
    const a = account(seed, {
      cycle_key: seed % 5 === 0 ? null : `2026-${String((seed % 12) + 1).padStart(2, "0")}`,
      register_tip: seed % 3 === 0 ? null : String(seed * 11),
      priced_time: seed % 7 === 0 ? null : new Date(Date.UTC(2026, seed % 12, 1 + (seed % 28))),
      fee_month: seed % 4 === 0 ? null : "2026-10",
    });
    assert.deepEqual(
      ACCOUNT.map((column) => column.of(a)),
      [
        a.balance,
        a.alarm_level,
        a.arrears_status,
        ...pricedPosition(a as PricedAccount).map((value) =>
          value instanceof Date ? value.toISOString() : (value ?? null),
        ),
      ],
    );
  }
});

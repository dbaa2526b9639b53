import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { Queryable } from "../src/db/client.ts";
import { MeterPlaceCache, startMeterPlaceCache } from "../src/modules/metering/meter-places.ts";
import { startTestServer, type TestServer } from "./helpers.ts";
import { seedPricedMeters } from "./priced-meters-fixture.ts";

/** Waits until `check` holds, at most `ms`. */
async function until(check: () => boolean | Promise<boolean>, what: string, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) assert.fail(`not within ${ms} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * The gateway's memory of where meters belong: a batch asks the database only for meters not seen
 * since the last change, and every process forgets when the registry announces one — but never for
 * the writes every reading makes, or the cache would be forgotten a thousand times a second.
 */
describe("meter places kept until the registry announces a change", () => {
  let server: TestServer;
  let cache: MeterPlaceCache;
  let stop: () => Promise<void>;
  /** Tables whose announcements reached the cache, in order. */
  const heard: string[] = [];
  const BASE = 7_300_000;
  // Meters BASE (priced), BASE+1 and BASE+2 (no account yet).
  const ids = [0, 1, 2].map((i) => String(BASE + i));
  const UNKNOWN = String(BASE + 50);

  before(async () => {
    server = await startTestServer();
    await seedPricedMeters(server.db, {
      base: BASE,
      meters: 3,
      priced: 1,
      deposit: 10_000n,
      pricedUpTo: new Date("2026-11-01T00:00:00Z"),
    });
    ({ cache, stop } = await startMeterPlaceCache(server.db));
    const changed = cache.changed.bind(cache);
    cache.changed = (table: string) => {
      heard.push(table);
      changed(table);
    };
    await until(() => cache.isLive, "the cache listens");
  });
  after(async () => {
    await stop?.();
    await server?.close();
  });

  /** An announcement of a table no cache reads, to know everything written before it was heard. */
  const announced = async (mark: string) => {
    await server.db.query("select pg_notify('meterline_cache', $1)", [mark]);
    await until(() => heard.includes(mark), `the mark ${mark} heard`);
  };

  test("a second lookup of the same meters asks the database nothing, unknown meters included", async () => {
    const first = await cache.of(server.db, [...ids, UNKNOWN]);
    assert.deepEqual([...first.keys()].sort(), ids);
    assert.equal(first.get(ids[0]!)?.priced, true);
    assert.equal(first.get(ids[1]!)?.priced, false);
    assert.equal(first.get(ids[0]!)?.tenantId, "000000");
    assert.equal(first.get(ids[0]!)?.roomId, ids[0]);
    const loaded = cache.counts.loaded;
    const second = await cache.of(server.db, [UNKNOWN, ...ids]);
    assert.deepEqual(second, first);
    assert.equal(cache.counts.loaded, loaded, "every meter answered from memory");
  });

  test("the writes every reading and charge make announce nothing", async () => {
    await cache.of(server.db, ids);
    const forgotten = cache.counts.forgotten;
    heard.length = 0;
    // What the sink and pricing write on every reading: online and supply state, latest values,
    // balances and priced position, the owner's balance.
    await server.db.query(
      "update pms_meter set online_status = 1, switch_status = 0, update_time = now() where id = any($1::bigint[])",
      [ids],
    );
    await server.db.query(
      `update pms_account set balance = balance - 1, alarm_level = 0, arrears_status = 0, register_total = 1,
              priced_time = now(), update_time = now() where meter_id = $1`,
      [ids[0]],
    );
    await server.db.query("update pms_owner set balance = balance - 0.01 where id = $1", [ids[0]]);
    await announced("mark_after_readings");
    // (Live pages hear of the balance on the same channel; no table of a place is announced.)
    assert.deepEqual(
      heard.filter((table) => table.startsWith("pms_")),
      [],
    );
    assert.equal(cache.counts.forgotten, forgotten);
    const loaded = cache.counts.loaded;
    await cache.of(server.db, ids);
    assert.equal(cache.counts.loaded, loaded);
  });

  test("an account opened on a meter makes it priced at once, in this process and any other", async () => {
    const other = new MeterPlaceCache();
    const stopOther = await server.db.watchChanges(other);
    try {
      await until(() => other.isLive, "the second cache listens");
      assert.equal((await cache.of(server.db, ids)).get(ids[1]!)?.priced, false);
      assert.equal((await other.of(server.db, ids)).get(ids[1]!)?.priced, false);
      await server.db.query(
        `insert into pms_account (id, tenant_id, owner_id, room_id, energy_type, meter_id, control_status,
                                  charging_scheme_id, alarm_scheme_id, balance)
         values ($1, '000000', $1, $1, 1, $1, 1, $2, $2, 0)`,
        [ids[1], BASE],
      );
      // The writing process forgets before its statement returns (the trigger's notice).
      assert.equal((await cache.of(server.db, ids)).get(ids[1]!)?.priced, true);
      await until(
        async () => (await other.of(server.db, ids)).get(ids[1]!)?.priced === true,
        "the other process hears it",
      );
      // Switched to local control (the meter keeps its own balance): no longer priced here.
      await server.db.query("update pms_account set control_status = 0 where meter_id = $1", [ids[1]]);
      assert.equal((await cache.of(server.db, ids)).get(ids[1]!)?.priced, false);
    } finally {
      await stopOther();
    }
  });

  test("a meter registered after it was looked up as unknown is found", async () => {
    assert.equal((await cache.of(server.db, [UNKNOWN])).size, 0);
    await server.db.query(
      `insert into pms_meter (id, tenant_id, product_code, protocol, control_status, account_status, online_status)
       values ($1::bigint, '000000', $2, 'dlt645-2007', 1, 0, 0)`,
      [UNKNOWN, UNKNOWN.padStart(12, "0")],
    );
    await until(async () => (await cache.of(server.db, [UNKNOWN])).has(UNKNOWN), "the new meter found");
  });

  test("a meter moved to another room is looked up again", async () => {
    assert.equal((await cache.of(server.db, [ids[2]!])).get(ids[2]!)?.roomId, ids[2]);
    await server.db.query("update pms_room_meter set room_id = $2 where meter_id = $1", [ids[2], ids[1]]);
    await until(
      async () => (await cache.of(server.db, [ids[2]!])).get(ids[2]!)?.roomId === ids[1],
      "the new room seen",
    );
  });

  test("a lookup that was running when a change came is not kept", async () => {
    const fresh = new MeterPlaceCache();
    fresh.listening(true);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slow: Queryable = {
      query: async (sql, params) => {
        await gate;
        return server.db.query(sql, params);
      },
    };
    const lookup = fresh.of(slow, ids);
    fresh.changed("pms_account");
    release();
    assert.equal((await lookup).size, 3, "the caller still gets its answer");
    assert.equal(fresh.size, 0, "but it is not kept");
    await fresh.of(server.db, ids);
    assert.equal(fresh.size, 3);
    fresh.listening(false);
    assert.equal(fresh.size, 0, "a lost channel forgets everything");
    const loaded = fresh.counts.loaded;
    await fresh.of(server.db, ids);
    await fresh.of(server.db, ids);
    assert.equal(fresh.counts.loaded, loaded, "and while it is lost nothing is kept, so nothing is counted");
    assert.equal(fresh.size, 0);
  });
});

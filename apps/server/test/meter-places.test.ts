import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { SharedCache } from "../src/cache/shared-cache.ts";
import { type Db, openDb, type Queryable } from "../src/db/client.ts";
import { placesOf } from "../src/modules/metering/current-data-batch.db.ts";
import { cachedPlaces } from "../src/modules/metering/meter-places.ts";
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
 * The gateway's memory of where meters belong (the shared cache's part `meterPlace`): a batch asks
 * the database only for meters not seen since the last change, and every process forgets when the
 * registry announces one — but never for the writes every reading makes, or the places would be
 * forgotten a thousand times a second.
 */
describe("meter places kept until the registry announces a change", () => {
  let server: TestServer;
  /** The server's shared cache, which the server's database handle reads places through. */
  let cache: SharedCache;
  /** Tables whose announcements reached the cache, in order. */
  const heard: string[] = [];
  const BASE = 7_300_000;
  // Meters BASE (priced), BASE+1 and BASE+2 (no account yet).
  const ids = [0, 1, 2].map((i) => String(BASE + i));
  const UNKNOWN = String(BASE + 50);
  const places = (meterIds: readonly string[]) => cachedPlaces(server.db, meterIds);

  before(async () => {
    server = await startTestServer();
    await seedPricedMeters(server.db, {
      base: BASE,
      meters: 3,
      priced: 1,
      deposit: 10_000n,
      pricedUpTo: new Date("2026-11-01T00:00:00Z"),
    });
    cache = server.app.sharedCache;
    const changed = cache.changed.bind(cache);
    cache.changed = (table: string) => {
      heard.push(table);
      changed(table);
    };
    await until(() => cache.isLive, "the cache listens");
    // The seed's own announcements may still be on their way and would empty the cache between
    // the first test's two lookups: wait until a mark sent after them is heard.
    await announced("mark_after_seed");
  });
  after(async () => {
    await server?.close();
  });

  /** An announcement of a table no cache reads, to know everything written before it was heard. */
  const announced = async (mark: string) => {
    await server.db.query("select pg_notify('meterline_cache', $1)", [mark]);
    await until(() => heard.includes(mark), `the mark ${mark} heard`);
  };

  test("a second lookup of the same meters asks the database nothing, unknown meters included", async () => {
    const first = await places([...ids, UNKNOWN]);
    assert.deepEqual([...first.keys()].sort(), ids);
    assert.equal(first.get(ids[0]!)?.priced, true);
    assert.equal(first.get(ids[1]!)?.priced, false);
    assert.equal(first.get(ids[0]!)?.tenantId, "000000");
    assert.equal(first.get(ids[0]!)?.roomId, ids[0]);
    const { loaded, hits } = cache.counts.meterPlace;
    const second = await places([UNKNOWN, ...ids]);
    assert.deepEqual(second, first);
    assert.equal(cache.counts.meterPlace.loaded, loaded, "every meter answered from memory");
    assert.equal(cache.counts.meterPlace.hits, hits + 4);
  });

  test("a transaction's handle reads the places from the database", async () => {
    await places(ids);
    const { loaded, hits } = cache.counts.meterPlace;
    const inside = await server.db.transaction((tx) => cachedPlaces(tx, ids));
    assert.equal(inside.size, 3);
    assert.deepEqual(cache.counts.meterPlace, { loaded, hits }, "the cache was not asked");
  });

  test("the writes every reading and charge make announce nothing", async () => {
    await places(ids);
    const forgotten = cache.drops.meterPlace;
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
    assert.equal(cache.drops.meterPlace, forgotten);
    const loaded = cache.counts.meterPlace.loaded;
    await places(ids);
    assert.equal(cache.counts.meterPlace.loaded, loaded);
  });

  test("an account opened on a meter makes it priced at once, in this process and any other", async () => {
    // Another process: on PostgreSQL a handle of its own (its own pool and listener); PGlite has one.
    const otherDb: Db = server.databaseUrl ? await openDb({ databaseUrl: server.databaseUrl }) : server.db;
    const other = new SharedCache();
    const stopOther = await otherDb.watchChanges(other);
    const otherPlaces = () => other.getMany("meterPlace", ids, (missing) => placesOf(otherDb, missing));
    try {
      await until(() => other.isLive, "the second cache listens");
      assert.equal((await places(ids)).get(ids[1]!)?.priced, false);
      assert.equal((await otherPlaces()).get(ids[1]!)?.priced, false);
      await server.db.query(
        `insert into pms_account (id, tenant_id, owner_id, room_id, energy_type, meter_id, control_status,
                                  charging_scheme_id, alarm_scheme_id, balance)
         values ($1, '000000', $1, $1, 1, $1, 1, $2, $2, 0)`,
        [ids[1], BASE],
      );
      // The writing process forgets before its statement returns (the trigger's notice).
      assert.equal((await places(ids)).get(ids[1]!)?.priced, true);
      await until(
        async () => (await otherPlaces()).get(ids[1]!)?.priced === true,
        "the other process hears it",
      );
      // Switched to local control (the meter keeps its own balance): no longer priced here.
      await server.db.query("update pms_account set control_status = 0 where meter_id = $1", [ids[1]]);
      assert.equal((await places(ids)).get(ids[1]!)?.priced, false);
    } finally {
      await stopOther();
      if (otherDb !== server.db) await otherDb.close();
    }
  });

  test("a meter registered after it was looked up as unknown is found", async () => {
    assert.equal((await places([UNKNOWN])).size, 0);
    await server.db.query(
      `insert into pms_meter (id, tenant_id, product_code, protocol, control_status, account_status, online_status)
       values ($1::bigint, '000000', $2, 'dlt645-2007', 1, 0, 0)`,
      [UNKNOWN, UNKNOWN.padStart(12, "0")],
    );
    await until(async () => (await places([UNKNOWN])).has(UNKNOWN), "the new meter found");
  });

  test("a meter moved to another room is looked up again", async () => {
    assert.equal((await places([ids[2]!])).get(ids[2]!)?.roomId, ids[2]);
    await server.db.query("update pms_room_meter set room_id = $2 where meter_id = $1", [ids[2], ids[1]]);
    await until(async () => (await places([ids[2]!])).get(ids[2]!)?.roomId === ids[1], "the new room seen");
  });

  test("a lookup that was running when a change came is not kept", async () => {
    const fresh = new SharedCache();
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
    const lookup = fresh.getMany("meterPlace", ids, (missing) => placesOf(slow, missing));
    fresh.changed("pms_account");
    release();
    assert.equal((await lookup).size, 3, "the caller still gets its answer");
    assert.equal(fresh.size("meterPlace"), 0, "but it is not kept");
    const read = () => fresh.getMany("meterPlace", ids, (missing) => placesOf(server.db, missing));
    await read();
    assert.equal(fresh.size("meterPlace"), 3);
    fresh.listening(false);
    assert.equal(fresh.size("meterPlace"), 0, "a lost channel forgets everything");
    const loaded = fresh.counts.meterPlace.loaded;
    assert.equal((await read()).size, 3);
    await read();
    assert.equal(
      fresh.counts.meterPlace.loaded,
      loaded,
      "and while it is lost nothing is kept, so nothing is counted",
    );
    assert.equal(fresh.size("meterPlace"), 0);
  });
});

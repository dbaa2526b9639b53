import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { test } from "node:test";
import { leaseSchemaSql, PgLeaseStore } from "@meterline/gateway";
import pg from "pg";

const url = process.env.TEST_DATABASE_URL;

test("PostgreSQL leases: one winner, renewals, expiry by the database clock", {
  skip: url ? false : "TEST_DATABASE_URL is not set",
}, async () => {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  const name = `gateway_lease_test_${randomBytes(4).toString("hex")}`;
  await admin.query(`create database ${name}`);
  const target = new URL(url!);
  target.pathname = `/${name}`;
  let store: PgLeaseStore | undefined;
  try {
    const setup = new pg.Client({ connectionString: target.toString() });
    await setup.connect();
    await setup.query(await leaseSchemaSql());
    await setup.end();
    store = await PgLeaseStore.connect(target.toString(), { max: 8 });

    const owners = Array.from({ length: 8 }, (_, i) => `gw${i}`);
    const wins = await Promise.all(owners.map((owner) => store!.acquire("DTU1", owner, 60_000)));
    assert.equal(wins.filter(Boolean).length, 1, "exactly one gateway wins a race");
    const winner = owners[wins.indexOf(true)]!;
    const loser = owners.find((owner) => owner !== winner)!;

    assert.equal(await store.acquire("DTU1", winner, 60_000), true, "the owner may renew by acquiring");
    assert.deepEqual(await store.renew(["DTU1", "DTU2"], winner, 60_000), new Set(["DTU1"]));
    assert.deepEqual(await store.renew(["DTU1"], loser, 60_000), new Set());

    assert.equal(await store.acquire("DTU2", winner, 1), true);
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(await store.acquire("DTU2", loser, 60_000), true, "an expired lease can be taken");
    assert.deepEqual(
      await store.renew(["DTU2"], winner, 60_000),
      new Set(),
      "and its old owner learns it lost it",
    );

    await store.release(["DTU1"], loser);
    assert.equal(await store.acquire("DTU1", loser, 60_000), false, "only the owner releases");
    await store.release(["DTU1"], winner);
    assert.equal(await store.acquire("DTU1", loser, 60_000), true);

    // The holder hears, through NOTIFY, that another gateway wants the collector; others do not.
    const heard: string[] = [];
    const other: string[] = [];
    const stopHolder = await store.onReleaseRequested(loser, (id) => heard.push(id));
    const stopOther = await store.onReleaseRequested(winner, (id) => other.push(id));
    await store.requestRelease("DTU1", winner);
    await store.requestRelease("DTU1", loser); // its own holder asking: nobody is told
    for (let i = 0; i < 100 && heard.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(heard, ["DTU1"]);
    assert.deepEqual(other, []);
    await stopHolder();
    await stopOther();

    // Live gateways are counted with their leases, so a newcomer is seen before it holds any.
    assert.deepEqual(await store.share(loser, 60_000), { members: 1, collectors: 2, mine: 2 });
    assert.deepEqual(await store.share("newcomer", 60_000), { members: 2, collectors: 2, mine: 0 });
    await store.leave("newcomer");
    assert.deepEqual(await store.share(loser, 60_000), { members: 1, collectors: 2, mine: 2 });
  } finally {
    await store?.close();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
});

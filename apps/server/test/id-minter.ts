/**
 * A process of its own for id-workers.test.ts: leases an id worker on DATABASE_URL, says which, waits
 * for "go" on stdin (so every minter is alive at once), mints COUNT ids into OUT as 64-bit
 * integers, gives the worker back and exits.
 */
import { writeFile } from "node:fs/promises";
import { createInterface } from "node:readline";
import { openDb } from "../src/db/client.ts";
import { IdWorkerLease } from "../src/db/id-worker-lease.ts";
import { nextId } from "../src/db/ids.ts";

const count = Number(process.env.COUNT);
const db = await openDb({ databaseUrl: process.env.DATABASE_URL! });
const lease = await IdWorkerLease.take(db);
console.log(`ready ${lease.worker}`);
await new Promise<void>((resolve) => {
  createInterface({ input: process.stdin }).once("line", () => resolve());
});
const ids = new BigUint64Array(count);
for (let i = 0; i < count; i++) ids[i] = BigInt(nextId());
await writeFile(process.env.OUT!, ids);
await lease.release();
await db.close();
console.log("done");

import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { IdWorkerLease } from "../src/db/id-worker-lease.ts";
import { currentWorker, IdWorkerLapsedError, nextId, workerOfId } from "../src/db/ids.ts";
import { startTestServer } from "./helpers.ts";

const MINTER = fileURLToPath(new URL("./id-minter.ts", import.meta.url));
const EPOCH = 1_704_067_200_000n;
const msOfId = (id: string) => (BigInt(id) >> 22n) + EPOCH;

const PROCESSES = 16;
const IDS_EACH = 100_000;

test("16 processes on one PostgreSQL mint 100,000 ids each, all distinct", {
  skip: !process.env.TEST_DATABASE_URL && "needs TEST_DATABASE_URL (real processes share a server)",
  timeout: 240_000,
}, async () => {
  const server = await startTestServer();
  const dir = await mkdtemp(path.join(tmpdir(), "meterline-ids-"));
  const children: ChildProcess[] = [];
  try {
    const ready: Promise<number>[] = [];
    const done: Promise<void>[] = [];
    for (let i = 0; i < PROCESSES; i++) {
      const child = spawn(process.execPath, ["--import", "tsx", MINTER], {
        env: {
          ...process.env,
          DATABASE_URL: server.databaseUrl!,
          COUNT: String(IDS_EACH),
          OUT: path.join(dir, `${i}.bin`),
        },
        stdio: ["pipe", "pipe", "pipe"],
      });
      children.push(child);
      let output = "";
      child.stdout!.on("data", (d) => (output += d));
      child.stderr!.on("data", (d) => (output += d));
      ready.push(
        waitFor(
          child,
          () => /ready (\d+)/.exec(output)?.[1],
          () => output,
        ).then(Number),
      );
      done.push(
        new Promise((resolve, reject) =>
          child.once("exit", (code) =>
            code === 0 ? resolve() : reject(new Error(`minter ${i}: ${code}\n${output}`)),
          ),
        ),
      );
    }
    const workers = await Promise.all(ready);
    assert.equal(new Set(workers).size, PROCESSES, `live processes hold distinct numbers: ${workers}`);
    for (const child of children) child.stdin!.end("go\n");
    await Promise.all(done);

    const all = new BigUint64Array(PROCESSES * IDS_EACH);
    for (let i = 0; i < PROCESSES; i++) {
      const bytes = await readFile(path.join(dir, `${i}.bin`));
      all.set(new BigUint64Array(bytes.buffer, bytes.byteOffset, IDS_EACH), i * IDS_EACH);
    }
    all.sort();
    let duplicates = 0;
    for (let i = 1; i < all.length; i++) if (all[i] === all[i - 1]) duplicates++;
    assert.equal(duplicates, 0, `${duplicates} duplicate ids among ${all.length}`);
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
    await rm(dir, { recursive: true, force: true });
    await server.close();
  }
});

test("worker leases: exclusive while live, renewed, a lapsed one reused after what its holder minted", async () => {
  const server = await startTestServer();
  const { db } = server;
  const problems: string[] = [];
  const onProblem = (message: string) => problems.push(message);
  try {
    // Taken together, as processes starting at the same instant would.
    const leases = await Promise.all(
      Array.from({ length: 8 }, () => IdWorkerLease.take(db, { ttlMs: 60_000, onProblem })),
    );
    const workers = leases.map((l) => l.worker);
    assert.equal(new Set(workers).size, 8, `eight live leases, eight numbers: ${workers}`);
    assert.equal(workerOfId(nextId()), currentWorker());
    assert.ok(workers.includes(currentWorker()), "ids carry a leased number");

    // Renewal moves the expiry on, by the database clock.
    const first = leases[0]!;
    const before = await expiryOf(db, first.worker!);
    await new Promise((r) => setTimeout(r, 20));
    await first.renew();
    assert.ok((await expiryOf(db, first.worker!)) > before, "renewed");

    // A holder that stalled past its ttl: every other number is held, so a newcomer must take the
    // lapsed one, and its ids start after the last millisecond the old holder could have used.
    const stalled = leases[1]!;
    const farAhead = BigInt(Date.now()) + 600_000n;
    await db.query(
      "update id_worker set expires_at = now() - interval '1 second', minted_until = $2 where worker = $1",
      [stalled.worker, farAhead.toString()],
    );
    await db.query(
      "update id_worker set holder = 'elsewhere', expires_at = now() + interval '1 hour' where holder is null",
    );
    const newcomer = await IdWorkerLease.take(db, { ttlMs: 60_000, onProblem });
    assert.equal(newcomer.worker, stalled.worker, "the lapsed number is reused");
    const id = nextId();
    assert.equal(workerOfId(id), newcomer.worker);
    assert.ok(msOfId(id) > farAhead, "ids after the previous holder's last millisecond");

    // The stalled holder wakes up: its renewal finds the number taken and it does not keep it.
    await stalled.renew();
    assert.notEqual(stalled.worker, newcomer.worker);
    assert.ok(
      problems.some((p) => p.includes("taken over")),
      problems.join("; "),
    );

    // With all 1024 held, a new process is refused rather than given a shared number.
    await assert.rejects(IdWorkerLease.take(db, { ttlMs: 60_000 }), /all 1024 id worker numbers are leased/);

    // Given back: free at once for the next process. (This test runs last in its file: a released
    // lease leaves the process without ids, as it should.)
    const given = newcomer.worker;
    await newcomer.release();
    assert.throws(() => nextId(), IdWorkerLapsedError, "no ids without a lease once one was held");
    const next = await IdWorkerLease.take(db, { ttlMs: 60_000 });
    assert.equal(next.worker, given, "a number given back is taken first");
    await next.release();
    for (const lease of leases) await lease.release();
  } finally {
    await server.close();
  }
});

async function expiryOf(db: { query<T>(sql: string, p?: unknown[]): Promise<T[]> }, worker: number) {
  const [row] = await db.query<{ ms: string }>(
    "select (extract(epoch from expires_at) * 1000)::bigint::text as ms from id_worker where worker = $1",
    [worker],
  );
  return BigInt(row!.ms);
}

/** Resolves with `found()` once it is defined; rejects if the child exits first. */
function waitFor<T>(child: ChildProcess, found: () => T | undefined, output: () => string): Promise<T> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const value = found();
      if (value !== undefined) {
        clearInterval(timer);
        resolve(value);
      } else if (child.exitCode !== null) {
        clearInterval(timer);
        reject(new Error(`process exited before it was ready:\n${output()}`));
      }
    };
    const timer = setInterval(check, 50);
  });
}

/**
 * What the money benchmarks share: a fresh database of either kind (a database of its own on the
 * PostgreSQL server at BENCH_POSTGRES_URL, default postgres://postgres@127.0.0.1:5432/postgres,
 * dropped at the end; or a file-backed PGlite in a temporary DATA_DIR, removed at the end),
 * settings from flags or environment variables, and the printed lines with their conditions.
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { availableParallelism, cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { type Db, openDb } from "../apps/server/src/db/client.ts";
import { migrate } from "../apps/server/src/db/migrate.ts";
import { seed } from "../apps/server/src/db/seed.ts";

export type DatabaseKind = "postgres" | "pglite";

/** The PostgreSQL server the benchmarks create their databases on. */
const SERVER_URL = process.env.BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

/**
 * Reads `--name value` or, without the flag, the environment variable NAME (dashes as underscores),
 * else the default: `--accounts 5000` and `ACCOUNTS=5000` say the same.
 */
export function settings<K extends string>(defaults: Record<K, string>): Record<K, string> {
  const names = Object.keys(defaults) as K[];
  const { values } = parseArgs({
    options: Object.fromEntries(names.map((name) => [name, { type: "string" as const }])),
  });
  const flags = values as Record<string, string | undefined>;
  const read = (name: K) =>
    flags[name] ?? process.env[name.toUpperCase().replaceAll("-", "_")] ?? defaults[name];
  return Object.fromEntries(names.map((name) => [name, read(name)])) as Record<K, string>;
}

export function count(text: string, name: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`${name}: not a whole number: ${text}`);
  return value;
}

export interface BenchDatabase {
  db: Db;
  kind: DatabaseKind;
  /** Where it lives, for the conditions line. */
  where: string;
  /** The PostgreSQL database's URL (undefined for PGlite). */
  url?: string;
  drop(): Promise<void>;
}

/** A new database of its own, migrated and seeded as `npm start` does, removed again by drop(). */
export async function freshDatabase(kind: DatabaseKind): Promise<BenchDatabase> {
  if (kind === "pglite") {
    const dir = await mkdtemp(path.join(tmpdir(), "meterline-bench-money-"));
    const db = await openDb({ dataDir: path.join(dir, "data") });
    await prepare(db);
    return {
      db,
      kind,
      where: `PGlite, file-backed in ${dir}`,
      drop: async () => {
        await db.close();
        await rm(dir, { recursive: true, force: true });
      },
    };
  }
  const name = `meterline_bench_${randomBytes(5).toString("hex")}`;
  await onServer(`create database ${name}`);
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  const db = await openDb({ databaseUrl: url.toString() });
  await prepare(db);
  const [server] = await db.query<{ version: string; shared_buffers: string; synchronous_commit: string }>(
    `select current_setting('server_version') as version, current_setting('shared_buffers') as shared_buffers,
            current_setting('synchronous_commit') as synchronous_commit`,
  );
  return {
    db,
    kind,
    url: url.toString(),
    where: `PostgreSQL ${server!.version} on ${url.host} (database ${name}, shared_buffers ${server!.shared_buffers}, synchronous_commit ${server!.synchronous_commit}), pool of 10 connections`,
    drop: async () => {
      await db.close();
      await onServer(`drop database if exists ${name} with (force)`);
    },
  };
}

async function prepare(db: Db): Promise<void> {
  await migrate(db);
  await seed(db, { adminPassword: BENCH_ADMIN_PASSWORD });
}

export const BENCH_ADMIN_PASSWORD = "bench-admin";

async function onServer(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: SERVER_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** The machine line every benchmark starts with. */
export function machine(): string {
  return `node ${process.version}, ${availableParallelism()} cores (${cpus()[0]?.model.trim() ?? "unknown CPU"}), load average ${loadavg()[0]!.toFixed(1)} at start`;
}

export const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
export const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

export async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - start };
}

/** One figure: what, how long, optionally rows per second, and the process's RSS now. */
export function line(what: string, ms: number, rows?: number): void {
  const rate = rows ? `${String(Math.round(rows / (ms / 1000))).padStart(8)} rows/s` : "".padEnd(15);
  console.log(
    `${what.padEnd(58)} ${(ms / 1000).toFixed(2).padStart(7)} s   ${rate}   RSS ${mib(process.memoryUsage().rss)}`,
  );
}

/** The value below which `share` of the sorted samples fall (nearest rank). */
export function percentile(sorted: readonly number[], share: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(share * sorted.length) - 1))]!;
}

/** A result the benchmark cannot trust: the run stops (after its cleanup) and exits non-zero. */
export function fail(message: string): never {
  throw new Error(`FAILED: ${message}`);
}

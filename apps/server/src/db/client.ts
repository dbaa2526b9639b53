import { AsyncLocalStorage } from "node:async_hooks";
import pg from "pg";
import { asText, createPglite } from "./pglite-open.ts";
import { openPgliteThread } from "./pglite-thread.ts";

/** Anything that runs SQL: the database itself or an open transaction. */
export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<T[]>;
}

export interface Db extends Queryable {
  readonly kind: "pglite" | "postgres";
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

// 64-bit ids and numeric money must never pass through a JS number: both drivers hand them over as text.
const INT8 = 20;
const NUMERIC = 1700;

/**
 * PGlite on the calling thread: every query blocks the event loop while it runs. Kept for
 * comparison (PGLITE_WORKER=0); the default runs it in a worker thread (pglite-thread.ts).
 */
async function openPgliteInline(dataDir: string | undefined): Promise<Db> {
  const db = await createPglite(dataDir);
  // PGlite runs one query at a time; serialise callers so a transaction never interleaves with others.
  let queue: Promise<unknown> = Promise.resolve();
  const insideTransaction = new AsyncLocalStorage<true>();
  const exclusive = <T>(fn: () => Promise<T>): Promise<T> => {
    if (insideTransaction.getStore()) {
      // Waiting here would wait for ourselves: say so instead of hanging.
      return Promise.reject(
        new Error("database handle used inside its own transaction; use the transaction's handle"),
      );
    }
    const run = queue.then(fn, fn);
    queue = run.catch(() => undefined);
    return run;
  };
  return {
    kind: "pglite",
    query: <T>(sql: string, params?: readonly unknown[]) =>
      exclusive(async () => (await db.query<T>(sql, params as unknown[])).rows),
    transaction: <T>(fn: (tx: Queryable) => Promise<T>) =>
      exclusive(() =>
        db.transaction((tx) =>
          insideTransaction.run(true, () =>
            fn({
              query: async <R>(sql: string, params?: readonly unknown[]) =>
                (await tx.query<R>(sql, params as unknown[])).rows,
            }),
          ),
        ),
      ),
    close: () => exclusive(() => db.close()),
  };
}

async function openPostgres(url: string): Promise<Db> {
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    types: {
      getTypeParser: ((oid: number, format?: "text" | "binary") =>
        oid === INT8 || oid === NUMERIC
          ? asText
          : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  // An idle connection the server drops (restart, failover) must not take the process down; the
  // pool replaces it on the next query.
  pool.on("error", (error) => console.warn(`PostgreSQL connection lost: ${error.message}`));
  await pool.query("select 1");
  return {
    kind: "postgres",
    query: async <T>(sql: string, params?: readonly unknown[]) =>
      (await pool.query(sql, params as unknown[])).rows as T[],
    transaction: async <T>(fn: (tx: Queryable) => Promise<T>) => {
      const client = await pool.connect();
      try {
        await client.query("begin");
        const result = await fn({
          query: async <R>(sql: string, params?: readonly unknown[]) =>
            (await client.query(sql, params as unknown[])).rows as R[],
        });
        await client.query("commit");
        return result;
      } catch (error) {
        await client.query("rollback").catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

/** PostgreSQL server when a URL is given, else embedded PGlite in `dataDir` (in memory when undefined). */
export function openDb(options: { databaseUrl?: string; dataDir?: string }): Promise<Db> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl);
  return process.env.PGLITE_WORKER === "0"
    ? openPgliteInline(options.dataDir)
    : openPgliteThread(options.dataDir);
}

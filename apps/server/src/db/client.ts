import { AsyncLocalStorage } from "node:async_hooks";
import pg from "pg";
import { withArrayLiterals } from "./array-literal.ts";
import { CHANGE_CHANNEL, changedTableOfNotice } from "./cache-channel.ts";
import { asText, createPglite } from "./pglite-open.ts";
import { openPgliteThread } from "./pglite-thread.ts";
import { preparedName } from "./prepared.ts";
import { TIMESTAMPTZ, timestamptzOfText } from "./timestamp-text.ts";

/** Anything that runs SQL: the database itself or an open transaction. */
export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<T[]>;
}

/** Told what changed in the tables the shared caches read (db/cache-channel.ts). */
export interface ChangeWatcher {
  /** A table the caches read was written; `table` is its name. */
  changed(table: string): void;
  /**
   * `false`: notifications may be missed from now on (the listening connection is gone), so the
   * caches must forget everything and stop caching; `true`: listening again, start afresh.
   */
  listening(live: boolean): void;
}

export interface Db extends Queryable {
  readonly kind: "pglite" | "postgres";
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * Follows the change channel: every process's committed writes (LISTEN/NOTIFY), and this
   * process's own writes as soon as their statement or transaction has finished, so the writer
   * never answers before its own caches have forgotten. Returns the function that stops it.
   */
  watchChanges(watcher: ChangeWatcher): Promise<() => Promise<void>>;
  /**
   * Runs a script of several statements without parameters in one call (simple protocol), as a
   * library's schema installer or a `begin; …; commit` block sends it: the rows of every statement.
   */
  script(sql: string): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

// 64-bit ids and numeric money must never pass through a JS number: both drivers hand them over as text.
const INT8 = 20;
const NUMERIC = 1700;

/**
 * PGlite on the calling thread: every query blocks the event loop while it runs. Kept for
 * comparison (PGLITE_WORKER=0); the default runs it in a worker thread (pglite-thread.ts).
 */
async function openPgliteInline(dataDir: string | undefined, startFrom: string | undefined): Promise<Db> {
  const db = await createPglite(dataDir, startFrom);
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
    // PGlite hands a notification to its listeners when the committing query returns, before the
    // caller sees the answer: one process, one code path, nothing missed.
    watchChanges: async (watcher) => {
      const stop = await exclusive(() => db.listen(CHANGE_CHANNEL, (table) => watcher.changed(table)));
      watcher.listening(true);
      return () => exclusive(() => stop());
    },
    script: (sql: string) =>
      exclusive(async () => {
        try {
          return (await db.exec(sql)).flatMap((r) => r.rows);
        } catch (error) {
          // A script that failed inside its own `begin` must not leave the one session aborted.
          await db.query("rollback").catch(() => undefined);
          throw error;
        }
      }),
    close: () => exclusive(() => db.close()),
  };
}

/** A statement as the driver takes it: under its prepared name when it is registered as one (db/prepared.ts). */
function statementOf(sql: string, params?: readonly unknown[]): pg.QueryConfig {
  const name = preparedName(sql);
  return { text: sql, values: withArrayLiterals(params), ...(name ? { name } : {}) };
}

async function openPostgres(url: string): Promise<Db> {
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    types: {
      getTypeParser: ((oid: number, format?: "text" | "binary") =>
        oid === INT8 || oid === NUMERIC
          ? asText
          : oid === TIMESTAMPTZ && format !== "binary"
            ? timestamptzOfText
            : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  // An idle connection the server drops (restart, failover) must not take the process down; the
  // pool replaces it on the next query.
  pool.on("error", (error) => console.warn(`PostgreSQL connection lost: ${error.message}`));
  // The change triggers also raise a notice on the writing connection: this process learns of its
  // own writes when the statement returns, without waiting for its listener's copy of the NOTIFY.
  const watchers = new Set<ChangeWatcher>();
  const ownChanges = new WeakMap<pg.PoolClient, Set<string>>();
  pool.on("connect", (client) => {
    client.on("notice", (notice) => {
      const table = changedTableOfNotice(notice.message);
      if (!table || watchers.size === 0) return;
      const tables = ownChanges.get(client) ?? new Set<string>();
      tables.add(table);
      ownChanges.set(client, tables);
    });
  });
  /** After a statement or a transaction ends (committed or not: forgetting too much is harmless). */
  const announceOwnChanges = (client: pg.PoolClient) => {
    const tables = ownChanges.get(client);
    if (!tables) return;
    ownChanges.delete(client);
    for (const table of tables) for (const watcher of watchers) watcher.changed(table);
  };
  await pool.query("select 1");
  return {
    kind: "postgres",
    query: async <T>(sql: string, params?: readonly unknown[]) => {
      const client = await pool.connect();
      try {
        const rows = (await client.query(statementOf(sql, params))).rows as T[];
        client.release();
        return rows;
      } catch (error) {
        // As pool.query does: a connection that failed a statement is not handed out again.
        client.release(error as Error);
        throw error;
      } finally {
        announceOwnChanges(client);
      }
    },
    watchChanges: async (watcher) => {
      watchers.add(watcher);
      const stopListening = await listenForChanges(url, watcher);
      return async () => {
        watchers.delete(watcher);
        await stopListening();
      };
    },
    transaction: async <T>(fn: (tx: Queryable) => Promise<T>) => {
      const client = await pool.connect();
      try {
        await client.query("begin");
        const result = await fn({
          query: async <R>(sql: string, params?: readonly unknown[]) =>
            (await client.query(statementOf(sql, params))).rows as R[],
        });
        await client.query("commit");
        return result;
      } catch (error) {
        await client.query("rollback").catch(() => undefined);
        throw error;
      } finally {
        client.release();
        announceOwnChanges(client);
      }
    },
    script: async (sql: string) => {
      const client = await pool.connect();
      try {
        // Several statements answer one result each, a single statement answers it alone.
        const answer = (await client.query(sql)) as unknown as pg.QueryResult | pg.QueryResult[];
        client.release();
        return (Array.isArray(answer) ? answer : [answer]).flatMap((r) => r.rows ?? []);
      } catch (error) {
        client.release(error as Error);
        throw error;
      } finally {
        announceOwnChanges(client);
      }
    },
    close: () => pool.end(),
  };
}

const RECONNECT_DELAYS_MS = [100, 500, 2_000, 5_000];

/**
 * A dedicated connection LISTENing on the change channel. When it is lost the watcher hears
 * `listening(false)` (the caches drop everything: notifications may be missed) and it reconnects,
 * with growing pauses, until it listens again.
 */
async function listenForChanges(url: string, watcher: ChangeWatcher): Promise<() => Promise<void>> {
  let stopped = false;
  let current: pg.Client | undefined;
  let attempt = 0;
  let timer: NodeJS.Timeout | undefined;
  const connect = async (): Promise<void> => {
    const client = new pg.Client({ connectionString: url });
    let lost = false;
    const onLost = (error?: Error) => {
      if (lost) return;
      lost = true;
      current = undefined;
      client.end().catch(() => undefined);
      if (stopped) return;
      watcher.listening(false);
      if (error) console.warn(`PostgreSQL change listener lost: ${error.message}`);
      const delay = RECONNECT_DELAYS_MS[Math.min(attempt++, RECONNECT_DELAYS_MS.length - 1)];
      timer = setTimeout(() => connect().catch(() => undefined), delay);
      timer.unref();
    };
    client.on("error", onLost);
    client.on("end", () => onLost());
    client.on("notification", (message) => {
      if (message.channel === CHANGE_CHANNEL && message.payload) watcher.changed(message.payload);
    });
    try {
      await client.connect();
      await client.query(`listen ${CHANGE_CHANNEL}`);
    } catch (error) {
      onLost(error as Error);
      throw error;
    }
    if (stopped) {
      await client.end();
      return;
    }
    current = client;
    attempt = 0;
    watcher.listening(true);
  };
  // A first attempt that fails retries in the background; the caches stay off until it listens.
  await connect().catch(() => undefined);
  return async () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    await current?.end().catch(() => undefined);
  };
}

/**
 * PostgreSQL server when a URL is given, else embedded PGlite in `dataDir` (in memory when
 * undefined), starting from the PGlite dump file `startFrom` when one is given.
 */
export function openDb(options: { databaseUrl?: string; dataDir?: string; startFrom?: string }): Promise<Db> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl);
  return process.env.PGLITE_WORKER === "0"
    ? openPgliteInline(options.dataDir, options.startFrom)
    : openPgliteThread(options.dataDir, options.startFrom);
}

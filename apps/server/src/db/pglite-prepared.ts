/**
 * Statements the embedded database parses once: each SQL text becomes a named prepared statement
 * the first time it runs, and every later run sends one message (bind, describe, execute, sync) to
 * PGlite instead of PGlite's own six (parse, describe, bind, describe, execute, sync), skipping the
 * parse and analysis of the text. A console page's statement with its joined labels spent a third
 * of its time there (bench/embedded.ts).
 *
 * Each run is still planned for its values (plan_cache_mode, set in pglite-open.ts), as the same
 * statement is on a PostgreSQL server.
 */
import { type PGlite, parse, protocol } from "@electric-sql/pglite";

const { serialize } = protocol;

interface Prepared {
  name: string;
  /** The type of each parameter as PostgreSQL inferred it: how a value is written for it. */
  paramTypes: number[];
}

/** A table under the statement changed its columns since it was prepared. */
const isStalePlan = (error: unknown) =>
  (error as { code?: string }).code === "0A000" &&
  /cached plan must not change result type/.test((error as Error).message);

/** The failed statement and its values on the error, as PGlite's own query() reports them. */
function withStatement(error: unknown, sql: string, params: readonly unknown[]): unknown {
  if (error instanceof Error && !("query" in error)) Object.assign(error, { query: sql, params });
  return error;
}

/** Statement texts longer than this run unprepared. */
const LONGEST_KEPT = 8192;

/** Names are unique in the process, so two of these on one database never collide. */
let serial = 0;

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, p) => sum + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

export class PreparedStatements {
  readonly #db: PGlite;
  readonly #limit: number;
  /** In use order, the least recently used first (a Map keeps insertion order). */
  readonly #byText = new Map<string, Prepared>();
  /** Statements dropped from the cache, closed in the next message PGlite receives. */
  #toClose: string[] = [];

  constructor(db: PGlite, limit = 500) {
    this.#db = db;
    this.#limit = limit;
  }

  async query(sql: string, params: readonly unknown[] = [], inTransaction = false): Promise<unknown[]> {
    // A long text is a bulk write (many rows of values): parsing is little of its cost, and kept
    // it would hold its parse tree in the database's memory for nothing.
    if (sql.length > LONGEST_KEPT) return (await this.#db.query(sql, params as unknown[])).rows;
    try {
      return await this.#run(sql, params);
    } catch (error) {
      // A statement prepared before a migration changed a table's columns: prepare it anew. Outside
      // a transaction only: inside one the failure has already ended it.
      if (!isStalePlan(error) || inTransaction) throw withStatement(error, sql, params);
      this.#forget(sql);
      return this.#run(sql, params).catch((again: unknown) => {
        throw withStatement(again, sql, params);
      });
    }
  }

  async #run(sql: string, params: readonly unknown[]): Promise<unknown[]> {
    const prepared = this.#byText.get(sql) ?? (await this.#prepare(sql));
    // Most recently used goes last.
    this.#byText.delete(sql);
    this.#byText.set(sql, prepared);
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const write = this.#db.serializers[prepared.paramTypes[i]!];
      return write ? write(value) : String(value);
    });
    const { messages } = await this.#db.execProtocol(
      concat([
        ...this.#closing(),
        serialize.bind({ statement: prepared.name, values }),
        serialize.describe({ type: "P" }),
        serialize.execute({}),
        serialize.sync(),
      ]),
    );
    return parse.parseResults(messages, this.#db.parsers)[0]!.rows;
  }

  async #prepare(sql: string): Promise<Prepared> {
    const name = `ml_${++serial}`;
    const { messages } = await this.#db.execProtocol(
      concat([
        ...this.#closing(),
        serialize.parse({ name, text: sql }),
        serialize.describe({ type: "S", name }),
        serialize.sync(),
      ]),
    );
    const prepared = { name, paramTypes: parse.parseDescribeStatementResults(messages) };
    this.#byText.set(sql, prepared);
    if (this.#byText.size > this.#limit) {
      const [oldest] = this.#byText.keys();
      if (oldest !== undefined) this.#forget(oldest);
    }
    return prepared;
  }

  #forget(sql: string): void {
    const prepared = this.#byText.get(sql);
    if (!prepared) return;
    this.#byText.delete(sql);
    this.#toClose.push(prepared.name);
  }

  #closing(): Uint8Array[] {
    const closes = this.#toClose.map((name) => serialize.close({ type: "S", name }));
    this.#toClose = [];
    return closes;
  }
}

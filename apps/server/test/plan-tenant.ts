import { AsyncLocalStorage } from "node:async_hooks";
import type { Db, Queryable } from "../src/db/client.ts";

/**
 * What the tenant-predicate tests share: a database handle that keeps every statement it is given,
 * and the walk over a statement's EXPLAIN plan that finds a tenant table scanned without its tenant.
 */

export interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  Alias?: string;
  Plans?: PlanNode[];
  [condition: string]: unknown;
}

const CONDITIONS = [
  "Index Cond",
  "Filter",
  "Recheck Cond",
  "TID Cond",
  "Hash Cond",
  "Merge Cond",
  "Join Filter",
];
const conditionsOf = (node: PlanNode) =>
  CONDITIONS.map((key) => node[key])
    .filter((value): value is string => typeof value === "string")
    .join(" ");

/** The tenant tables a plan scans without a tenant condition on them. */
export function unlimitedScans(
  node: PlanNode,
  tenantTables: ReadonlySet<string>,
  above: readonly string[] = [],
): string[] {
  const found: string[] = [];
  const relation = node["Relation Name"];
  if (relation && tenantTables.has(relation) && node["Node Type"] !== "ModifyTable") {
    const own = conditionsOf(node);
    // A partition's scan is aliased as its parent's with a suffix (d_1, d_2…); conditions name the parent's.
    const aliases = [node.Alias ?? relation, (node.Alias ?? relation).replace(/_\d+$/, "")];
    const joined = above.some((conditions) =>
      aliases.some((alias) => conditions.includes(`${alias}.tenant_id`)),
    );
    if (!own.includes("tenant_id") && !joined) found.push(relation);
  }
  const next = [...above, conditionsOf(node)];
  for (const child of node.Plans ?? []) found.push(...unlimitedScans(child, tenantTables, next));
  return found;
}

/** The database handle, keeping every statement it is given with its parameters. */
export function recording(db: Db): { db: Db; statements: Map<string, readonly unknown[]> } {
  const statements = new Map<string, readonly unknown[]>();
  const keep =
    (q: Queryable) =>
    <T>(sql: string, params?: readonly unknown[]) => {
      if (!statements.has(sql)) statements.set(sql, params ?? []);
      return q.query<T>(sql, params);
    };
  const wrapped: Db = Object.create(db) as Db;
  wrapped.query = keep(db) as Db["query"];
  wrapped.transaction = <T>(fn: (tx: Queryable) => Promise<T>) =>
    db.transaction((tx) => fn({ query: keep(tx) as Queryable["query"] }));
  return { db: wrapped, statements };
}

/** The tables of the current schema that carry a tenant_id. */
export async function tenantTablesOf(db: Queryable): Promise<Set<string>> {
  const rows = await db.query<{ table_name: string }>(
    `select distinct table_name from information_schema.columns
      where table_schema = current_schema() and column_name = 'tenant_id'`,
  );
  return new Set(rows.map((r) => r.table_name));
}

export interface KnownScan {
  statement: RegExp;
  table: string;
  why: string;
}

/** A statement's plan as EXPLAIN gives it (PostgreSQL answers JSON, PGlite its text). */
export async function planOf(db: Queryable, sql: string, params: readonly unknown[]): Promise<PlanNode> {
  const [row] = await db.query<{ "QUERY PLAN": [{ Plan: PlanNode }] | string }>(
    `explain (format json) ${sql}`,
    params,
  );
  const json = row!["QUERY PLAN"];
  return (typeof json === "string" ? JSON.parse(json) : json)[0].Plan as PlanNode;
}

/**
 * Plans every recorded statement and names each scan of a tenant table without its tenant that
 * `known` does not excuse, with the statement's start. `planned` counts the statements planned.
 */
export async function scansWithoutTenant(
  db: Queryable,
  statements: ReadonlyMap<string, readonly unknown[]>,
  known: readonly KnownScan[],
): Promise<{ failures: string[]; planned: number }> {
  const tenantTables = await tenantTablesOf(db);
  const failures: string[] = [];
  let planned = 0;
  for (const [sql, params] of statements) {
    if (!/^\s*(select|insert|update|delete|with)\b/i.test(sql)) continue;
    const plan = await planOf(db, sql, params);
    planned++;
    const text = sql.replace(/\s+/g, " ").trim();
    for (const table of new Set(unlimitedScans(plan, tenantTables))) {
      const parent = table.replace(/_(p\d{6}|default)$/, "");
      const excused = known.find((k) => k.statement.test(text) && k.table.split("|").includes(parent));
      if (!excused) failures.push(`${parent} in: ${text.slice(0, 200)}`);
    }
  }
  return { failures, planned };
}

/**
 * Keeps the statements the running server gives `db` itself (the app holds this very object) while
 * the test's own calls run inside `during`, a transaction's statements too. The server's background
 * jobs (workflow timers, sweeps) work across tenants by design and run outside that context, so a
 * sweep that happens to fall inside the window is not taken for a page's statement.
 */
export function recordInPlace(db: Db): {
  statements: Map<string, readonly unknown[]>;
  during<T>(calls: () => Promise<T>): Promise<T>;
  stop(): void;
} {
  const statements = new Map<string, readonly unknown[]>();
  const caller = new AsyncLocalStorage<true>();
  const query = db.query.bind(db);
  const transaction = db.transaction.bind(db);
  const keep =
    (run: Queryable["query"]) =>
    <T>(sql: string, params?: readonly unknown[]) => {
      if (caller.getStore() && !statements.has(sql)) statements.set(sql, params ?? []);
      return run<T>(sql, params);
    };
  db.query = keep(query) as Db["query"];
  db.transaction = <T>(fn: (tx: Queryable) => Promise<T>) =>
    transaction((tx) => fn({ query: keep(tx.query.bind(tx)) as Queryable["query"] }));
  return {
    statements,
    during: (calls) => caller.run(true, calls),
    stop() {
      db.query = query;
      db.transaction = transaction;
    },
  };
}

import { createHash } from "node:crypto";

/**
 * Statements the readings path sends for every wave (thousands an hour per process): on a
 * PostgreSQL server each is prepared once per connection and its plan kept, instead of being
 * parsed, analysed and planned again at every call (a fifth of the database's time for a wave of
 * 1,000 readings, bench/money-ingest.ts). Only texts registered here are prepared, so the number of
 * prepared statements a connection holds stays bounded by the code, never by the data.
 */
const names = new Map<string, string>();

/** Registers `sql` as prepared wherever it runs, and answers it unchanged. */
export function prepared(sql: string): string {
  if (!names.has(sql)) names.set(sql, `ml_${createHash("sha1").update(sql).digest("hex").slice(0, 16)}`);
  return sql;
}

/** The name a registered statement is prepared under, or undefined for any other text. */
export const preparedName = (sql: string): string | undefined => names.get(sql);

import type { Queryable } from "../db/client.ts";

/** Rows per statement: one array parameter per column keeps a statement's size bounded. */
const CHUNK = 5000;

/**
 * Inserts many rows with one statement per few thousand rows (`unnest` of one array per column),
 * so the demo's history is written in seconds on the embedded database, not one query per row.
 * `columns` pairs each column with its SQL type; rows hold the values in that order.
 */
export async function insertRows(
  db: Queryable,
  table: string,
  columns: readonly (readonly [name: string, type: string])[],
  rows: readonly (readonly unknown[])[],
): Promise<void> {
  const names = columns.map(([name]) => name).join(", ");
  const arrays = columns.map(([, type], i) => `$${i + 1}::${type}[]`).join(", ");
  for (let from = 0; from < rows.length; from += CHUNK) {
    const chunk = rows.slice(from, from + CHUNK);
    const params = columns.map((_, i) => chunk.map((row) => row[i] ?? null));
    await db.query(`insert into ${table} (${names}) select * from unnest(${arrays})`, params);
  }
}

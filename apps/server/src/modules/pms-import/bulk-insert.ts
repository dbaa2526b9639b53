import { ident } from "../../crud/sql.ts";
import type { Queryable } from "../../db/client.ts";

/** The wire protocol numbers bind parameters with 16 bits: one statement holds at most 65,535. */
const MAX_PARAMETERS = 65_535;
/** Beyond a few hundred rows a longer statement stops paying off and only holds the database longer. */
const MAX_ROWS_PER_STATEMENT = 500;

/** SQL written in code for columns every row shares; never a value that came from a request. */
export type FixedSql = "now()" | "0" | "1";

/**
 * Inserts rows with multi-row `insert … values` statements, every value a bind parameter, in
 * chunks small enough for the parameter limit. `fixed` columns take the same SQL in every row.
 */
export async function insertRows(
  db: Queryable,
  table: string,
  columns: readonly string[],
  rows: readonly (readonly unknown[])[],
  fixed: Readonly<Record<string, FixedSql>> = {},
): Promise<void> {
  if (rows.length === 0) return;
  const names = [...columns, ...Object.keys(fixed)].map(ident).join(", ");
  const shared = Object.values(fixed);
  const perStatement = Math.min(MAX_ROWS_PER_STATEMENT, Math.floor(MAX_PARAMETERS / columns.length));
  for (let start = 0; start < rows.length; start += perStatement) {
    const params: unknown[] = [];
    const tuples = rows.slice(start, start + perStatement).map((row) => {
      if (row.length !== columns.length)
        throw new Error(`${table}: ${row.length} values for ${columns.length} columns`);
      const binds = row.map((value) => `$${params.push(value)}`);
      return `(${[...binds, ...shared].join(", ")})`;
    });
    await db.query(`insert into ${ident(table)} (${names}) values ${tuples.join(", ")}`, params);
  }
}

import type { SqlParams } from "./sql.ts";

/** One key of a list order: a column expression of the definition, its direction. */
export interface OrderKey {
  expr: string;
  desc: boolean;
}

/**
 * Where a keyset page resumes: the rows strictly after `cursor` (the last row's values of `keys`,
 * read as text; null where the row had none) in the order `keys` give, with PostgreSQL's default
 * null placement (last when ascending, first when descending). The last key must be unique (the
 * id) so that no two rows tie and none is read twice or skipped.
 *
 * Each step is "after at this key, or equal here and after at the next": written out, not as a
 * row comparison, because directions may differ from key to key and a key may be null. Values are
 * bound as untyped text, so PostgreSQL reads each in its column's own type and precision.
 */
export function keysetAfter(
  keys: readonly OrderKey[],
  cursor: readonly (string | null)[],
  sql: SqlParams,
): string {
  if (keys.length === 0 || keys.length !== cursor.length) throw new Error("keyset: one value per key");
  const step = (at: number): string => {
    const { expr, desc } = keys[at]!;
    const value = cursor[at] ?? null;
    let after: string;
    let equal: string;
    if (value === null) {
      // Nulls come last ascending (nothing follows them) and first descending (every value follows).
      after = desc ? `${expr} is not null` : "false";
      equal = `${expr} is null`;
    } else {
      const bound = sql.bind(value);
      after = desc ? `${expr} < ${bound}` : `(${expr} > ${bound} or ${expr} is null)`;
      equal = `${expr} = ${bound}`;
    }
    if (at === keys.length - 1) return after;
    return `(${after} or (${equal} and ${step(at + 1)}))`;
  };
  return step(0);
}

/** The ORDER BY text of these keys. */
export const orderText = (keys: readonly OrderKey[]) =>
  keys.map((k) => `${k.expr} ${k.desc ? "desc" : "asc"}`).join(", ");

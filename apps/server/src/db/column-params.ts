/**
 * Rows sent to a set-based statement as one array parameter per column (`unnest($1::bigint[], …)`).
 * A column whose value a wave mostly shares (the tenant, the usage day, an entry's kind and cause) is
 * declared `shared`: when every row has the same value it goes once, as a parameter of its own
 * beside an empty array, instead of a thousand times in the array (pricing a wave of 1,000
 * readings sent ~260 kB of parameters, a third of it such repeats, each written, sent and parsed
 * again by the database). The statement reads such a column as `coalesce(array's value, the one
 * value)`: exactly one of the two is given, so the row's value is whichever was sent, null included.
 */
export interface Column<R> {
  name: string;
  /** The column's SQL type, as the array's element type (`bigint`, `varchar`, `date`…). */
  type: string;
  shared?: boolean;
  of: (row: R) => unknown;
}

/**
 * The rows' subquery for a statement's FROM: `(select … from unnest(…) as x(…)) as alias`, reading
 * the columns' parameters from `$first` on, in columnParams' order; `names` lists its columns in
 * that order (for an insert's column list); `next` is the first parameter after them. The planner
 * pulls the subquery up: the rows cost what a bare unnest costs.
 */
export function columnRows<R>(
  columns: readonly Column<R>[],
  first: number,
  alias: string,
): { sql: string; names: string; next: number } {
  let n = first;
  const arrays: string[] = [];
  const values: string[] = [];
  for (const { name, type, shared } of columns) {
    arrays.push(`$${n}::${type}[]`);
    values.push(shared ? `coalesce(x.${name}, $${n + 1}::${type}) as ${name}` : `x.${name}`);
    n += shared ? 2 : 1;
  }
  const names = columns.map((c) => c.name).join(", ");
  return {
    sql: `(select ${values.join(", ")} from unnest(${arrays.join(", ")}) as x(${names})) as ${alias}`,
    names,
    next: n,
  };
}

/**
 * The rows as columnRows' parameters: each column's values as an array; after a shared column's
 * array, its one value when every row has it (the array then empty), else null.
 */
export function columnParams<R>(columns: readonly Column<R>[], rows: readonly R[]): unknown[] {
  const params: unknown[] = [];
  for (const column of columns) {
    const values = rows.map(column.of);
    if (!column.shared) params.push(values);
    else if (values.length > 0 && values.every((value) => value === values[0]))
      params.push([], values[0] ?? null);
    else params.push(values, null);
  }
  return params;
}

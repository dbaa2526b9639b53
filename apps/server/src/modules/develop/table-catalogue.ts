import type { Queryable } from "../../db/client.ts";

/** One column of a table as the catalogue describes it. */
export interface ColumnInfo {
  name: string;
  dataType: string;
  maxLength: number | null;
  scale: number | null;
  nullable: boolean;
  hasDefault: boolean;
  comment: string | null;
}

export interface TableInfo {
  name: string;
  comment: string | null;
  columns: ColumnInfo[];
  primaryKey: string[];
  /** Columns that are unique on their own (a single-column unique constraint). */
  unique: string[];
}

/**
 * Reads a table of the data source's current schema from information_schema, the table name as a
 * bound parameter. Undefined when there is no such table.
 */
export async function readTable(db: Queryable, table: string): Promise<TableInfo | undefined> {
  const columns = await db.query<{
    column_name: string;
    data_type: string;
    character_maximum_length: number | string | null;
    numeric_scale: number | string | null;
    is_nullable: string;
    column_default: string | null;
    comment: string | null;
  }>(
    `select c.column_name, c.data_type, c.character_maximum_length, c.numeric_scale, c.is_nullable,
            c.column_default, col_description(to_regclass(quote_ident(c.table_schema) || '.' || quote_ident(c.table_name)), c.ordinal_position::int) as comment
       from information_schema.columns c
      where c.table_schema = current_schema() and c.table_name = $1
      order by c.ordinal_position`,
    [table],
  );
  if (columns.length === 0) return undefined;
  const [keys, described] = await Promise.all([
    db.query<{ column_name: string; constraint_type: string; constraint_name: string }>(
      `select k.column_name, t.constraint_type, t.constraint_name
         from information_schema.table_constraints t
         join information_schema.key_column_usage k
           on k.constraint_name = t.constraint_name and k.table_schema = t.table_schema and k.table_name = t.table_name
        where t.table_schema = current_schema() and t.table_name = $1
          and t.constraint_type in ('PRIMARY KEY', 'UNIQUE')`,
      [table],
    ),
    db.query<{ comment: string | null }>(
      "select obj_description(to_regclass(quote_ident(current_schema()) || '.' || quote_ident($1)), 'pg_class') as comment",
      [table],
    ),
  ]);
  const columnsOf = (constraint: string) => keys.filter((k) => k.constraint_name === constraint).length;
  return {
    name: table,
    comment: described[0]?.comment ?? null,
    columns: columns.map((c) => ({
      name: c.column_name,
      dataType: c.data_type,
      maxLength: c.character_maximum_length === null ? null : Number(c.character_maximum_length),
      scale: c.numeric_scale === null ? null : Number(c.numeric_scale),
      nullable: c.is_nullable === "YES",
      hasDefault: c.column_default !== null,
      comment: c.comment,
    })),
    primaryKey: keys.filter((k) => k.constraint_type === "PRIMARY KEY").map((k) => k.column_name),
    unique: keys
      .filter((k) => k.constraint_type === "UNIQUE" && columnsOf(k.constraint_name) === 1)
      .map((k) => k.column_name),
  };
}

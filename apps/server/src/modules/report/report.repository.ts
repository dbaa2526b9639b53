import { and, SqlParams } from "../../crud/sql.ts";
import type { Db, Queryable } from "../../db/client.ts";
import type { ItemScope } from "../operations/batch-jobs/item-scope.ts";
import { DATASETS, groupExpression, SHARED_JOINS } from "./report-catalog.ts";
import type { ReportDefinition } from "./report-definition.ts";

/** One result row: group values as text (g0…), measures as exact decimal text (m0…). */
export type ResultRow = Record<string, string | null>;

export interface RunInput {
  definition: ReportDefinition;
  tenantId: string;
  timeZone: string;
  /** The caller's data scope over meters (undefined: every meter of the tenant). */
  scope: ItemScope | undefined;
  /** Rows read at most; one more is asked for to tell the caller there were more. */
  limit: number;
}

/** sum / avg / max / count over a catalogue column, money in yuan with two decimals. */
function measureSql(fn: string, expr: string, money: boolean): string {
  if (fn === "count") return `count(${expr})::text`;
  const value = money ? `${fn}(${expr}) / 100.0` : `${fn}(${expr})`;
  const scale = money || fn === "avg" ? "numeric(20, 2)" : "numeric";
  return `(${value})::${scale}::text`;
}

/**
 * Runs a checked definition. The SQL text is put together only from the catalogue's fragments;
 * the tenant, the time zone, the dates, the filter values and the scope's values are parameters.
 */
export async function runReport(
  db: Queryable,
  input: RunInput,
): Promise<{ rows: ResultRow[]; more: boolean }> {
  const { definition } = input;
  const dataset = DATASETS[definition.dataset]!;
  const sql = new SqlParams();
  const source = dataset.source({
    sql,
    tenant: input.tenantId,
    timeZone: input.timeZone,
    ...(definition.dateFrom ? { from: definition.dateFrom } : {}),
    ...(definition.dateTo ? { to: definition.dateTo } : {}),
  });
  const groups = definition.groupBy.map((key, i) => `${groupExpression(key, sql)} as g${i}`);
  const measures = definition.measures.map((m, i) => {
    const column = dataset.columns[m.column]!;
    return `${measureSql(m.fn, column.expr, column.money === true)} as m${i}`;
  });
  const where = definition.filters.map((f) => `${dataset.filters[f.key]!.expr} = ${sql.bind(f.value)}`);
  const scope = input.scope?.(sql, "d");
  if (scope) where.push(scope);
  const positions = definition.groupBy.map((_, i) => String(i + 1));
  const grouping = positions.length
    ? `group by ${positions.join(", ")} order by ${positions.join(", ")}`
    : "";
  const rows = await db.query<ResultRow>(
    `select ${[...groups, ...measures].join(", ")}
       from ${source}
       ${SHARED_JOINS}
      where ${and(where)}
      ${grouping}
      limit ${sql.bind(input.limit + 1)}`,
    sql.values,
  );
  return { rows: rows.slice(0, input.limit), more: rows.length > input.limit };
}

export interface ReportFileRow {
  id: string;
  tenant_id: string | null;
  name: string;
  content: Buffer | Uint8Array;
  create_time: Date;
  update_time: Date;
  is_deleted: number;
}

const COLUMNS = "id::text as id, tenant_id, name, content, create_time, update_time, is_deleted";

/** The tenant's definitions and the shipped templates (no tenant), newest first, by name if given. */
export async function listReportFiles(
  db: Queryable,
  tenantId: string,
  name: string | undefined,
  limit: number,
  offset: number,
): Promise<{ rows: ReportFileRow[]; total: number }> {
  const sql = new SqlParams();
  const where = [`(tenant_id = ${sql.bind(tenantId)} or tenant_id is null)`, "is_deleted = 0"];
  if (name) where.push(`name ilike ${sql.bind(`%${name.replace(/[\\%_]/g, (c) => `\\${c}`)}%`)}`);
  const [count] = await db.query<{ total: number }>(
    `select count(*)::int as total from blade_report_file where ${and(where)}`,
    sql.values,
  );
  const rows = await db.query<ReportFileRow>(
    `select ${COLUMNS} from blade_report_file where ${and(where)}
      order by tenant_id nulls first, id desc limit ${sql.bind(limit)} offset ${sql.bind(offset)}`,
    sql.values,
  );
  return { rows, total: count?.total ?? 0 };
}

/** One definition the tenant may read (its own or a template). */
export async function findReportFile(
  db: Queryable,
  tenantId: string,
  id: string,
): Promise<ReportFileRow | undefined> {
  const [row] = await db.query<ReportFileRow>(
    `select ${COLUMNS} from blade_report_file
      where id = $1 and (tenant_id = $2 or tenant_id is null) and is_deleted = 0`,
    [id, tenantId],
  );
  return row;
}

export async function insertReportFile(
  db: Queryable,
  row: { id: string; tenantId: string; name: string; content: Buffer; userId: string },
): Promise<void> {
  await db.query(
    `insert into blade_report_file (id, tenant_id, name, content, create_user)
     values ($1, $2, $3, $4, nullif($5, '')::bigint)`,
    [row.id, row.tenantId, row.name, row.content, row.userId],
  );
}

/** Updates the tenant's own definition; false when it is not the tenant's (or a template). */
export async function updateReportFile(
  db: Queryable,
  row: { id: string; tenantId: string; name: string; content: Buffer },
): Promise<boolean> {
  const updated = await db.query(
    `update blade_report_file set name = $3, content = $4, update_time = now()
      where id = $1 and tenant_id = $2 and is_deleted = 0 returning id`,
    [row.id, row.tenantId, row.name, row.content],
  );
  return updated.length > 0;
}

/**
 * Marks the tenant's own definitions deleted, all or none: false (nothing changed) when one of the
 * ids is a template, another tenant's or absent.
 */
export async function removeReportFiles(db: Db, tenantId: string, ids: string[]): Promise<boolean> {
  return db
    .transaction(async (tx) => {
      const removed = await tx.query(
        `update blade_report_file set is_deleted = 1, update_time = now()
        where id = any($1::bigint[]) and tenant_id = $2 and is_deleted = 0 returning id`,
        [ids, tenantId],
      );
      if (removed.length === new Set(ids).size) return true;
      throw new PartialRemoval();
    })
    .catch((error: unknown) => {
      if (error instanceof PartialRemoval) return false;
      throw error;
    });
}

/** Rolls a removal back when it could not take every id. */
class PartialRemoval extends Error {}

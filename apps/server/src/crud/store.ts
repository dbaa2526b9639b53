import type { ResourceDef } from "@meterline/contracts";
import { badRequest } from "../contract/errors.ts";
import type { Queryable } from "../db/client.ts";
import { nextId } from "../db/ids.ts";
import type { CurrentUser } from "../modules/auth/current-user.ts";
import { type Column, columnByName, columnsOf, uniqueKey } from "./columns.ts";
import { keysetAfter, type OrderKey, orderText } from "./keyset.ts";
import { referenceLabels } from "./reference-names.ts";
import { type Row, selectList } from "./serialize.ts";
import { and, ident, SqlParams } from "./sql.ts";
import { TENANT_JOIN, TENANT_NAME } from "./tenant-column.ts";

export interface ListQuery {
  conditions: string[];
  sql: SqlParams;
  limit?: number;
  offset?: number;
  /** Rows carry their tenant's name (`tenantName`), joined in the same statement. */
  tenantName?: boolean;
  /** Rows carry the labels of their links (`roomId` → `roomName`), read in the same statement. */
  labels?: boolean;
}

/** A page's total under its resource's count policy; `exact` false when it is only a lower bound. */
export interface PageTotal {
  total: number;
  exact: boolean;
}

/** The SQL of the engine: every statement scoped by the conditions the caller's visibility produced. */
export class ResourceStore {
  constructor(
    private readonly db: Queryable,
    readonly def: ResourceDef,
    /** The resource's own derived labels (ResourceHooks.labelColumns), read with the labels. */
    private readonly labelColumns: Readonly<Record<string, string>> = {},
  ) {}

  private get table() {
    return `${ident(this.def.table)} t`;
  }

  /**
   * The select list and source of full rows, with the tenant's name and the links' labels when
   * asked. `source` replaces the table (a page's own rows), still under the alias `t`.
   */
  private rowsFrom(
    options: { tenantName?: boolean; labels?: boolean },
    source = this.table,
    extra: string[] = [],
  ): string {
    const columns = [selectList(this.def), ...extra];
    if (options.labels) {
      columns.push(...referenceLabels(this.def).map((l) => l.sql));
      for (const [key, expr] of Object.entries(this.labelColumns)) {
        if (!/^[a-zA-Z][a-zA-Z0-9]*$/.test(key)) throw new Error(`unsafe label key ${key}`);
        columns.push(`(${expr})::text as "${key}"`);
      }
    }
    if (options.tenantName && this.def.tenantScoped) columns.push(TENANT_NAME);
    const join = options.tenantName && this.def.tenantScoped ? ` ${TENANT_JOIN}` : "";
    return `${columns.join(", ")} from ${source}${join}`;
  }

  private orderBy(): string {
    const sort = this.def.sort ?? [{ field: "id" }];
    return sort
      .map((s) => `t.${ident(columnByName(this.def, s.field)?.column ?? "id")} ${s.desc ? "desc" : "asc"}`)
      .concat("t.id asc")
      .join(", ");
  }

  /** The list order as keys ending in the id (the tie-breaker), each column once. */
  private orderKeys(): OrderKey[] {
    const keys: OrderKey[] = [];
    for (const s of this.def.sort ?? [{ field: "id" }]) {
      const expr = `t.${ident(columnByName(this.def, s.field)?.column ?? "id")}`;
      if (!keys.some((k) => k.expr === expr)) keys.push({ expr, desc: Boolean(s.desc) });
    }
    if (!keys.some((k) => k.expr === "t.id" || k.expr === `t.${ident("id")}`))
      keys.push({ expr: `t.${ident("id")}`, desc: false });
    return keys;
  }

  async list(query: ListQuery): Promise<Row[]> {
    const { sql } = query;
    const where = and(query.conditions);
    if (query.limit === undefined)
      return this.db.query(
        `select ${this.rowsFrom(query)} where ${where} order by ${this.orderBy()}`,
        sql.values,
      );
    // The page is cut first, so labels and the tenant's name are read for its rows alone, never
    // for the rows an offset skips.
    const page = `(select t.* from ${this.table} where ${where} order by ${this.orderBy()}
      limit ${sql.bind(query.limit)} offset ${sql.bind(query.offset ?? 0)}) t`;
    return this.db.query(`select ${this.rowsFrom(query, page)} order by ${this.orderBy()}`, sql.values);
  }

  /**
   * The next `limit` rows in list order after `cursor` (none: from the start), with their labels,
   * and the cursor of the last one. An export reads its rows this way, chunk by chunk, one
   * statement a chunk: on the embedded database every other request waits while one statement runs.
   */
  async rowsAfter(
    query: ListQuery,
    cursor: (string | null)[] | undefined,
    limit: number,
  ): Promise<{ rows: Row[]; cursor: (string | null)[] | undefined }> {
    const keys = this.orderKeys();
    // The query's own parameters, copied: each chunk binds its cursor afresh.
    const sql = new SqlParams();
    sql.values.push(...query.sql.values);
    const conditions = cursor ? [...query.conditions, keysetAfter(keys, cursor, sql)] : query.conditions;
    const chunk = `(select t.* from ${this.table} where ${and(conditions)} order by ${orderText(keys)}
      limit ${sql.bind(limit)}) t`;
    const keyColumns = keys.map((k, i) => `${k.expr}::text as "__k${i}"`);
    const rows = await this.db.query<Row>(
      `select ${this.rowsFrom({ labels: true }, chunk, keyColumns)} order by ${orderText(keys)}`,
      sql.values,
    );
    const last = rows.at(-1);
    const next = last ? keys.map((_, i) => (last[`__k${i}`] as string | null) ?? null) : cursor;
    for (const row of rows) for (let i = 0; i < keys.length; i++) delete row[`__k${i}`];
    return { rows, cursor: next };
  }

  /** Whether more than `limit` rows match: a scan of at most that many rows, in no order. */
  async moreThan(query: ListQuery, limit: number): Promise<boolean> {
    const sql = new SqlParams();
    sql.values.push(...query.sql.values);
    const rows = await this.db.query<{ more: boolean }>(
      `select exists (select 1 from ${this.table} where ${and(query.conditions)} offset ${sql.bind(limit)}) as more`,
      sql.values,
    );
    return Boolean(rows[0]?.more);
  }

  /** Ids and the values of one naming column of the rows in list order, at most `limit`. */
  async listNames(query: ListQuery, limit: number, column: Column): Promise<{ id: string; name: string }[]> {
    const { sql } = query;
    return this.db.query<{ id: string; name: string }>(
      `select t.id::text as id, coalesce(t.${ident(column.column)}::text, '') as name from ${this.table}
        where ${and(query.conditions)} order by ${this.orderBy()} limit ${sql.bind(limit)}`,
      sql.values,
    );
  }

  async count(query: ListQuery): Promise<number> {
    const rows = await this.db.query<{ n: string }>(
      `select count(*) as n from ${this.table} where ${and(query.conditions)}`,
      query.sql.values,
    );
    return Number(rows[0]?.n ?? 0);
  }

  /** The statement counting the rows under the resource's count policy, and the bound it used. */
  private countSql(query: ListQuery, offset: number): { text: string; bound?: number } {
    const policy = this.def.count ?? "exact";
    const where = and(query.conditions);
    if (policy === "exact") return { text: `select count(*) from ${this.table} where ${where}` };
    // A number of ours, written into the statement: a bound value would join the parameters the
    // page's own statement shares, and leave it one it never uses.
    const bound = Math.trunc(offset) + policy.bounded + 1;
    return {
      text: `select count(*) from (select 1 from ${this.table} where ${where} limit ${bound}) s`,
      bound,
    };
  }

  /**
   * A page and its total (under the count policy) in one statement: the count rides along as a
   * scalar subquery PostgreSQL runs once. Only a page past the last row (no row to carry the
   * total) costs a second statement; an empty first page is a total of 0.
   */
  async pageWithTotal(query: ListQuery, limit: number, offset: number): Promise<{ rows: Row[] } & PageTotal> {
    const before = new SqlParams();
    before.values.push(...query.sql.values);
    const { sql } = query;
    const count = this.countSql(query, offset);
    const page = `(select t.* from ${this.table} where ${and(query.conditions)} order by ${this.orderBy()}
      limit ${sql.bind(limit)} offset ${sql.bind(offset)}) t`;
    const rows = await this.db.query<Row>(
      `select ${this.rowsFrom(query, page, [`(${count.text}) as "__total"`])} order by ${this.orderBy()}`,
      sql.values,
    );
    if (rows.length === 0) {
      if (offset === 0) return { rows, total: 0, exact: true };
      return { rows, ...(await this.pageTotal({ ...query, sql: before }, offset)) };
    }
    const total = Number(rows[0]!.__total ?? 0);
    for (const row of rows) delete row.__total;
    return { rows, total, exact: count.bound === undefined || total < count.bound };
  }

  /**
   * The total of a page starting at `offset`, under the resource's count policy. A bounded count
   * reads at most `cap` rows past the page (and one more, to know whether there are more): an
   * unfiltered page of a table of millions costs what a filtered one does, and the total it answers
   * always reaches past the current page, so the pager can move on.
   */
  async pageTotal(query: ListQuery, offset: number): Promise<PageTotal> {
    const count = this.countSql(query, offset);
    const rows = await this.db.query<{ count: string }>(count.text, query.sql.values);
    const total = Number(rows[0]?.count ?? 0);
    return { total, exact: count.bound === undefined || total < count.bound };
  }

  /** Ids among `ids` that satisfy the conditions (the caller's visibility). */
  async visibleIds(ids: string[], conditions: string[], sql: SqlParams): Promise<string[]> {
    const rows = await this.db.query<{ id: string }>(
      `select t.id from ${this.table} where t.id = any(${sql.bind(ids)}::bigint[]) and ${and(conditions)}`,
      sql.values,
    );
    return rows.map((r) => r.id);
  }

  /** Whether another live row of the same tenant already holds this key. */
  async taken(key: Map<Column, unknown>, tenantId: string | undefined, exceptId?: string): Promise<boolean> {
    const sql = new SqlParams();
    const conditions = [...key].map(([c, v]) => `t.${ident(c.column)} = ${sql.bind(v)}`);
    if (this.def.softDelete) conditions.push("t.is_deleted = 0");
    if (this.def.tenantScoped && tenantId) conditions.push(`t.tenant_id = ${sql.bind(tenantId)}`);
    if (exceptId) conditions.push(`t.id <> ${sql.bind(exceptId)}`);
    const rows = await this.db.query(
      `select 1 from ${this.table} where ${and(conditions)} limit 1`,
      sql.values,
    );
    return rows.length > 0;
  }

  async insert(values: Map<Column, unknown>, user: CurrentUser, tenantId: string): Promise<string> {
    const id = nextId();
    const sql = new SqlParams();
    const columns = ["id"];
    const binds = [sql.bind(id)];
    const set = (column: string, value: unknown) => {
      columns.push(ident(column));
      binds.push(sql.bind(value));
    };
    if (this.def.tenantScoped) set("tenant_id", tenantId);
    for (const [column, value] of values) set(column.column, value);
    if (this.def.audit) {
      set("create_user", user.userId || null);
      set("create_dept", user.deptIds[0] ?? null);
      set("update_user", user.userId || null);
    }
    await this.db.query(
      `insert into ${ident(this.def.table)} (${columns.join(", ")}) values (${binds.join(", ")})`,
      sql.values,
    );
    return id;
  }

  /** Updates one visible row; false when no such row is visible to the caller. */
  async update(
    id: string,
    values: Map<Column, unknown>,
    user: CurrentUser,
    visible: (sql: SqlParams) => string[],
  ): Promise<boolean> {
    const sql = new SqlParams();
    const sets = [...values].map(([column, value]) => `${ident(column.column)} = ${sql.bind(value)}`);
    if (this.def.audit) sets.push(`update_user = ${sql.bind(user.userId || null)}`, "update_time = now()");
    if (sets.length === 0) sets.push("id = id");
    const where = [`t.id = ${sql.bind(id)}`, ...visible(sql)];
    const rows = await this.db.query(
      `update ${this.table} set ${sets.join(", ")} where ${and(where)} returning t.id`,
      sql.values,
    );
    return rows.length === 1;
  }

  async remove(ids: string[], user: CurrentUser): Promise<void> {
    const sql = new SqlParams();
    const target = `id = any(${sql.bind(ids)}::bigint[])`;
    if (!this.def.softDelete) {
      await this.db.query(`delete from ${ident(this.def.table)} where ${target}`, sql.values);
      return;
    }
    const audit = this.def.audit
      ? `, update_user = ${sql.bind(user.userId || null)}, update_time = now()`
      : "";
    await this.db.query(
      `update ${ident(this.def.table)} set is_deleted = 1${audit} where ${target}`,
      sql.values,
    );
  }

  /** Which of these rows have live children (tree resources). */
  async childParents(ids: string[]): Promise<string[]> {
    const parent = columnByName(this.def, this.def.tree?.parent ?? "");
    if (!parent) return [];
    const live = this.def.softDelete ? " and t.is_deleted = 0" : "";
    const rows = await this.db.query<{ parent: string }>(
      `select distinct t.${ident(parent.column)}::text as parent from ${this.table}
        where t.${ident(parent.column)} = any($1::bigint[])${live}`,
      [ids],
    );
    return rows.map((r) => r.parent);
  }

  /** Live children of any of these rows (tree resources). */
  async hasChildren(ids: string[]): Promise<boolean> {
    const parent = columnByName(this.def, this.def.tree?.parent ?? "");
    if (!parent) return false;
    const live = this.def.softDelete ? " and t.is_deleted = 0" : "";
    const rows = await this.db.query(
      `select 1 from ${this.table} where t.${ident(parent.column)} = any($1::bigint[])${live} limit 1`,
      [ids],
    );
    return rows.length > 0;
  }

  /** Stored values of some columns of one row (for keys a partial update does not restate). */
  async stored(id: string, columns: Column[]): Promise<Map<Column, unknown>> {
    const list = columns.map((c) => `t.${ident(c.column)} as "${c.name}"`).join(", ");
    const [row] = await this.db.query<Record<string, unknown>>(
      `select ${list} from ${this.table} where t.id = $1`,
      [id],
    );
    return new Map(columns.map((c) => [c, row?.[c.name] ?? null]));
  }
}

/** Checks the unique keys touched by `values`, with a message naming the field and the value. */
export async function assertUnique(
  store: ResourceStore,
  values: Map<Column, unknown>,
  tenantId: string | undefined,
  exceptId?: string,
): Promise<void> {
  for (const column of columnsOf(store.def).filter((c) => c.field.unique)) {
    const keyColumns = uniqueKey(store.def, column);
    if (!keyColumns.some((c) => values.has(c))) continue;
    const missing = keyColumns.filter((c) => !values.has(c));
    const stored = exceptId && missing.length ? await store.stored(exceptId, missing) : new Map();
    const key = new Map(keyColumns.map((c) => [c, values.has(c) ? values.get(c) : stored.get(c)]));
    if ([...key.values()].some((v) => v === null || v === undefined)) continue;
    if (await store.taken(key, tenantId, exceptId)) {
      throw badRequest(`${column.name}: [${String(key.get(column))}] 已存在`);
    }
  }
}

export const writableColumns = (def: ResourceDef) => columnsOf(def).filter((c) => !c.system);

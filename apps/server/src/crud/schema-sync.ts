import { columnOf, type FieldDef, type ResourceDef } from "@meterline/contracts";
import type { Queryable } from "../db/client.ts";
import { columnByName, columnsOf, uniqueKey } from "./columns.ts";
import { ident } from "./sql.ts";

function sqlType(field: FieldDef): string {
  // Cipher text is longer than the plain value its maxLength bounds.
  if (field.encrypted) return "text";
  switch (field.type) {
    case "id":
      return "bigint";
    case "int":
      return "integer";
    case "decimal":
      return `numeric(18, ${field.scale ?? 4})`;
    case "datetime":
      return "timestamptz";
    case "date":
      return "date";
    case "text":
    case "richtext":
      return "text";
    case "idList":
      return "varchar(2000)";
    case "image":
      return "varchar(1000)";
    case "string":
      return `varchar(${field.maxLength ?? 255})`;
  }
}

const SYSTEM_DEFAULTS: Record<string, string> = {
  tenant_id: "not null default '000000'",
  create_time: "not null default now()",
  update_time: "not null default now()",
  status: "not null default 1",
  is_deleted: "not null default 0",
};

/**
 * Creates the table of each plain resource and adds columns a newer definition declares. It never
 * drops or retypes anything: stored data is never lost by a definition change. Tables with domain
 * rules keep hand-written migrations; these are the plain ones.
 */
export async function syncResourceTables(db: Queryable, defs: readonly ResourceDef[]): Promise<void> {
  for (const statement of resourceTableStatements(defs)) await db.query(statement);
}

/**
 * The statements `syncResourceTables` runs, all idempotent (`if not exists`): derived from the
 * definitions alone, so that the migrations can tell from their digest whether anything changed.
 */
export function resourceTableStatements(defs: readonly ResourceDef[]): string[] {
  const statements: string[] = [];
  for (const def of defs) {
    const table = ident(def.table);
    statements.push(`create table if not exists ${table} (id bigint primary key)`);
    for (const c of columnsOf(def)) {
      if (c.column === "id") continue;
      const extra = SYSTEM_DEFAULTS[c.column] ?? "";
      statements.push(
        `alter table ${table} add column if not exists ${ident(c.column)} ${sqlType(c.field)} ${extra}`,
      );
    }
    const live = def.softDelete ? " where is_deleted = 0" : "";
    if (def.tenantScoped) {
      statements.push(`create index if not exists ${ident(`${def.table}_tenant`)} on ${table} (tenant_id)`);
    }
    // Links are followed both ways (a room's meters, whether a scheme is still used): index them.
    for (const c of columnsOf(def).filter((col) => col.field.type === "id" && col.field.ref)) {
      statements.push(
        `create index if not exists ${ident(`${def.table}_${c.column}_idx`)} on ${table} (${ident(c.column)})`,
      );
    }
    for (const fields of def.indexes ?? []) {
      const columns = fields.map((name) => columnOf(name, def.fields[name]!));
      const key = [...(def.tenantScoped ? ["tenant_id"] : []), ...columns].map(ident);
      statements.push(
        `create index if not exists ${ident(`${def.table}_${columns.join("_")}_ix`)} on ${table} (${key.join(", ")})`,
      );
    }
    // The platform administrator reads a large table across tenants, newest first: without an
    // index of the order alone, that page would sort the whole table.
    if (def.tenantScoped && typeof def.count === "object" && def.sort?.length) {
      const columns = def.sort.map((s) => columnByName(def, s.field)?.column ?? "id");
      statements.push(
        `create index if not exists ${ident(`${def.table}_order_ix`)} on ${table} (${columns.map(ident).join(", ")})`,
      );
    }
    for (const c of columnsOf(def).filter((col) => col.field.unique)) {
      const key = [...(def.tenantScoped ? ["tenant_id"] : []), ...uniqueKey(def, c).map((k) => k.column)].map(
        ident,
      );
      statements.push(
        `create unique index if not exists ${ident(`${def.table}_${c.column}_uq`)} on ${table} (${key.join(", ")})${live}`,
      );
    }
  }
  return statements;
}

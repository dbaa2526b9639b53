import type { ResourceDef } from "@meterline/contracts";
import { formatDateTime } from "../contract/dates.ts";
import { type Column, columnsOf } from "./columns.ts";
import { maskOf } from "./field-cipher.ts";
import { referenceLabels } from "./reference-names.ts";
import { ident } from "./sql.ts";

export type Row = Record<string, unknown>;

/** `select` list that names every readable column by its JSON name; secrets are never read. */
export function selectList(def: ResourceDef, alias = "t"): string {
  return columnsOf(def)
    .filter((c) => !c.field.secret)
    .map((c) => `${alias}.${ident(c.column)} as "${c.name}"`)
    .join(", ");
}

function value(column: Column, raw: unknown, timeZone: string): unknown {
  const { type } = column.field;
  if (raw === null || raw === undefined) {
    // Null-to-empty of contract §2.1 for text; numbers stay null, since -1 would read as a real value.
    return type === "int" || type === "decimal" ? null : "";
  }
  if (raw instanceof Date) {
    return type === "date" ? formatDateTime(raw, "UTC").slice(0, 10) : formatDateTime(raw, timeZone);
  }
  if (type === "id") return String(raw);
  if (column.field.encrypted) return maskOf(String(raw));
  return raw;
}

/** A database row, read with `selectList`, as the JSON the contract sends. */
export function serializeRow(def: ResourceDef, row: Row, timeZone: string): Row {
  const out: Row = {};
  for (const c of columnsOf(def)) {
    if (c.field.secret || !(c.name in row)) continue;
    out[c.name] = value(c, row[c.name], timeZone);
  }
  // The links' labels, read with the rows (store `labels`).
  for (const { key } of referenceLabels(def)) if (key in row) out[key] = String(row[key] ?? "");
  // The tenant's name, joined in for the platform administrator (store `tenantName`).
  if ("tenantName" in row && !def.fields.tenantName) out.tenantName = String(row.tenantName ?? "");
  return out;
}

import { columnOf, type FieldDef, type ResourceDef } from "@meterline/contracts";

/** A column of a resource's table: a declared field or one of the common columns of contract §16.1. */
export interface Column {
  name: string;
  column: string;
  field: FieldDef;
  /** Common columns are set by the engine, never by the caller. */
  system: boolean;
}

const AUDIT: Record<string, FieldDef> = {
  createUser: { type: "id" },
  createDept: { type: "id" },
  createTime: { type: "datetime", search: "range" },
  updateUser: { type: "id" },
  updateTime: { type: "datetime" },
  status: { type: "int" },
};

const cache = new WeakMap<ResourceDef, Column[]>();

/** All columns of the resource, id first; cached per definition. */
export function columnsOf(def: ResourceDef): Column[] {
  const known = cache.get(def);
  if (known) return known;
  const system = (name: string, field: FieldDef): Column => ({
    name,
    column: columnOf(name, field),
    field,
    system: true,
  });
  const columns: Column[] = [system("id", { type: "id" })];
  if (def.tenantScoped) columns.push(system("tenantId", { type: "string", maxLength: 12 }));
  for (const [name, field] of Object.entries(def.fields)) {
    columns.push({ name, column: columnOf(name, field), field, system: false });
  }
  if (def.audit) {
    for (const [name, field] of Object.entries(AUDIT)) {
      // A common column the resource declares itself (a user's status) is the caller's to set.
      if (!(name in def.fields)) columns.push(system(name, field));
    }
  }
  if (def.softDelete) columns.push(system("isDeleted", { type: "int" }));
  cache.set(def, columns);
  return columns;
}

export function columnByName(def: ResourceDef, name: string): Column | undefined {
  return columnsOf(def).find((c) => c.name === name);
}

/** The columns of a unique key: the column itself and the fields its definition names with it. */
export function uniqueKey(def: ResourceDef, column: Column): Column[] {
  const others = Array.isArray(column.field.unique) ? column.field.unique : [];
  return [...others.map((name) => columnByName(def, name)!), column];
}

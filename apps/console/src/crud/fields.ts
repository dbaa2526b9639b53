import type { FieldDef, ResourceDef } from "@meterline/contracts";
import dayjs, { type Dayjs } from "dayjs";

export type FieldEntry = [name: string, field: FieldDef];

/** The stamp format of every date the engine reads and writes (contract §2.2). */
export const DATE_TIME = "YYYY-MM-DD HH:mm:ss";
export const DATE = "YYYY-MM-DD";

export const fieldsOf = (def: ResourceDef): FieldEntry[] => Object.entries(def.fields);

export const listFields = (def: ResourceDef) =>
  fieldsOf(def).filter(([, f]) => f.list !== false && !f.secret && f.type !== "richtext");

export const searchFields = (def: ResourceDef) => fieldsOf(def).filter(([, f]) => f.search && !f.secret);

/** Fields of the add (secret ones included, e.g. a new user's password) or the edit / view form. */
export const formFields = (def: ResourceDef, creating: boolean) =>
  fieldsOf(def).filter(([, f]) => f.form !== false && (!f.secret || creating));

export const isChoice = (field: FieldDef) => Boolean(field.dict || field.dictBiz || field.ref || field.refBy);

/**
 * How the server answers an `encrypted` field: this prefix and the value's last four characters
 * (field-cipher.ts). Sent back unchanged, it means "keep the stored value".
 */
export const ENCRYPTED_MASK = "****";
export const isMasked = (value: unknown) => typeof value === "string" && value.startsWith(ENCRYPTED_MASK);

/** The label the engine joins in beside a link: `areaId` → `areaName` (rows and details). */
export const linkLabelKey = (name: string) => name.replace(/Id$/, "Name");
const isNumber = (field: FieldDef) => field.type === "int" || field.type === "decimal";

const splitIds = (raw: unknown): string[] =>
  Array.isArray(raw)
    ? raw.map(String)
    : String(raw ?? "")
        .split(",")
        .filter(Boolean);

/**
 * A row as the form controls hold it: dates as dayjs, id lists as arrays, choices as strings,
 * decimals as their exact text ("55.00", as the server sends them). Each is what its control and
 * its rules take, so a saved row passes them again unchanged.
 */
export function toFormValues(def: ResourceDef, row: Record<string, unknown>): Record<string, unknown> {
  const values: Record<string, unknown> = { id: row.id };
  for (const [name, field] of fieldsOf(def)) {
    const raw = row[name];
    if (raw === undefined || raw === null || raw === "") continue;
    if (field.type === "datetime" || field.type === "date") values[name] = dayjs(String(raw));
    else if (field.type === "idList") values[name] = splitIds(raw);
    else if (isChoice(field)) values[name] = String(raw);
    else if (field.type === "decimal") values[name] = String(raw);
    else values[name] = raw;
  }
  return values;
}

/** The definition's defaults as the engine would send them, without a tree parent (root). */
export function rawDefaults(def: ResourceDef): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const [name, field] of fieldsOf(def)) if (field.default !== undefined) row[name] = field.default;
  if (def.tree) delete row[def.tree.parent];
  return row;
}

/** Form values of a new row, `parentId` preset when adding a child in a tree. */
export function newFormValues(def: ResourceDef, parentId?: string): Record<string, unknown> {
  const row = rawDefaults(def);
  if (def.tree && parentId) row[def.tree.parent] = parentId;
  return toFormValues(def, row);
}

/**
 * The submit body: the engine's wire formats back, numbers as numbers, a missing tree parent as
 * root. `cleared` names fields the form hid because they no longer apply (a flat price after
 * switching to a ladder): they are sent as null, which empties them on update.
 */
export function toSubmitBody(
  def: ResourceDef,
  values: Record<string, unknown>,
  cleared: readonly string[] = [],
): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (values.id) body.id = values.id;
  for (const [name, field] of fieldsOf(def)) {
    const value = values[name];
    if (cleared.includes(name)) {
      body[name] = null;
      continue;
    }
    if (value === undefined) continue;
    // An untouched mask, or nothing typed, keeps the stored secret: it is simply not sent.
    if (field.encrypted && (isMasked(value) || value === null || value === "")) continue;
    // An empty number cannot be sent as "" (the engine wants a number), so it is left as it was.
    if (value === null || value === "") {
      if (!isNumber(field)) body[name] = "";
    } else if (dayjs.isDayjs(value))
      body[name] = (value as Dayjs).format(field.type === "date" ? DATE : DATE_TIME);
    else if (Array.isArray(value)) body[name] = value.join(",");
    else if (field.type === "int") body[name] = Number(value);
    // Exact decimals travel as text so no digit is lost to floating point.
    else if (field.type === "decimal") body[name] = String(value);
    else body[name] = value;
  }
  if (def.tree && !body[def.tree.parent]) body[def.tree.parent] = "0";
  return body;
}

import { type FieldDef, type ResourceDef, sanitizeRichText } from "@meterline/contracts";
import { parseDateTime } from "../contract/dates.ts";
import { badRequest } from "../contract/errors.ts";
import { type Column, columnsOf } from "./columns.ts";
import { isMask } from "./field-cipher.ts";

export type Mode = "create" | "update";

/** A field's value failed its definition; the message names the field (design §5 Bad input). */
const invalid = (name: string, reason: string) => badRequest(`${name}: ${reason}`);

const isBlank = (v: unknown) => v === undefined || v === null || (typeof v === "string" && v.trim() === "");

function text(name: string, field: FieldDef, raw: unknown): string {
  if (typeof raw !== "string" && typeof raw !== "number") throw invalid(name, "必须是文本");
  const value = String(raw);
  if (field.maxLength !== undefined && [...value].length > field.maxLength) {
    throw invalid(name, `长度不能超过${field.maxLength}个字符`);
  }
  if (field.pattern && !new RegExp(field.pattern.regex).test(value)) throw invalid(name, "格式不正确");
  return value;
}

function integer(name: string, field: FieldDef, raw: unknown): number {
  const value = typeof raw === "string" && /^-?\d+$/.test(raw.trim()) ? Number(raw) : raw;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || Math.abs(value) > 2_147_483_647) {
    throw invalid(name, "必须是整数");
  }
  if (field.min !== undefined && value < field.min) throw invalid(name, `不能小于${field.min}`);
  if (field.max !== undefined && value > field.max) throw invalid(name, `不能大于${field.max}`);
  return value;
}

/** Exact decimals travel as strings; a number is accepted only when its text form is exact. */
function decimal(name: string, field: FieldDef, raw: unknown): string {
  const value = typeof raw === "number" ? String(raw) : raw;
  const scale = field.scale ?? 4;
  if (typeof value !== "string" || !new RegExp(`^-?\\d{1,14}(\\.\\d{1,${scale}})?$`).test(value.trim())) {
    throw invalid(name, `必须是最多${scale}位小数的数字`);
  }
  const n = Number(value);
  if (field.min !== undefined && n < field.min) throw invalid(name, `不能小于${field.min}`);
  if (field.max !== undefined && n > field.max) throw invalid(name, `不能大于${field.max}`);
  return value.trim();
}

function id(name: string, raw: unknown): string {
  // A JSON number past 2^53 has already lost digits: it would name some other row.
  if (typeof raw === "number" && !Number.isSafeInteger(raw)) throw invalid(name, "不是有效的编号");
  const value = String(raw).trim();
  if (!/^\d{1,19}$/.test(value) || BigInt(value) > 9_223_372_036_854_775_807n)
    throw invalid(name, "不是有效的编号");
  return value;
}

function convert(column: Column, raw: unknown, timeZone: string): unknown {
  const { name, field } = column;
  switch (field.type) {
    case "int":
      return integer(name, field, raw);
    case "decimal":
      return decimal(name, field, raw);
    case "id":
      return id(name, raw);
    case "idList": {
      const items = Array.isArray(raw) ? raw : String(raw).split(",");
      return items
        .map((item) => String(item).trim())
        .filter(Boolean)
        .map((item) => id(name, item))
        .join(",");
    }
    case "datetime":
    case "date": {
      const date =
        typeof raw === "string" ? parseDateTime(raw, field.type === "date" ? "UTC" : timeZone) : undefined;
      if (!date) throw invalid(name, "日期格式应为 yyyy-MM-dd HH:mm:ss");
      return date;
    }
    case "richtext":
      // Stored already clean, so no reader has to trust the writer.
      return sanitizeRichText(text(name, field, raw));
    default:
      return text(name, field, raw);
  }
}

/**
 * The writable values of a submit body, converted and checked against the definition. Unknown keys
 * and the engine's own columns are ignored; on update, absent keys and read-only fields keep their
 * stored value, and a blank secret means "unchanged".
 */
export function readInput(def: ResourceDef, body: Record<string, unknown>, mode: Mode, timeZone: string) {
  const values = new Map<Column, unknown>();
  for (const column of columnsOf(def)) {
    if (column.system) continue;
    if (column.field.form === false && !column.field.required) {
      // Not the caller's to set, but a new row still starts from its declared value (a zero balance).
      if (mode === "create" && column.field.default !== undefined) values.set(column, column.field.default);
      continue;
    }
    const { name, field } = column;
    if (mode === "update" && (field.readOnlyOnEdit || !(name in body))) continue;
    const raw = body[name];
    // An encrypted value comes back as its mask when the operator did not retype it: keep it.
    if (mode === "update" && field.encrypted && isMask(raw)) continue;
    if (isBlank(raw)) {
      if (mode === "update" && (field.secret || field.encrypted)) continue;
      if (field.required && (mode === "create" || name in body)) {
        if (mode === "create" && field.default !== undefined) {
          values.set(column, field.default);
          continue;
        }
        throw invalid(name, "不能为空");
      }
      // A blank optional field on create is left out, so the column's own default applies.
      if (mode === "create") {
        if (field.default !== undefined) values.set(column, field.default);
      } else {
        // An id list's "none" is the empty list (its columns hold CSV and refuse null), not null.
        values.set(column, field.type === "idList" ? "" : null);
      }
      continue;
    }
    values.set(column, convert(column, raw, timeZone));
  }
  return values;
}

import type { FieldDef, ResourceDef } from "@meterline/contracts";
import { ApiError } from "../../contract/errors.ts";
import { columnsOf } from "../../crud/columns.ts";
import { readInput } from "../../crud/input.ts";

/** A row to insert, by database column; columns left out are stored as null. */
export type Values = Record<string, unknown>;

export interface PartCheck {
  /** Present when every field passed. */
  values?: Values;
  reasons: string[];
}

/** Field name → the sheet header that carries it, so a reason names what the operator typed. */
export type Labels = Readonly<Record<string, string>>;

const singleFieldDefs = new WeakMap<ResourceDef, Map<string, ResourceDef>>();

/** A definition holding one field only: lets the engine's own reader judge that field alone. */
function singleField(def: ResourceDef, name: string, field: FieldDef): ResourceDef {
  const byName = singleFieldDefs.get(def) ?? new Map<string, ResourceDef>();
  singleFieldDefs.set(def, byName);
  const single = byName.get(name) ?? { ...def, fields: { [name]: field } };
  byName.set(name, single);
  return single;
}

/** `phone: 格式不正确` → `手机号码: 格式不正确`. */
function relabel(message: string, labels: Labels): string {
  const colon = message.indexOf(": ");
  const label = colon > 0 ? labels[message.slice(0, colon)] : undefined;
  return label ? `${label}${message.slice(colon)}` : message;
}

function readOrReason(def: ResourceDef, body: Record<string, unknown>, labels: Labels, timeZone: string) {
  try {
    return { values: readInput(def, body, "create", timeZone) };
  } catch (error) {
    if (error instanceof ApiError) return { reason: relabel(error.message, labels) };
    throw error;
  }
}

/**
 * Checks a part of a row (the room, the owner, a meter) exactly as the engine's create checks a
 * submitted body, and answers the values the engine would store. When something fails, each field
 * is read on its own so that every problem of the row is reported at once, not only the first.
 *
 * Fields the form never carries (an owner's balance, a meter's account state) get their declared
 * defaults, so imported rows start in the state the definition describes.
 */
export function checkPart(
  def: ResourceDef,
  body: Record<string, unknown>,
  labels: Labels,
  timeZone: string,
): PartCheck {
  const whole = readOrReason(def, body, labels, timeZone);
  if (whole.values) {
    const values: Values = {};
    for (const [column, value] of whole.values) values[column.column] = value;
    for (const column of columnsOf(def)) {
      if (!column.system && column.field.default !== undefined && !(column.column in values)) {
        values[column.column] = column.field.default;
      }
    }
    return { values, reasons: [] };
  }
  const reasons: string[] = [];
  for (const [name, field] of Object.entries(def.fields)) {
    const one = readOrReason(singleField(def, name, field), body, labels, timeZone);
    if (one.reason) reasons.push(one.reason);
  }
  return { reasons: reasons.length ? reasons : [whole.reason!] };
}

/**
 * Dictionary-backed values must be keys of their dictionary, as the engine's dictionary check
 * demands; `keys` holds the allowed keys per `dict:<code>` or `biz:<code>`.
 */
export function dictionaryReasons(
  def: ResourceDef,
  values: Values,
  keys: ReadonlyMap<string, ReadonlySet<string>>,
  labels: Labels,
): string[] {
  const reasons: string[] = [];
  for (const column of columnsOf(def)) {
    const { dict, dictBiz } = column.field;
    const value = values[column.column];
    if ((!dict && !dictBiz) || value === null || value === undefined) continue;
    const allowed = keys.get(dict ? `dict:${dict}` : `biz:${dictBiz}`);
    if (!allowed?.has(String(value))) {
      const label = labels[column.name] ?? column.name;
      reasons.push(`${label}: [${String(value)}] 不是字典 ${dict ?? dictBiz} 的有效值`);
    }
  }
  return reasons;
}

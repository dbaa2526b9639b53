import type { ResourceDef } from "@meterline/contracts";
import { parseDateTime } from "../contract/dates.ts";
import { badParam } from "../contract/errors.ts";
import { isBigintText } from "../contract/params.ts";
import { type Column, columnsOf } from "./columns.ts";
import { ident, type SqlParams } from "./sql.ts";

/** Parameters that steer paging and auth rather than filter rows. */
const RESERVED = new Set(["current", "size", "ascs", "descs", "blade-auth", "tenantid", "parentid", "_"]);

type Operator = (column: string, value: string, sql: SqlParams) => string;

/** A text as a LIKE pattern's literal part (its wildcards and the escape itself escaped). */
export const escapeLike = (v: string) => v.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The query-suffix vocabulary of contract §3.1, each turned into a bound predicate. */
const OPERATORS: Record<string, Operator> = {
  equal: (c, v, s) => `${c} = ${s.bind(v)}`,
  notequal: (c, v, s) => `${c} <> ${s.bind(v)}`,
  like: (c, v, s) => `${c}::text ilike ${s.bind(`%${escapeLike(v)}%`)}`,
  notlike: (c, v, s) => `${c}::text not ilike ${s.bind(`%${escapeLike(v)}%`)}`,
  likeleft: (c, v, s) => `${c}::text ilike ${s.bind(`%${escapeLike(v)}`)}`,
  likeright: (c, v, s) => `${c}::text ilike ${s.bind(`${escapeLike(v)}%`)}`,
  gt: (c, v, s) => `${c} > ${s.bind(v)}`,
  lt: (c, v, s) => `${c} < ${s.bind(v)}`,
  ge: (c, v, s) => `${c} >= ${s.bind(v)}`,
  le: (c, v, s) => `${c} <= ${s.bind(v)}`,
  dategt: (c, v, s) => `${c} > ${s.bind(v)}`,
  datelt: (c, v, s) => `${c} < ${s.bind(v)}`,
  datege: (c, v, s) => `${c} >= ${s.bind(v)}`,
  datele: (c, v, s) => `${c} <= ${s.bind(v)}`,
  dateequal: (c, v, s) => `${c} = ${s.bind(v)}`,
  null: (c) => `${c} is null`,
  notnull: (c) => `${c} is not null`,
};

/** Checks and converts a filter value to the column's type, naming the parameter when it does not fit. */
function typed(column: Column, param: string, raw: string, timeZone: string): string {
  switch (column.field.type) {
    case "int":
      if (!/^-?\d{1,9}$/.test(raw)) throw badParam(param);
      return raw;
    case "id":
      if (!isBigintText(raw)) throw badParam(param);
      return raw;
    case "decimal":
      if (!/^-?\d{1,14}(\.\d{1,6})?$/.test(raw)) throw badParam(param);
      return raw;
    case "datetime":
    case "date": {
      const date = parseDateTime(raw, timeZone);
      if (!date) throw badParam(param);
      return date.toISOString();
    }
    default:
      return raw;
  }
}

/**
 * Predicates from the list call's query parameters: `name` (the field's declared search mode, else
 * equality) or `name_<suffix>`. Only declared columns can be named; anything else is ignored.
 */
export function listFilters(
  def: ResourceDef,
  params: Record<string, unknown>,
  sql: SqlParams,
  timeZone: string,
  alias = "t",
): string[] {
  const byName = new Map(
    columnsOf(def)
      .filter((c) => !c.field.secret)
      .map((c) => [c.name, c]),
  );
  const conditions: string[] = [];
  for (const [param, value] of Object.entries(params)) {
    if (RESERVED.has(param.toLowerCase())) continue;
    if (value === undefined || value === null || value === "") continue;
    const [name = "", suffix] = param.split("_", 2);
    const column = byName.get(name);
    if (!column || suffix === "ignore") continue;
    // A filter takes one value: `?meterNo=1&meterNo=2` is refused rather than read as its first.
    if (Array.isArray(value) || typeof value === "object") throw badParam(param);
    const mode = suffix ?? (column.field.search === "like" ? "like" : "equal");
    const operator = OPERATORS[mode];
    if (!operator) continue;
    const text = String(value);
    const needsValue = mode !== "null" && mode !== "notnull";
    const bound = needsValue && !mode.includes("like") ? typed(column, param, text, timeZone) : text;
    conditions.push(operator(`${alias}.${ident(column.column)}`, bound, sql));
  }
  return conditions;
}

import { setImmediate } from "node:timers/promises";

/**
 * A flat array parameter written as PostgreSQL's array literal text (`{1,"a b",NULL}`), faster
 * than the driver's own writer for the set-based statements of ingest and pricing, which send
 * 10–40 arrays of 1,000 values a wave: the driver runs two regular-expression replaces on every
 * element, this quotes and escapes only where a string needs it. Answers undefined for anything it
 * does not take exactly as the driver would (dates, whose text depends on the driver's time zone
 * setting; nested arrays, buffers, objects): those keep the driver's writer.
 */
export function arrayLiteral(values: readonly unknown[]): string | undefined {
  return joinedLiteral(values) ?? elementwiseLiteral(values);
}

/**
 * The common arrays of a wave (ids, amounts, names: all strings or all numbers, no nulls) joined by
 * the engine in one pass, instead of a string built element by element: answers undefined for any
 * other array, and for strings one of which needs escaping.
 */
function joinedLiteral(values: readonly unknown[]): string | undefined {
  if (values.length === 0) return "{}";
  const kind = typeof values[0];
  if (kind !== "string" && kind !== "number" && kind !== "bigint") return undefined;
  for (let i = 1; i < values.length; i++) if (typeof values[i] !== kind) return undefined;
  if (kind !== "string") return `{${values.join(",")}}`;
  // A quote or backslash anywhere sends the array to the element-wise writer, which escapes it.
  if (NEEDS_ESCAPE.test(values.join(""))) return undefined;
  return `{"${values.join('","')}"}`;
}

function elementwiseLiteral(values: readonly unknown[]): string | undefined {
  let text = "{";
  for (let i = 0; i < values.length; i++) {
    if (i > 0) text += ",";
    const value = values[i];
    if (value === null || value === undefined) text += "NULL";
    else if (typeof value === "string") text += quoted(value);
    else if (typeof value === "number" || typeof value === "bigint" || typeof value === "boolean")
      // Digits, a sign, a point, an exponent, Infinity / NaN, true / false: nothing to quote, and
      // quoting them would be no different to the server.
      text += String(value);
    else return undefined;
  }
  return `${text}}`;
}

const NEEDS_ESCAPE = /["\\]/;

/** Always quoted, as the driver does: an unquoted element would lose spaces and read NULL as null. */
function quoted(value: string): string {
  if (!NEEDS_ESCAPE.test(value)) return `"${value}"`;
  return `"${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}

/** The statement's parameters with each flat array of plain values already written as its literal. */
export function withArrayLiterals(params: readonly unknown[] | undefined): unknown[] | undefined {
  if (!params) return undefined;
  let out: unknown[] | undefined;
  for (let i = 0; i < params.length; i++) {
    const value = params[i];
    if (!Array.isArray(value)) continue;
    const literal = arrayLiteral(value);
    if (literal === undefined) continue;
    out ??= [...params];
    out[i] = literal;
  }
  return out ?? (params as unknown[]);
}

/**
 * withArrayLiterals a few parameters at a time, letting the event loop through between them: the
 * parameters of a statement that carries a wave (tens of arrays of a thousand values) are
 * milliseconds of writing, which the work beside it (the next wave's store) need not wait for.
 */
export async function withArrayLiteralsInSlices(
  params: readonly unknown[],
  perSlice = 8,
): Promise<unknown[]> {
  const out: unknown[] = [];
  for (let start = 0; start < params.length; start += perSlice) {
    if (start > 0) await setImmediate();
    out.push(...withArrayLiterals(params.slice(start, start + perSlice))!);
  }
  return out;
}

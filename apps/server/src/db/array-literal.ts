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
 * other array, and for strings one of which needs escaping. Strings that are all digits, signs and
 * points (the ids, amounts and registers drivers hand over as text) go unquoted: PostgreSQL reads
 * such an element as the same text either way, and the quotes were a third of a wave's parameters.
 */
function joinedLiteral(values: readonly unknown[]): string | undefined {
  if (values.length === 0) return "{}";
  const kind = typeof values[0];
  if (kind !== "string" && kind !== "number" && kind !== "bigint") return undefined;
  for (let i = 1; i < values.length; i++) if (typeof values[i] !== kind) return undefined;
  if (kind !== "string") return `{${values.join(",")}}`;
  // Looked at character by character (joining them all to test the whole was as much text again).
  let numeric = true;
  for (const value of values as readonly string[]) {
    const shape = shapeOf(value);
    if (shape === ESCAPED) return undefined;
    if (shape === QUOTED) numeric = false;
  }
  return numeric ? `{${values.join(",")}}` : `{"${values.join('","')}"}`;
}

/** What an element needs in the literal: nothing (digits, signs, points), quotes, or escaping too. */
const BARE = 0;
const QUOTED = 1;
const ESCAPED = 2;

function shapeOf(value: string): number {
  // Empty, an element would be no element at all.
  let shape = value.length === 0 ? QUOTED : BARE;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code === 34 || code === 92) return ESCAPED; // a quote or a backslash
    // 0-9, '-' and '.'; anything else (a space, a comma, a brace, the letters of NULL) is quoted.
    if ((code < 48 || code > 57) && code !== 45 && code !== 46) shape = QUOTED;
  }
  return shape;
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

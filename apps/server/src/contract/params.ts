import type { FastifyRequest } from "fastify";
import { badParam, missingParam } from "./errors.ts";

type Bag = Record<string, unknown>;

/** Ids are PostgreSQL bigints: anything outside a signed 64-bit integer can name no row. */
const MAX_ID = 9_223_372_036_854_775_807n;
const MIN_ID = -9_223_372_036_854_775_808n;

/** A decimal integer that fits a bigint column. */
export function isBigintText(text: string): boolean {
  if (!/^-?\d{1,19}$/.test(text)) return false;
  const value = BigInt(text);
  return value >= MIN_ID && value <= MAX_ID;
}

/**
 * Parameters of a request as the contract sends them: query string first, then a form or JSON
 * object body (contract §1: POST parameters may travel in the query string with an empty body).
 */
export function readParams(request: FastifyRequest): Bag {
  const query = (request.query ?? {}) as Bag;
  const body = request.body;
  return body && typeof body === "object" && !Array.isArray(body) ? { ...(body as Bag), ...query } : query;
}

/**
 * One value of a field that takes one. A list (`?a=1&a=2`, or a JSON array) is refused rather than
 * cut to its first item: `amount: ["1", "999"]` must not book 1.00 as if that was meant.
 */
export function optionalString(params: Bag, name: string): string | undefined {
  const value = params[name];
  if (value === undefined || value === null || value === "") return undefined;
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  throw badParam(name);
}

export function requiredString(params: Bag, name: string): string {
  const value = optionalString(params, name);
  if (value === undefined) throw missingParam(name);
  return value;
}

/** A 64-bit id given as a string or number; answers the contract's format error otherwise. */
export function optionalId(params: Bag, name: string): string | undefined {
  const value = optionalString(params, name);
  if (value === undefined) return undefined;
  if (!isBigintText(value)) throw badParam(name);
  return BigInt(value).toString();
}

/** A CSV id list such as `ids=1,2,3` (contract §1), or a JSON array of ids in a body. */
export function idList(params: Bag, name: string): string[] {
  const raw = params[name];
  const value = Array.isArray(raw) ? raw.map(String).join(",") : requiredString(params, name);
  if (value === "") throw missingParam(name);
  const ids = value
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (ids.length === 0 || ids.some((id) => !/^\d+$/.test(id) || !isBigintText(id))) throw badParam(name);
  return ids;
}

/** Page numbers beyond this are no page anyone browses; the bound keeps the offset a safe integer. */
const MAX_PAGE = 1_000_000_000;

/** Paging parameters with the contract's defaults, bounded so a caller cannot ask for everything. */
export function paging(params: Bag, maxSize = 1000): { current: number; size: number; offset: number } {
  const current = wholeNumber(params, "current", 1);
  const size = wholeNumber(params, "size", 10);
  if (current < 1 || current > MAX_PAGE) throw badParam("current");
  if (size < 1 || size > maxSize) throw badParam("size");
  return { current, size, offset: (current - 1) * size };
}

/** Plain digits only: `1e300`, `0x10`, `1.5` and `Infinity` are numbers to JavaScript, not to a page. */
function wholeNumber(params: Bag, name: string, fallback: number): number {
  const text = optionalString(params, name);
  if (text === undefined) return fallback;
  if (!/^\d{1,12}$/.test(text.trim())) throw badParam(name);
  return Number(text);
}

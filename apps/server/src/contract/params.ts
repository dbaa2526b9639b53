import type { FastifyRequest } from "fastify";
import { badParam, missingParam } from "./errors.ts";

type Bag = Record<string, unknown>;

/**
 * Parameters of a request as the contract sends them: query string first, then a form or JSON
 * object body (contract §1: POST parameters may travel in the query string with an empty body).
 */
export function readParams(request: FastifyRequest): Bag {
  const query = (request.query ?? {}) as Bag;
  const body = request.body;
  return body && typeof body === "object" && !Array.isArray(body) ? { ...(body as Bag), ...query } : query;
}

export function optionalString(params: Bag, name: string): string | undefined {
  const value = params[name];
  if (value === undefined || value === null || value === "") return undefined;
  if (Array.isArray(value)) return optionalString({ [name]: value[0] }, name);
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
  if (!/^-?\d{1,19}$/.test(value)) throw badParam(name);
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
  if (ids.length === 0 || ids.some((id) => !/^\d{1,19}$/.test(id))) throw badParam(name);
  return ids;
}

/** Paging parameters with the contract's defaults, bounded so a caller cannot ask for everything. */
export function paging(params: Bag, maxSize = 1000): { current: number; size: number; offset: number } {
  const current = Number(optionalString(params, "current") ?? 1);
  const size = Number(optionalString(params, "size") ?? 10);
  if (!Number.isInteger(current) || current < 1) throw badParam("current");
  if (!Number.isInteger(size) || size < 1 || size > maxSize) throw badParam("size");
  return { current, size, offset: (current - 1) * size };
}

/** A value the query-string encoder accepts; arrays become comma-separated lists (id lists, contract §1). */
export type QueryValue = string | number | boolean | null | undefined | readonly (string | number)[];
export type QueryParams = Record<string, QueryValue>;

/**
 * Encodes parameters as `a=1&b=x%20y`. `null`/`undefined` are left out; empty strings are kept
 * because some calls need the key present (e.g. `oauthId=` of a password login).
 */
export function encodeQuery(params: QueryParams | undefined): string {
  if (!params) return "";
  const parts: string[] = [];
  for (const [key, value] of Object.entries(params)) {
    if (value === null || value === undefined) continue;
    const text = Array.isArray(value) ? value.join(",") : String(value);
    parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(text)}`);
  }
  return parts.join("&");
}

/** Appends an encoded query to a path that may already carry one. */
export function withQuery(path: string, params: QueryParams | undefined): string {
  const query = encodeQuery(params);
  if (!query) return path;
  return `${path}${path.includes("?") ? "&" : "?"}${query}`;
}

/** Drops empty filter values so list calls only send real predicates (contract §3.1). */
export function compactFilters(params: QueryParams): QueryParams {
  const out: QueryParams = {};
  for (const [key, value] of Object.entries(params)) {
    if (value === "" || value === null || value === undefined) continue;
    if (Array.isArray(value) && value.length === 0) continue;
    out[key] = value;
  }
  return out;
}

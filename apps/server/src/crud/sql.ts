/**
 * Collects bind parameters while a statement is assembled. Only identifiers that come from
 * resource definitions are ever placed in SQL text; every value a caller sends goes through `bind`.
 */
export class SqlParams {
  readonly values: unknown[] = [];

  bind(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** Quotes an identifier taken from a definition; definitions are code, but be strict anyway. */
export function ident(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`unsafe identifier ${name}`);
  return `"${name}"`;
}

export const and = (conditions: string[]) => (conditions.length ? conditions.join(" and ") : "true");

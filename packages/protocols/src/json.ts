import { toHex } from "./hex.ts";

/** JSON for logs and the CLI: bigint → decimal string, bytes → hex. */
export function toJson(value: unknown, indent = 2): string {
  return JSON.stringify(
    value,
    (_key, item) => {
      if (typeof item === "bigint") return item.toString();
      if (item instanceof Uint8Array) return toHex(item);
      return item;
    },
    indent,
  );
}

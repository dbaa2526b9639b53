import { fail } from "../errors.ts";
import { byteHex } from "../hex.ts";
import type { Dlt645Version } from "./control.ts";
import type { DataItem } from "./data-item.ts";
import { lookup1997 } from "./identifiers-1997.ts";
import { lookup2007 } from "./identifiers-2007.ts";

/**
 * Data identifiers travel least significant byte first (DI0 first): 00010000 is sent
 * 00 00 01 00 (+0x33 → 33 33 34 33); 1997's B611 is sent 11 B6 (→ 44 E9) — §1.2, §1.9.
 */
export function diLength(version: Dlt645Version): number {
  return version === "2007" ? 4 : 2;
}

export function encodeDi(di: string, version: Dlt645Version): Uint8Array {
  const length = diLength(version);
  if (!new RegExp(`^[0-9a-fA-F]{${length * 2}}$`).test(di)) {
    fail("bad-argument", `"${di}" is not a ${length}-byte DL/T 645-${version} data identifier`);
  }
  const out = new Uint8Array(length);
  for (let i = 0; i < length; i++) out[length - 1 - i] = Number.parseInt(di.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/** Wire bytes (offset removed) → display text. */
export function decodeDi(wire: Uint8Array): string {
  let out = "";
  for (let i = wire.length - 1; i >= 0; i--) out += byteHex(wire[i]!);
  return out;
}

// Only hits are cached, so the cache is bounded by the size of the tables (a few thousand DIs).
const cache = new Map<string, DataItem>();

export function lookupDataItem(di: string, version: Dlt645Version): DataItem | undefined {
  const key = `${version}:${di.toUpperCase()}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const item = version === "2007" ? lookup2007(di) : lookup1997(di);
  if (item) cache.set(key, item);
  return item;
}

import assert from "node:assert/strict";
import { test } from "node:test";
import type { AnyDecoded } from "./detect.ts";
import { decodeAll } from "./detect.ts";
import { parseHex } from "./hex.ts";
import type { DecodedField } from "./values.ts";

/** Decode exactly one frame from hex (tests only). */
export function decodeOne(
  hex: string,
  protocol: "auto" | "dlt645-1997" | "dlt645-2007" | "cjt188" = "auto",
): AnyDecoded {
  const all = decodeAll(parseHex(hex), { protocol });
  if (all.length !== 1) throw new Error(`expected one frame, found ${all.length}`);
  return all[0]!;
}

/** name → "value unit" for compact assertions. */
export function valueMap(fields: readonly DecodedField[]): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const field of fields) {
    out[field.name] =
      field.kind === "number" && field.value !== null ? `${field.value} ${field.unit}`.trim() : field.value;
  }
  return out;
}

/** A frame from a public source and what it must decode to. */
export interface PublicFrameRow {
  hex: string;
  source: string;
  version: "2007" | "1997";
  kind: string;
  di?: string;
  values?: Record<string, string | null>;
}

/** One test per row: protocol, edition, message kind, identifier and values, no warnings. */
export function checkDlt645Frames(rows: readonly PublicFrameRow[]): void {
  for (const row of rows) {
    test(`${row.kind} ${row.di ?? ""} ${row.hex.slice(0, 40)}… [${row.source.split(" (")[0]}]`, () => {
      const decoded = decodeOne(row.hex);
      assert.ok(decoded.protocol === "dlt645");
      assert.equal(decoded.version, row.version);
      assert.equal(decoded.message.kind, row.kind);
      assert.deepEqual(decoded.warnings, []);
      if (row.di) assert.equal("di" in decoded.message && decoded.message.di, row.di);
      if (row.values) {
        assert.ok("fields" in decoded.message);
        assert.deepEqual(valueMap(decoded.message.fields), row.values);
      }
    });
  }
}

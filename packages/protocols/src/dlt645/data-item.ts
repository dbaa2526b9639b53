import { fail } from "../errors.ts";
import { concatBytes, toHex } from "../hex.ts";
import type { Unit } from "../units.ts";
import {
  type DecodedField,
  decodeField,
  encodeField,
  type FieldFormat,
  type FieldInput,
  formatBytes,
} from "../values.ts";

/** One row of a data-identifier table: what the DI means and how its value bytes are laid out. */
export interface DataItem {
  /** Display order: "00010000" for 2007, "9010" for 1997. */
  di: string;
  name: string;
  /** The Chinese term used on meter nameplates and in the standard. */
  zh: string;
  fields: readonly { name: string; format: FieldFormat }[];
  /** Blocks (total + tariffs, phases): one format repeated as often as the data allows. */
  repeat?: { format: FieldFormat; label: (index: number) => string };
  /** Records whose tail is not described here: extra bytes are expected, not a warning. */
  openEnded?: boolean;
}

export const num = (bytes: number, decimals: number, unit: Unit, signed = false): FieldFormat => ({
  kind: "number",
  bytes,
  decimals,
  unit,
  signed,
});

export function single(di: string, name: string, zh: string, format: FieldFormat): DataItem {
  return { di, name, zh, fields: [{ name, format }] };
}

export function block(
  di: string,
  name: string,
  zh: string,
  format: FieldFormat,
  labels: readonly string[],
): DataItem {
  return { di, name, zh, fields: [], repeat: { format, label: (i) => labels[i] ?? `item ${i + 1}` } };
}

/** Labels of a "total + tariff n" energy block (State Grid: 1 tip, 2 peak, 3 flat, 4 valley). */
export const TARIFF_LABELS = Array.from({ length: 64 }, (_, i) => (i === 0 ? "total" : `tariff ${i}`));
export const PHASE_LABELS = ["phase A", "phase B", "phase C"];
export const TOTAL_PHASE_LABELS = ["total", "phase A", "phase B", "phase C"];

export interface DecodedData {
  fields: DecodedField[];
  warnings: string[];
}

/** Decode value bytes (already without the 0x33 offset) according to a table row. */
export function decodeDataItem(item: DataItem | undefined, data: Uint8Array): DecodedData {
  if (!item)
    return {
      fields: data.length > 0 ? [decodeField("data", { kind: "raw", bytes: data.length }, data)] : [],
      warnings: [],
    };
  const fields: DecodedField[] = [];
  const warnings: string[] = [];
  let offset = 0;
  let short = false;
  for (const field of item.fields) {
    const size = formatBytes(field.format);
    if (offset + size > data.length) {
      warnings.push(`DI ${item.di}: ${field.name} needs ${size} bytes, ${data.length - offset} left`);
      short = true;
      break;
    }
    fields.push(decodeField(field.name, field.format, data.subarray(offset, offset + size)));
    offset += size;
  }
  if (item.repeat) {
    const size = formatBytes(item.repeat.format);
    for (let i = 0; offset + size <= data.length; i++, offset += size) {
      fields.push(
        decodeField(item.repeat.label(i), item.repeat.format, data.subarray(offset, offset + size)),
      );
    }
  }
  if (offset < data.length) {
    const rest = data.subarray(offset);
    fields.push(decodeField("rest", { kind: "raw", bytes: rest.length }, rest));
    if (!item.openEnded && !short)
      warnings.push(`DI ${item.di}: ${rest.length} unexpected trailing byte(s) ${toHex(rest)}`);
  }
  return { fields, warnings };
}

/** Encode field values for a table row (meter-side replies, writes). */
export function encodeDataItem(item: DataItem, values: readonly FieldInput[]): Uint8Array {
  const parts: Uint8Array[] = [];
  const fixed = item.fields.length;
  if (values.length < fixed || (!item.repeat && values.length > fixed)) {
    fail(
      "bad-argument",
      `DI ${item.di} takes ${item.repeat ? `at least ${fixed}` : fixed} value(s), got ${values.length}`,
    );
  }
  values.forEach((value, i) => {
    const format = i < fixed ? item.fields[i]!.format : item.repeat!.format;
    parts.push(encodeField(format, value));
  });
  return concatBytes(...parts);
}

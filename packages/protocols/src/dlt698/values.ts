import { formatScaled } from "../decimal.ts";
import type { Unit } from "../units.ts";
import type { Data, DataType, DateTime, DateTimeS } from "./axdr.ts";
import {
  type AttributeSpec,
  attributeSpec,
  elementName,
  type FieldSpec,
  oadName,
  splitOad,
} from "./catalogue.ts";

/**
 * What an attribute's Data means to a person: one named value per leaf, numbers scaled by the
 * catalogue's scaler into exact decimals with their unit ("1234.56" kWh), strings and times as
 * text. Objects outside the catalogue keep their OAD and raw numbers.
 */
export interface NamedValue {
  name: string;
  type: DataType;
  /** Exact decimal for numbers, text otherwise; null for `null` data. */
  value: string | null;
  unit?: Unit;
  /** Numbers: the wire integer; value = scaled × 10^-scale. */
  scaled?: bigint;
  scale?: number;
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

export function dateTimeText(v: DateTimeS | DateTime): string {
  const base = `${pad(v.year, 4)}-${pad(v.month)}-${pad(v.day)} ${pad(v.hour)}:${pad(v.minute)}:${pad(v.second)}`;
  return "milliseconds" in v && v.milliseconds !== 0 && v.milliseconds !== 0xffff
    ? `${base}.${pad(v.milliseconds, 3)}`
    : base;
}

function integerOf(data: Data): bigint | null {
  switch (data.type) {
    case "double-long":
    case "double-long-unsigned":
    case "integer":
    case "long":
    case "unsigned":
    case "long-unsigned":
      return BigInt(data.value);
    case "long64":
    case "long64-unsigned":
      return data.value;
    default:
      return null;
  }
}

/** Text of a leaf Data without scaling. */
export function dataText(data: Data): string | null {
  switch (data.type) {
    case "null":
      return null;
    case "bool":
      return String(data.value);
    case "bit-string":
      return data.bits;
    case "enum":
    case "float32":
    case "float64":
      return String(data.value);
    case "octet-string":
    case "mac":
    case "rn":
    case "tsa":
      return data.hex;
    case "visible-string":
    case "utf8-string":
      return data.value;
    case "date-time":
    case "date-time-s":
      return dateTimeText(data.value);
    case "date":
      return `${pad(data.value.year, 4)}-${pad(data.value.month)}-${pad(data.value.day)}`;
    case "time":
      return `${pad(data.value.hour)}:${pad(data.value.minute)}:${pad(data.value.second)}`;
    case "oi":
    case "oad":
    case "omd":
      return data.value;
    case "scaler-unit":
      return `10^${data.scaler}, unit ${data.unit}`;
    case "ti":
      return `${data.value.interval} × unit ${data.value.unit}`;
    default: {
      const integer = integerOf(data);
      return integer === null
        ? JSON.stringify(data, (_, v) => (typeof v === "bigint" ? String(v) : v))
        : String(integer);
    }
  }
}

function leaf(name: string, data: Data, spec: FieldSpec | undefined): NamedValue {
  const integer = integerOf(data);
  if (integer === null || spec?.scaler === undefined) {
    const out: NamedValue = { name, type: data.type, value: dataText(data) };
    if (integer !== null && spec?.unit !== undefined) out.unit = spec.unit;
    return out;
  }
  const scale = -spec.scaler;
  const scaled = scale >= 0 ? integer : integer * 10n ** BigInt(-scale);
  const out: NamedValue = {
    name,
    type: data.type,
    value: formatScaled(scaled, Math.max(scale, 0)),
    scaled,
    scale: Math.max(scale, 0),
  };
  if (spec.unit !== undefined) out.unit = spec.unit;
  return out;
}

function walk(name: string, data: Data, spec: FieldSpec | undefined, out: NamedValue[]): void {
  if (data.type === "array" || data.type === "structure") {
    data.items.forEach((item, i) => {
      walk(`${name}[${i + 1}]`, item, undefined, out);
    });
    return;
  }
  out.push(leaf(name, data, spec));
}

function elementSpec(spec: AttributeSpec, index: number): FieldSpec | undefined {
  if (spec.elements && typeof spec.elements !== "string") return spec.elements[index - 1];
  return spec;
}

/** One attribute's Data as named, scaled values. */
export function namedValues(oad: string, data: Data): NamedValue[] {
  const spec = attributeSpec(oad);
  const base = oadName(oad) ?? oad;
  const out: NamedValue[] = [];
  const { index } = splitOad(oad);
  if (!spec) {
    walk(base, data, undefined, out);
    return out;
  }
  const element = (name: string, item: Data, i: number) => {
    const itemSpec = elementSpec(spec, i);
    if (spec.fields && item.type === "structure") {
      item.items.forEach((field, j) => {
        walk(`${name}, ${spec.fields?.[j]?.name ?? `field ${j + 1}`}`, field, spec.fields?.[j], out);
      });
    } else walk(name, item, itemSpec, out);
  };
  if (index === 0 && spec.elements && (data.type === "array" || data.type === "structure")) {
    data.items.forEach((item, i) => {
      element(`${base}, ${elementName(spec.elements, i + 1) ?? `element ${i + 1}`}`, item, i + 1);
    });
  } else if (index > 0) element(base, data, index);
  else walk(base, data, spec, out);
  return out;
}

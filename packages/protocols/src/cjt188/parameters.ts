import { fail } from "../errors.ts";
import { concatBytes } from "../hex.ts";
import { decodeField, encodeField, type FieldFormat } from "../values.ts";

/**
 * Parameters a prepaid CJ/T 188 water meter keeps (metering-domain.md §2.1, §4.4).
 *
 * Price table, written with A010 and read with 8102 — the layout of the standard's DI payload
 * structs (metering-domain.md §2.1 sources): price 1, usage 1, price 2, usage 2, price 3, each 3
 * bytes BCD least significant byte first; the write adds one BCD byte, the start date. We read
 * the prices as XXXX.XX yuan/m³ and the usages as whole m³ per cycle: usage up to threshold 1 is
 * charged at price 1, up to threshold 2 at price 2, beyond at price 3. The start date is the day
 * of the month (01–31) from which the meter applies the table; 8102 answers without it.
 *
 * Alarm amounts: the standard has no such identifier (its meters hold only a purchase amount,
 * A013). Like the DL/T 645 money writes (dlt645 MONEY_WRITE_DI), this is our vendor convention,
 * shared by the gateway and the simulated fleet: A0F1 writes and 81F1 reads
 *   alarm amount 1 (4 bytes BCD XXXXXX.XX yuan) | alarm amount 2 (4 bytes, same)
 * — the amount layout of A013. A write replaces both; reading them back tells whether a write whose
 * reply was lost took effect.
 */
export interface WaterPriceTable {
  /** Exact decimal yuan/m³, up to 2 places: usage steps 1, 2 and 3. */
  prices: [string, string, string];
  /** Whole m³ per cycle where steps 1 and 2 end. */
  thresholds: [string, string];
}

export interface WaterPriceWrite extends WaterPriceTable {
  /** Day of the month (1–31) from which the meter applies the table. */
  startDay: number;
}

export interface WaterAlarmAmounts {
  /** Exact decimal yuan, up to 2 places. */
  first: string;
  second: string;
}

export const PRICE_FORMAT: FieldFormat = { kind: "number", bytes: 3, decimals: 2, unit: "yuan/m³" };
export const USAGE_FORMAT: FieldFormat = { kind: "number", bytes: 3, decimals: 0, unit: "m³" };
export const AMOUNT_FORMAT: FieldFormat = { kind: "number", bytes: 4, decimals: 2, unit: "yuan" };
/** 8102 payload after DI and SER; A010 adds the start date byte. */
export const PRICE_TABLE_LENGTH = 15;
export const ALARM_AMOUNTS_LENGTH = 8;

/** The largest value each field holds, as exact text (for refusals before anything is sent). */
export const WATER_LIMITS = { price: "9999.99", threshold: "999999", amount: "999999.99" } as const;

function tableFields(table: WaterPriceTable): [FieldFormat, string][] {
  const [p1, p2, p3] = table.prices;
  const [t1, t2] = table.thresholds;
  return [
    [PRICE_FORMAT, p1],
    [USAGE_FORMAT, t1],
    [PRICE_FORMAT, p2],
    [USAGE_FORMAT, t2],
    [PRICE_FORMAT, p3],
  ];
}

/** The 15 bytes of a price table (8102 answer; A010 without the start date). */
export function encodePriceTable(table: WaterPriceTable): Uint8Array {
  return concatBytes(...tableFields(table).map(([format, value]) => encodeField(format, value)));
}

/** A010 payload: the table and its start date. */
export function encodePriceWrite(write: WaterPriceWrite): Uint8Array {
  if (!Number.isInteger(write.startDay) || write.startDay < 1 || write.startDay > 31)
    fail("bad-argument", `start day ${write.startDay} is not a day of the month (1..31)`);
  const day = encodeField({ kind: "digits", bytes: 1 }, String(write.startDay).padStart(2, "0"));
  return concatBytes(encodePriceTable(write), day);
}

function numberAt(format: FieldFormat, data: Uint8Array, at: number): string | null {
  const field = decodeField("value", format, data.subarray(at, at + 3));
  return field.kind === "number" && field.status === "ok" ? field.value : null;
}

/** The table in an 8102 answer or an A010 write; undefined when the bytes do not hold one. */
export function decodePriceTable(data: Uint8Array): WaterPriceTable | undefined {
  if (data.length !== PRICE_TABLE_LENGTH && data.length !== PRICE_TABLE_LENGTH + 1) return undefined;
  const values = [0, 3, 6, 9, 12].map((at, i) =>
    numberAt(i % 2 === 0 ? PRICE_FORMAT : USAGE_FORMAT, data, at),
  );
  if (values.some((value) => value === null)) return undefined;
  const [p1, t1, p2, t2, p3] = values as string[];
  return { prices: [p1!, p2!, p3!], thresholds: [t1!, t2!] };
}

/** The whole A010 write (table and start date); undefined when it does not fit. */
export function decodePriceWrite(data: Uint8Array): WaterPriceWrite | undefined {
  if (data.length !== PRICE_TABLE_LENGTH + 1) return undefined;
  const table = decodePriceTable(data);
  const day = decodeField("start day", { kind: "digits", bytes: 1 }, data.subarray(PRICE_TABLE_LENGTH));
  const startDay = day.value === null ? Number.NaN : Number(day.value);
  if (!table || !(startDay >= 1 && startDay <= 31)) return undefined;
  return { ...table, startDay };
}

export function encodeAlarmAmounts(amounts: WaterAlarmAmounts): Uint8Array {
  return concatBytes(encodeField(AMOUNT_FORMAT, amounts.first), encodeField(AMOUNT_FORMAT, amounts.second));
}

export function decodeAlarmAmounts(data: Uint8Array): WaterAlarmAmounts | undefined {
  if (data.length !== ALARM_AMOUNTS_LENGTH) return undefined;
  const [first, second] = [0, 4].map((at) => {
    const field = decodeField("alarm amount", AMOUNT_FORMAT, data.subarray(at, at + 4));
    return field.kind === "number" && field.status === "ok" ? field.value : null;
  });
  return first && second ? { first, second } : undefined;
}

import type { Dlt645Version } from "./control.ts";

/**
 * The ERR byte of an abnormal reply (C | 0x40), after removing 0x33 (metering-domain.md §1.4).
 * Bit meanings differ between editions: bit 1 is "no requested data" in 2007 and
 * "data identifier error" in 1997.
 */
export type ErrorFlag =
  | "other"
  | "no-requested-data"
  | "password-or-unauthorised"
  | "baud-rate-unchangeable"
  | "year-zone-count-exceeded"
  | "daily-slot-count-exceeded"
  | "tariff-count-exceeded"
  | "illegal-data"
  | "di-error"
  | "reserved-bit-3"
  | "reserved-bit-7";

const BITS_2007: readonly ErrorFlag[] = [
  "other",
  "no-requested-data",
  "password-or-unauthorised",
  "baud-rate-unchangeable",
  "year-zone-count-exceeded",
  "daily-slot-count-exceeded",
  "tariff-count-exceeded",
  "reserved-bit-7",
];

const BITS_1997: readonly ErrorFlag[] = [
  "illegal-data",
  "di-error",
  "password-or-unauthorised",
  "reserved-bit-3",
  "year-zone-count-exceeded",
  "daily-slot-count-exceeded",
  "tariff-count-exceeded",
  "reserved-bit-7",
];

export interface ErrorInfo {
  /** The byte after removing 0x33. */
  code: number;
  flags: ErrorFlag[];
}

export function decodeErrorByte(byte: number, version: Dlt645Version): ErrorInfo {
  const table = version === "2007" ? BITS_2007 : BITS_1997;
  const flags = table.filter((_, bit) => (byte & (1 << bit)) !== 0);
  return { code: byte, flags };
}

/** Build an ERR byte from flags (meter side); unknown flags for the edition are rejected by type only. */
export function encodeErrorByte(flags: readonly ErrorFlag[], version: Dlt645Version): number {
  const table = version === "2007" ? BITS_2007 : BITS_1997;
  let byte = 0;
  for (const flag of flags) {
    const bit = table.indexOf(flag);
    if (bit >= 0) byte |= 1 << bit;
  }
  return byte;
}

import { fail } from "../errors.ts";
import { byteHex } from "../hex.ts";

/**
 * Data unit identifier DA1 DA2 DT1 DT2 (4 bytes) in front of every data unit.
 * DA (the information point pn): DA2 is the group (pn-1)/8 + 1, DA1 one bit per pn of the
 * group (bit (pn-1) mod 8); DA1 = DA2 = 0 is p0, the terminal itself; DA1 = FF with DA2 = 0
 * means every valid point. DT (the information class Fn): DT2 is the group (Fn-1)/8, DT1 one
 * bit per Fn. One identifier can name up to 8 points and 8 classes; their data units then follow
 * point by point and, within a point, class by class, each in ascending order.
 */
export interface DataUnitId {
  /** Points named, ascending; [0] for p0; [] with `allPoints` for FF 00. */
  pns: number[];
  allPoints: boolean;
  /** Classes named, ascending; [] when DT1 is 0 (no class: invalid). */
  fns: number[];
  /** The four bytes as sent, e.g. "01 01 01 10". */
  raw: string;
}

export const MAX_PN = 2040;
export const MAX_FN = 248;

function bits(byte: number, base: number): number[] {
  const out: number[] = [];
  for (let bit = 0; bit < 8; bit++) if (byte & (1 << bit)) out.push(base + bit + 1);
  return out;
}

export function decodeDataUnitId(bytes: Uint8Array, at = 0): DataUnitId {
  const [da1, da2, dt1, dt2] = [bytes[at]!, bytes[at + 1]!, bytes[at + 2]!, bytes[at + 3]!];
  const allPoints = da2 === 0 && da1 === 0xff;
  const pns = da2 === 0 ? (da1 === 0 ? [0] : []) : bits(da1, (da2 - 1) * 8);
  return {
    pns,
    allPoints,
    fns: bits(dt1, dt2 * 8),
    raw: [da1, da2, dt1, dt2].map(byteHex).join(" "),
  };
}

/** DA for one point (0 = p0). */
export function encodeDa(pn: number): [number, number] {
  if (!Number.isInteger(pn) || pn < 0 || pn > MAX_PN) fail("bad-argument", `pn ${pn} is not 0..${MAX_PN}`);
  if (pn === 0) return [0, 0];
  return [1 << ((pn - 1) % 8), Math.floor((pn - 1) / 8) + 1];
}

/** DT for one class. */
export function encodeDt(fn: number): [number, number] {
  if (!Number.isInteger(fn) || fn < 1 || fn > MAX_FN) fail("bad-argument", `F${fn} is not F1..F${MAX_FN}`);
  return [1 << ((fn - 1) % 8), Math.floor((fn - 1) / 8)];
}

export function encodeDataUnitId(pn: number, fn: number): Uint8Array {
  return Uint8Array.of(...encodeDa(pn), ...encodeDt(fn));
}

/**
 * Identifiers for every (pn, Fn) pair of a read request, merged as the standard allows:
 * points of one DA2 group share DA1, classes of one DT2 group share DT1.
 */
export function encodeDataUnitIds(pns: readonly number[], fns: readonly number[]): Uint8Array[] {
  const daGroups = new Map<number, number>();
  for (const pn of new Set(pns)) {
    const [da1, da2] = encodeDa(pn);
    daGroups.set(da2, (daGroups.get(da2) ?? 0) | da1);
  }
  const dtGroups = new Map<number, number>();
  for (const fn of new Set(fns)) {
    const [dt1, dt2] = encodeDt(fn);
    dtGroups.set(dt2, (dtGroups.get(dt2) ?? 0) | dt1);
  }
  const out: Uint8Array[] = [];
  for (const [da2, da1] of [...daGroups].sort((a, b) => a[0] - b[0]))
    for (const [dt2, dt1] of [...dtGroups].sort((a, b) => a[0] - b[0]))
      out.push(Uint8Array.of(da1, da2, dt1, dt2));
  return out;
}

/** "p1 F129", "p0 F1", "all points F129". */
export function unitLabel(pn: number | "all", fn: number): string {
  return `${pn === "all" ? "all points" : `p${pn}`} F${fn}`;
}

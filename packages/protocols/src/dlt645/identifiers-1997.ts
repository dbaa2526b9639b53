import { byteHex } from "../hex.ts";
import {
  block,
  type DataItem,
  num,
  PHASE_LABELS,
  single,
  TARIFF_LABELS,
  TOTAL_PHASE_LABELS,
} from "./data-item.ts";

/**
 * DL/T 645-1997 data identifiers (2 bytes, sent low byte first, each +0x33): the registers a
 * prepaid system reads from old meters. Formats from the 1997↔2007 maps in
 * coyool/XXOO_000 dd645_2007.c and the field log KTS-Intek/DLT645 (metering-domain.md §1.9):
 * energy XXXXXX.XX kWh, voltage XXX V (2 B), current XX.XX A, active power XX.XXXX kW,
 * reactive power XX.XX kvar, power factor X.XXX.
 */
const ENERGY_KINDS: Record<number, [string, string, "kWh" | "kvarh"]> = {
  2305: ["forward active energy", "正向有功电能", "kWh"],
  2306: ["reverse active energy", "反向有功电能", "kWh"],
  2321: ["forward reactive energy", "正向无功电能", "kvarh"],
  2322: ["reverse reactive energy", "反向无功电能", "kvarh"],
};

const VARIABLES: Record<number, [string, string, ReturnType<typeof num>, boolean]> = {
  2913: ["voltage", "电压", num(2, 0, "V"), false],
  2914: ["current", "电流", num(2, 2, "A"), false],
  2915: ["active power", "有功功率", num(3, 4, "kW"), true],
  2916: ["reactive power", "无功功率", num(2, 2, "kvar"), true],
  2917: ["power factor", "功率因数", num(2, 3, ""), true],
};

const EXACT: DataItem[] = [
  single("C010", "date and weekday", "日期及周次", { kind: "datetime", layout: "YYMMDDWW" }),
  single("C011", "time", "时间", { kind: "datetime", layout: "hhmmss" }),
  single("C032", "meter number", "表号", { kind: "digits", bytes: 6 }),
  single("C033", "user number", "用户号", { kind: "digits", bytes: 6 }),
  single("C034", "device code", "设备码", { kind: "digits", bytes: 6 }),
];
const EXACT_MAP = new Map(EXACT.map((item) => [item.di, item]));

/** The table row for a 1997 DI ("9010"), or undefined. */
export function lookup1997(di: string): DataItem | undefined {
  const key = di.toUpperCase();
  const exact = EXACT_MAP.get(key);
  if (exact || !/^[0-9A-F]{4}$/.test(key)) return exact;
  const value = Number.parseInt(key, 16);
  const family = value >> 4;
  const last = value & 0x0f;
  const energy = ENERGY_KINDS[family];
  if (energy) {
    const [name, zh, unit] = energy;
    if (last === 0x0f) return block(key, `${name} block`, `${zh}数据块`, num(4, 2, unit), TARIFF_LABELS);
    if (last <= 14)
      return single(key, `${name} ${last === 0 ? "total" : `tariff ${last}`}`, zh, num(4, 2, unit));
    return undefined;
  }
  const variable = VARIABLES[family];
  if (!variable) return undefined;
  const [name, zh, format, hasTotal] = variable;
  if (last === 0x0f)
    return block(key, `${name} block`, `${zh}数据块`, format, hasTotal ? TOTAL_PHASE_LABELS : PHASE_LABELS);
  if (last > 3 || (last === 0 && !hasTotal)) return undefined;
  return single(key, `${name} ${last === 0 ? "total" : PHASE_LABELS[last - 1]}`, zh, format);
}

export const DI1997 = {
  FORWARD_ENERGY_TOTAL: "9010",
  FORWARD_ENERGY_BLOCK: "901F",
  VOLTAGE_A: "B611",
  CURRENT_A: "B621",
  ACTIVE_POWER_TOTAL: "B630",
  DATE: "C010",
  TIME: "C011",
  METER_NUMBER: "C032",
} as const;

/** 1997 forward active energy DI of tariff n (0 = total). */
export function forwardEnergyDi1997(tariff: number): string {
  return `901${byteHex(tariff).slice(1)}`;
}

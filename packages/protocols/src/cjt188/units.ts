import { byteHex } from "../hex.ts";
import type { Unit } from "../units.ts";

/**
 * CJ/T 188 unit codes, as listed in the standard's unit table and reproduced in
 * hupengwu/fox-edge-server-protocol:…/cjt188-core/…/CJT188Unit.java. 0x2C (m³) is the code
 * in every water vector (metering-domain.md §2.2).
 */
const UNITS: Record<number, Unit> = {
  1: "J",
  2: "Wh",
  5: "kWh",
  8: "MWh",
  10: "MWh×100",
  11: "kJ",
  14: "MJ",
  17: "GJ",
  19: "GJ×100",
  20: "W",
  23: "kW",
  26: "MW",
  41: "L",
  44: "m³",
  50: "L/h",
  53: "m³/h",
};

export const UNIT_CUBIC_METRE = 0x2c;

export function unitOf(code: number): Unit {
  return UNITS[code] ?? `unit-code-0x${byteHex(code)}`;
}

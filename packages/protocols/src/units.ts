/**
 * Units attached to every decoded number. Electricity units follow the DL/T 645-2007
 * data-format table (metering-domain.md §1.5) and the DL/T 698.45 object catalogue; the water/heat/gas units are the CJ/T 188
 * unit codes (§2.2).
 */
export type Unit =
  | "kWh"
  | "kvarh"
  | "V"
  | "A"
  | "kW"
  | "kvar"
  | "kVA"
  | "kVAh"
  | "var"
  | "VA"
  | "°"
  | "min"
  | "Hz"
  | "yuan"
  | "yuan/kWh"
  | "yuan/m³"
  | "count"
  | "" // dimensionless, e.g. power factor
  | "Wh"
  | "MWh"
  | "MWh×100"
  | "J"
  | "kJ"
  | "MJ"
  | "GJ"
  | "GJ×100"
  | "W"
  | "MW"
  | "L"
  | "m³"
  | "L/h"
  | "m³/h"
  | `unit-code-0x${string}`;

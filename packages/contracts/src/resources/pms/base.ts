import type { FieldDef } from "../../resource/types.ts";

/** What every registry resource shares: the PMS service (spec §7), one tenant, soft delete, audit. */
export const registryBase = {
  service: "blade-pms",
  tenantScoped: true,
  softDelete: true,
  audit: true,
} as const;

/** Rows the server writes itself (readings, commands): one tenant each, never edited or removed. */
export const serverWrittenBase = {
  service: "blade-pms",
  tenantScoped: true,
  softDelete: false,
  audit: false,
  readOnly: true,
} as const;

/** A meter id names an electric meter (energy type 1) or a water meter (2). */
export const meterByEnergy = {
  field: "energyType",
  resources: {
    "1": { resource: "meter", label: "productCode" },
    "2": { resource: "water", label: "productCode" },
  },
};

export const remarkField: FieldDef = { type: "text", maxLength: 255, list: false, span: 24 };

/** A meter's address (表号): 12 BCD digits for DL/T 645, 14 for CJ/T 188; unique in the tenant. */
export const meterAddress = (digits: 12 | 14): FieldDef => ({
  type: "string",
  required: true,
  maxLength: digits,
  search: "like",
  unique: true,
  pattern: { regex: `^\\d{${digits}}$`, message: `meterAddress${digits}` },
});

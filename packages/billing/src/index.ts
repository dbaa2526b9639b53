export * from "./capitals.ts";
export * from "./charges.ts";
export * from "./levels.ts";
export * from "./protection.ts";
export * from "./series.ts";
export * from "./tariff.ts";
export * from "./units.ts";

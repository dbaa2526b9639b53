import {
  commonFieldsEn,
  commonFieldsZh,
  developScreensEn,
  developScreensZh,
  type ResourceDef,
  resourcesEn,
  resourcesZh,
} from "@meterline/contracts";
import type { Language } from "../store/state.ts";

type Catalog = Record<string, { title: string; fields: Record<string, string> }>;

// The develop screens are not plain resources (their routes are a module's) but read their words alike.
const catalogs: Record<Language, Catalog> = {
  zh: { ...resourcesZh, ...developScreensZh },
  en: { ...resourcesEn, ...developScreensEn },
};
const common: Record<Language, Record<string, string>> = { zh: commonFieldsZh, en: commonFieldsEn };

/** The resource's title in the language, from the contracts catalogue (never a hard-coded word). */
export function resourceTitle(def: Pick<ResourceDef, "name">, language: Language): string {
  return catalogs[language][def.name]?.title ?? def.name;
}

/** A field's label: the resource's own words first, then the common audit columns. */
export function fieldLabel(def: Pick<ResourceDef, "name">, field: string, language: Language): string {
  return catalogs[language][def.name]?.fields[field] ?? common[language][field] ?? field;
}

import type { MessageKey, Translate } from "../../i18n/index.tsx";

/** The name of a region level (dictionary `region`: 0 country … 5 village committee). */
export function levelLabel(t: Translate, level: number): string {
  return level >= 0 && level <= 5 ? t(`region.level.${level}` as MessageKey) : String(level);
}

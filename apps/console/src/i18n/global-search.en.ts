import type { globalSearchZh } from "./global-search.zh.ts";

/** Strings of the global search (top bar box and the Ctrl+K overlay). */
export const globalSearchEn: Record<keyof typeof globalSearchZh, string> = {
  "globalSearch.title": "Global search",
  "globalSearch.placeholder": "Search rooms, owners, meters, collectors",
  "globalSearch.empty": "No matching room, owner, meter or collector",
  "globalSearch.failed": "Search failed, please try again",
  "globalSearch.typeMore": "Type at least two characters",
  "globalSearch.rooms": "Rooms",
  "globalSearch.owners": "Owners",
  "globalSearch.meters": "Meters",
  "globalSearch.collectors": "Collectors",
  "globalSearch.electric": "Electric",
  "globalSearch.water": "Water",
  "globalSearch.collectorFilter": "Collector code",
  "globalSearch.clearFilter": "Clear the collector filter",
};

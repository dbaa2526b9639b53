import type { batchesZh } from "./batches.zh.ts";

/** English strings of batches over every matching row and over an area of the tree. */
export const batchesEn: Record<keyof typeof batchesZh, string> = {
  "batch.removeMatching": "Delete all matching ({count})",
  "batch.removeMatchingTitle": "Delete {count} rows",
  "batch.removeMatchingConfirm":
    "This deletes the {count} rows matching the search and cannot be undone. Continue?",
  "batch.tooMany": "More than {max} rows match; narrow the search",
  "batch.none": "No row matches the search",
  "batch.area.electric": "Switch by area",
  "batch.area.water": "Valves by area",
  "batch.area.title.electric": "Switch by area: choose the target",
  "batch.area.title.water": "Valves by area: choose the target",
  "batch.area.pick": "Area or building",
  "batch.area.pickPlaceholder": "Choose an area or building",
  "batch.area.tenantFirst": "Choose a tenant first",
  "batch.area.count": "{count} meters under {area}",
  "batch.area.none": "No meters under {area}",
  "batch.area.next": "Confirm {count} meters, next",
} as const;

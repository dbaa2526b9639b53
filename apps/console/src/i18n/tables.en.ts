import type { tablesZh } from "./tables.zh.ts";

/** English strings of the resource tables' toolbar and row menu. */
export const tablesEn: Record<keyof typeof tablesZh, string> = {
  "crud.more": "More",
  "table.columns": "Columns",
  "table.columnsReset": "Show all columns",
  "table.density": "Density",
  "table.density.large": "Large",
  "table.density.middle": "Medium",
  "table.density.small": "Compact",
  "table.scope.selected": "The {count} ticked rows",
  "table.scope.matching": "All {count} rows matching the search",
  "table.scope.confirm": "This acts on {count} meters. Continue?",
  "table.scope.tooMany": "More than {max} meters match; narrow the search",
};

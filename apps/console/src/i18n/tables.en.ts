import type { tablesZh } from "./tables.zh.ts";

/** English strings of the resource tables' toolbar and row menu. */
export const tablesEn: Record<keyof typeof tablesZh, string> = {
  "crud.tenant": "Tenant",
  "crud.tenant.all": "All tenants",
  "crud.more": "More",
  "table.columns": "Columns",
  "table.columnsReset": "Show all columns",
  "table.density": "Density",
  "table.density.large": "Large",
  "table.density.middle": "Medium",
  "table.density.small": "Compact",
  "table.scope.matching": "All {count} meters matching the search",
  "table.scope.confirm": "This acts on the {count} meters matching the search. Continue?",
  "table.scope.tooMany": "More than {max} meters match; narrow the search",
  "table.scope.none": "No meter matches the search",
  "table.scope.switch.electric": "Switch all matching ({count})",
  "table.scope.switch.water": "Valves of all matching ({count})",
};

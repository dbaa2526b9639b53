import type { regionZh } from "./region.zh.ts";

/** Strings of the region screen. */
export const regionEn: Record<keyof typeof regionZh, string> = {
  "region.tree": "Region tree",
  "region.country": "People's Republic of China",
  "region.children": "Regions under {name}",
  "region.search": "Search all regions by name",
  "region.code": "Region code",
  "region.subCode": "Sub-code",
  "region.parentCode": "Parent code",
  "region.parentName": "Parent region",
  "region.name": "Region name",
  "region.level": "Level",
  "region.sort": "Sort",
  "region.remark": "Remark",
  "region.ancestors": "Ancestors",
  "region.level.0": "Country",
  "region.level.1": "Province",
  "region.level.2": "City",
  "region.level.3": "District",
  "region.level.4": "Town",
  "region.level.5": "Village",
  "region.import": "Import",
  "region.importTitle": "Import regions",
  "region.importHint":
    "One region per row: code, parent code, name, sort, remark; existing codes are updated",
  "region.importSubmit": "Import",
  "region.importCreated": "Added",
  "region.importUpdated": "Updated",
  "region.codePattern": "A region code is 2 to 12 digits",
  "region.removeConfirm": 'Remove region "{name}"? A region with sub-regions cannot be removed',
};

import type { Row } from "@meterline/api-client";
import type { FieldDef, ResourceDef } from "@meterline/contracts";
import type { TableColumnsType } from "antd";
import { linkedCell } from "../pages/detail/detail-links.tsx";
import type { Language } from "../store/state.ts";
import { readWhole, valueWidth, wholeWidth } from "./column-sizing.ts";
import { linkLabelKey, listFields } from "./fields.ts";
import { fieldLabel } from "./labels.ts";

/** What a cell shows: dictionary values by name, refs by the name the engine joins in, else the value. */
function cellText(row: Row, name: string, field: FieldDef, language: Language): string {
  if (field.dict || field.dictBiz) {
    const named = language === "en" ? (row[`${name}NameEn`] ?? row[`${name}Name`]) : row[`${name}Name`];
    return String(named ?? row[name] ?? "");
  }
  // Single links (also those whose resource depends on another field) come with their label.
  if (field.ref || field.refBy) return String(row[linkLabelKey(name)] ?? row[name] ?? "");
  const value = row[name];
  return value === null || value === undefined ? "" : String(value);
}

/**
 * The data columns of a resource table; a tree's parent column is left out (the tree shows it).
 * Identifiers (meter numbers, rooms, codes, times) are read whole: no wrap, a width fitting the
 * longest on the page (`rows`). The rest keep a usual width and ellipsise, the whole value in the
 * cell's tooltip. No column is narrower than its title.
 */
export function dataColumns(
  def: ResourceDef,
  language: Language,
  rows: readonly Row[] = [],
): TableColumnsType<Row> {
  return listFields(def)
    .filter(([name]) => name !== def.tree?.parent)
    .map(([name, field]) => {
      const title = fieldLabel(def, name, language);
      const whole = readWhole(name, field);
      return {
        key: name,
        dataIndex: name,
        title,
        width: (whole ? wholeWidth : valueWidth)(
          title,
          field,
          rows.map((row) => cellText(row, name, field, language)),
        ),
        ellipsis: whole ? false : { showTitle: false },
        className: whole ? "crud-nowrap" : undefined,
        onCell: (row: Row) => ({ title: cellText(row, name, field, language) || undefined }),
        // A room, owner or meter cell opens its detail page.
        render: (_: unknown, row: Row) =>
          linkedCell(def.name, name, row, cellText(row, name, field, language)),
      };
    });
}

/** The running number of a row across pages (a tree numbers its roots only). */
export const indexColumn = (current: number, size: number, label: string): TableColumnsType<Row>[number] => ({
  key: "index",
  title: label,
  width: 60,
  align: "center",
  render: (_: unknown, __: Row, index: number) => (current - 1) * size + index + 1,
});

import type { ResourceDef } from "@meterline/contracts";
import type { Column } from "../../crud/columns.ts";
import { columnsOf } from "../../crud/columns.ts";
import { ResourceStore } from "../../crud/store.ts";
import type { Queryable } from "../../db/client.ts";

/**
 * A row as it will be after a write, by field name: the stored values (on update) overlaid with
 * the written ones, so rules that span fields see the whole row even on a partial update.
 */
export async function mergedValues(
  db: Queryable,
  def: ResourceDef,
  values: Map<Column, unknown>,
  id?: string,
): Promise<Record<string, unknown>> {
  const row: Record<string, unknown> = {};
  if (id) {
    const columns = columnsOf(def).filter((c) => !c.system);
    for (const [column, value] of await new ResourceStore(db, def).stored(id, columns))
      row[column.name] = value;
  }
  for (const [column, value] of values) row[column.name] = value;
  return row;
}

import { columnOf, type ResourceDef } from "@meterline/contracts";
import type { Queryable } from "../db/client.ts";
import { roomLabelSql } from "../modules/pms/room-label.ts";
import { linksOf } from "./references.ts";
import type { Row } from "./serialize.ts";
import { ident } from "./sql.ts";

const ID = /^[1-9]\d{0,18}$/;

/**
 * Rows come out with the label of each single-id link beside it (`areaId` → `areaName`,
 * `parentId` → `parentName`, a room meter's `meterId` → `meterName` from the meter of its energy
 * type), one query per link for the whole page, so tables show names rather than ids.
 */
export async function addReferenceNames(db: Queryable, def: ResourceDef, rows: Row[]): Promise<void> {
  if (rows.length === 0) return;
  const labels = new Map<string, Map<Row, string>>();
  for (const link of linksOf(def, { withTreeParent: true })) {
    const key = `${link.column.name.replace(/Id$/, "")}Name`;
    if (def.fields[key]) continue;
    const mine = link.when
      ? rows.filter((r) => String(r[link.when!.column.name]) === link.when!.value)
      : rows;
    const ids = [...new Set(mine.map((r) => String(r[link.column.name] ?? "")).filter((id) => ID.test(id)))];
    const labelField = link.target.fields[link.label];
    if (!labelField) continue;
    // A room is named with its building ("2号楼 305"): a bare number names a room in every building.
    const label =
      link.target.name === "room" ? roomLabelSql("t") : `t.${ident(columnOf(link.label, labelField))}`;
    const found = ids.length
      ? await db.query<{ id: string; label: string }>(
          `select t.id::text as id, ${label} as label
             from ${ident(link.target.table)} t where t.id = any($1::bigint[])`,
          [ids],
        )
      : [];
    const byId = new Map(found.map((f) => [f.id, f.label]));
    const named = labels.get(key) ?? new Map<Row, string>();
    for (const row of mine) {
      const label = byId.get(String(row[link.column.name] ?? ""));
      if (label !== undefined) named.set(row, label);
    }
    labels.set(key, named);
  }
  for (const [key, named] of labels) for (const row of rows) row[key] = named.get(row) ?? "";
}

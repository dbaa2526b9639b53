import { columnOf, type ResourceDef } from "@meterline/contracts";
import { roomLabelSql } from "../modules/pms/room-label.ts";
import { type Link, linksOf } from "./references.ts";
import { ident } from "./sql.ts";

/** One `<link>Name` a row carries, and the SQL expression over the row alias `t` that reads it. */
export interface ReferenceLabel {
  key: string;
  sql: string;
}

const cache = new WeakMap<ResourceDef, ReferenceLabel[]>();

/**
 * The label of one link's target row, as a scalar sub-select on the row's own link column. Between
 * two tenant tables the target is looked up in the row's own tenant: a link never crosses tenants,
 * and the lookup then stays on the row's shard when tables are distributed by tenant (docs/scale.md).
 */
function labelOf(def: ResourceDef, link: Link): string | undefined {
  const labelField = link.target.fields[link.label];
  if (!labelField) return undefined;
  // A room is named with its building ("2号楼 305"): a bare number names a room in every building.
  const label =
    link.target.name === "room" ? roomLabelSql("l") : `l.${ident(columnOf(link.label, labelField))}::text`;
  const sameTenant = def.tenantScoped && link.target.tenantScoped ? " and l.tenant_id = t.tenant_id" : "";
  return `(select ${label} from ${ident(link.target.table)} l where l.id = t.${ident(link.column.column)}${sameTenant})`;
}

/**
 * The label of each single-id link beside the link (`areaId` → `areaName`, `parentId` →
 * `parentName`, a room meter's `meterId` → `meterName` from the meter of its energy type), as
 * columns of the rows' own statement, so tables show names rather than ids without a query per
 * link. A link to no row (or to none) reads as "".
 */
export function referenceLabels(def: ResourceDef): ReferenceLabel[] {
  const cached = cache.get(def);
  if (cached) return cached;
  const branches = new Map<string, string[]>();
  for (const link of linksOf(def, { withTreeParent: true })) {
    const key = `${link.column.name.replace(/Id$/, "")}Name`;
    if (def.fields[key]) continue;
    const label = labelOf(def, link);
    if (!label) continue;
    // A `refBy` link reads the resource its discriminator names (energy type 1: meter, 2: water).
    const when = link.when
      ? `t.${ident(link.when.column.column)}::text = '${link.when.value.replaceAll("'", "''")}'`
      : "true";
    branches.set(key, [...(branches.get(key) ?? []), `when ${when} then ${label}`]);
  }
  const labels = [...branches].map(([key, cases]) => ({
    key,
    sql: `coalesce(case ${cases.join(" ")} end, '') as "${key}"`,
  }));
  cache.set(def, labels);
  return labels;
}

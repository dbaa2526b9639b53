import { type ResourceDef, resources, resourcesZh } from "@meterline/contracts";
import { badRequest } from "../contract/errors.ts";
import type { Queryable } from "../db/client.ts";
import { type Column, columnByName, columnsOf } from "./columns.ts";
import { ident } from "./sql.ts";

const all = Object.values(resources) as ResourceDef[];
const titles = resourcesZh as Record<string, { title: string }>;
export const titleOf = (def: ResourceDef) => titles[def.name]?.title ?? def.name;
const resourceNamed = (name: string) => resources[name as keyof typeof resources] as ResourceDef | undefined;

/** One way a column links to another resource; `when` is the discriminator value of a `refBy` link. */
export interface Link {
  column: Column;
  target: ResourceDef;
  label: string;
  when?: { column: Column; value: string };
}

const linkCache = new WeakMap<ResourceDef, Link[]>();

/**
 * The single-id links of a resource: `ref` fields (a tree's own parent excepted, which the tree
 * rules handle) and every branch of `refBy` fields.
 */
export function linksOf(def: ResourceDef, options: { withTreeParent?: boolean } = {}): Link[] {
  const cached = !options.withTreeParent && linkCache.get(def);
  if (cached) return cached;
  const links: Link[] = [];
  for (const column of columnsOf(def)) {
    if (column.field.type !== "id") continue;
    const { ref, refBy } = column.field;
    if (ref && (options.withTreeParent || !(def.tree && column.name === def.tree.parent))) {
      const target = resourceNamed(ref.resource);
      if (target) links.push({ column, target, label: ref.label });
    }
    if (refBy) {
      const discriminator = columnByName(def, refBy.field)!;
      for (const [value, branch] of Object.entries(refBy.resources)) {
        const target = resourceNamed(branch.resource);
        if (target)
          links.push({ column, target, label: branch.label, when: { column: discriminator, value } });
      }
    }
  }
  if (!options.withTreeParent) linkCache.set(def, links);
  return links;
}

const present = (v: unknown) => v !== undefined && v !== null && v !== "" && v !== "0";

/**
 * Every linked row must exist, be live and belong to the row's own tenant: a link across tenants
 * would let one tenant's room read another's meter. `stored` gives the current value of a column
 * an update leaves alone (a `refBy` link needs both the id and its discriminator).
 */
export async function assertReferences(
  db: Queryable,
  def: ResourceDef,
  values: Map<Column, unknown>,
  tenantId: string,
  stored: (column: Column) => Promise<unknown> = async () => undefined,
): Promise<void> {
  const links = linksOf(def);
  for (const column of new Set(links.map((l) => l.column))) {
    const branches = links.filter((l) => l.column === column);
    const discriminator = branches[0]!.when?.column;
    if (!values.has(column) && !(discriminator && values.has(discriminator))) continue;
    const id = values.has(column) ? values.get(column) : await stored(column);
    if (!present(id)) continue;
    let link = branches[0]!;
    if (discriminator) {
      const value = values.has(discriminator) ? values.get(discriminator) : await stored(discriminator);
      const match = branches.find((b) => b.when!.value === String(value));
      if (!match) throw badRequest(`${discriminator.name}: 不支持的取值`);
      link = match;
    }
    const { target } = link;
    const conditions = ["id = $1"];
    const params: unknown[] = [id];
    if (target.softDelete) conditions.push("is_deleted = 0");
    if (target.tenantScoped) {
      params.push(tenantId);
      conditions.push(`tenant_id = $${params.length}`);
    }
    const found = await db.query(
      `select 1 from ${ident(target.table)} where ${conditions.join(" and ")}`,
      params,
    );
    if (found.length === 0) throw badRequest(`${column.name}: 所选${titleOf(target)}不存在`);
  }
}

/** Live rows of other resources that still link to any of `ids`; removal is refused while they exist. */
export async function assertNotReferenced(db: Queryable, def: ResourceDef, ids: string[]): Promise<void> {
  for (const other of all) {
    for (const link of linksOf(other)) {
      if (link.target !== def) continue;
      const params: unknown[] = [ids];
      let where = `${ident(link.column.column)} = any($1::bigint[])`;
      if (other.softDelete) where += " and is_deleted = 0";
      if (link.when) {
        params.push(link.when.value);
        where += ` and ${ident(link.when.column.column)}::text = $2`;
      }
      const [row] = await db.query<{ n: string }>(
        `select count(*)::text as n from ${ident(other.table)} where ${where}`,
        params,
      );
      const count = Number(row?.n ?? 0);
      if (count > 0) throw badRequest(`${titleOf(def)}仍被 ${count} 条${titleOf(other)}使用,不能删除`);
    }
  }
}

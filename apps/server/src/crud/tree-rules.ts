import type { ResourceDef } from "@meterline/contracts";
import { badRequest } from "../contract/errors.ts";
import type { Queryable } from "../db/client.ts";
import { type Column, columnByName } from "./columns.ts";
import { ident } from "./sql.ts";

interface TreeWrite {
  /** Tenant the row belongs to (tenant-scoped trees keep parent and child in one tenant). */
  tenantId?: string;
  /** Set when updating. */
  id?: string;
}

/**
 * The rules every tree keeps on write: the parent exists (in the same tenant), a node is never its
 * own parent or ancestor, and where the tree stores ancestors they follow the node and its subtree.
 * Returns a step to run after the row is written (rewriting the moved subtree's ancestors).
 */
export async function applyTreeRules(
  db: Queryable,
  def: ResourceDef,
  values: Map<Column, unknown>,
  write: TreeWrite,
): Promise<(() => Promise<void>) | undefined> {
  if (!def.tree) return undefined;
  const table = ident(def.table);
  const parentColumn = columnByName(def, def.tree.parent)!;
  const parentName = def.tree.parent;
  if (!values.has(parentColumn)) {
    if (write.id) return undefined;
    values.set(parentColumn, "0");
  }
  const parentId = String(values.get(parentColumn) ?? "0");
  if (write.id && parentId === write.id) throw badRequest(`${parentName}: 父节点不可选择自身!`);
  let ancestors = "0";
  if (parentId !== "0") {
    const live = def.softDelete ? " and is_deleted = 0" : "";
    const [parent] = await db.query<{ tenant_id?: string; ancestors?: string }>(
      `select * from ${table} where id = $1${live}`,
      [parentId],
    );
    if (!parent || (def.tenantScoped && parent.tenant_id !== write.tenantId)) {
      throw badRequest(`${parentName}: 上级节点不存在`);
    }
    if (write.id && (await isAncestor(db, table, parentColumn, write.id, parentId))) {
      throw badRequest(`${parentName}: 不能移动到自己的下级节点`);
    }
    ancestors = `${parent.ancestors ?? "0"},${parentId}`;
  }
  const ancestorsColumn = def.tree.ancestors ? columnByName(def, "ancestors") : undefined;
  if (!ancestorsColumn) return undefined;
  values.set(ancestorsColumn, ancestors);
  if (!write.id) return undefined;
  const [before] = await db.query<{ ancestors: string }>(`select ancestors from ${table} where id = $1`, [
    write.id,
  ]);
  const oldPrefix = `${before?.ancestors ?? "0"},${write.id}`;
  const newPrefix = `${ancestors},${write.id}`;
  if (oldPrefix === newPrefix) return undefined;
  return async () => {
    await db.query(
      `update ${table} set ancestors = $2 || substr(ancestors, length($1) + 1)
        where ancestors = $1 or ancestors like $1 || ',%'`,
      [oldPrefix, newPrefix],
    );
  };
}

/** Whether `nodeId` is `candidate` or one of its ancestors, walking parent links upwards. */
async function isAncestor(db: Queryable, table: string, parent: Column, nodeId: string, candidate: string) {
  const column = ident(parent.column);
  const rows = await db.query(
    `with recursive up as (
       select id, ${column} as parent from ${table} where id = $1
       union
       select t.id, t.${column} from ${table} t join up on t.id = up.parent
     ) select 1 from up where id = $2 limit 1`,
    [candidate, nodeId],
  );
  return rows.length > 0;
}

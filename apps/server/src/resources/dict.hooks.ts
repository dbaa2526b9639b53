import { badRequest, notFound } from "../contract/errors.ts";
import { columnByName } from "../crud/columns.ts";
import type { ResourceHooks } from "../crud/hooks.ts";
import { ident } from "../crud/sql.ts";

/**
 * A child takes its parent's code and must have a key; a root's key is -1, and renaming a root's
 * code renames its items (contract §10.4). Works for system and business dictionaries alike.
 */
export const dictionaryHooks: ResourceHooks = {
  async beforeWrite({ db, def, user }, values, id) {
    const column = (name: string) => columnByName(def, name)!;
    const table = ident(def.table);
    const tenant = def.tenantScoped ? " and tenant_id = $2" : "";
    const tenantParam = def.tenantScoped ? [user.tenantId] : [];
    if (!id) {
      const parentId = String(values.get(column("parentId")) ?? "0");
      if (parentId === "0") {
        values.set(column("dictKey"), "-1");
        values.set(column("parentId"), "0");
        return;
      }
      const [parent] = await db.query<{ code: string }>(
        `select code from ${table} where id = $1 and is_deleted = 0${tenant}`,
        [parentId, ...tenantParam],
      );
      if (!parent) throw notFound("parentId: 上级字典不存在");
      values.set(column("code"), parent.code);
      if (!values.get(column("dictKey"))) throw badRequest("dictKey: 不能为空");
      return;
    }
    const [row] = await db.query<{ parent_id: string; code: string }>(
      `select parent_id, code from ${table} where id = $1`,
      [id],
    );
    if (!row) return;
    if (row.parent_id !== "0") {
      // The code of an item is its dictionary's, never edited on the item itself.
      values.delete(column("code"));
      if (values.has(column("dictKey")) && !values.get(column("dictKey")))
        throw badRequest("dictKey: 不能为空");
      return;
    }
    values.delete(column("dictKey"));
    const code = values.get(column("code"));
    if (typeof code === "string" && code !== row.code) {
      const sameTenant = def.tenantScoped ? " and tenant_id = $3" : "";
      await db.query(`update ${table} set code = $1 where code = $2 and parent_id <> 0${sameTenant}`, [
        code,
        row.code,
        ...tenantParam,
      ]);
    }
  },
};

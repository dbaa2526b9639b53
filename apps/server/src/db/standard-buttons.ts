import { menuCodeOf, permissionCodes, type ResourceDef, resourceBase } from "@meterline/contracts";
import type { Queryable } from "./client.ts";
import { nextId } from "./ids.ts";

interface Button {
  code: string;
  name: string;
  alias: string;
  path: string;
  source: string;
  action: number;
}

/** The buttons every plain resource's screen has, derived from its definition. */
export function standardButtons(def: ResourceDef, screenPath: string): Button[] {
  const codes = permissionCodes(def);
  const writes: Button[] = [
    { code: codes.add, name: "新增", alias: "add", path: `${screenPath}/add`, source: "plus", action: 1 },
    { code: codes.edit, name: "修改", alias: "edit", path: `${screenPath}/edit`, source: "form", action: 2 },
    {
      code: codes.remove,
      name: "删除",
      alias: "delete",
      path: `${resourceBase(def)}/remove`,
      source: "delete",
      action: 3,
    },
  ];
  const reads: Button[] = [
    {
      code: codes.view,
      name: "查看",
      alias: "view",
      path: `${screenPath}/view`,
      source: "file-text",
      action: 2,
    },
    {
      code: codes.exportRows,
      name: "导出",
      alias: "export",
      path: `${screenPath}/export`,
      source: "download",
      action: 1,
    },
  ];
  if (def.readOnly) return reads;
  // Rows the server creates are edited and removed, never added by hand.
  return [...writes.filter((b) => !(def.rowsCreatedByServer && b.code === codes.add)), ...reads];
}

/**
 * Gives each resource's screen (the menu whose code is the resource's name) its standard buttons,
 * once: the step is recorded, so buttons an administrator deletes later stay deleted.
 */
export async function seedStandardButtons(tx: Queryable, defs: readonly ResourceDef[], done: Set<string>) {
  const applied: string[] = [];
  for (const def of defs) {
    const version = `buttons/${def.name}`;
    if (done.has(version)) continue;
    const [screen] = await tx.query<{ id: string; path: string | null }>(
      "select id, path from sys_menu where code = $1 and category = 1 and is_deleted = 0",
      [menuCodeOf(def)],
    );
    if (!screen) continue; // its screen is not seeded yet; a later start adds the buttons
    const buttons = standardButtons(def, screen.path ?? `/${def.name}`);
    for (const [i, b] of buttons.entries()) {
      await tx.query(
        `insert into sys_menu (id, parent_id, code, name, alias, path, source, sort, category, action, is_open)
         select $1, $2, $3::varchar, $4, $5, $6, $7, $8, 2, $9, 1
          where not exists (select 1 from sys_menu where code = $3::varchar and is_deleted = 0)`,
        [nextId(), screen.id, b.code, b.name, b.alias, b.path, b.source, i + 1, b.action],
      );
    }
    await tx.query("insert into schema_migration (version) values ($1)", [version]);
    applied.push(version);
  }
  return applied;
}

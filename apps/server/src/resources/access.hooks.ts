import { ROLE_ADMINISTRATOR } from "@meterline/contracts";
import { badRequest, forbidden } from "../contract/errors.ts";
import { columnByName } from "../crud/columns.ts";
import type { ResourceHooks } from "../crud/hooks.ts";
import { isAdministrator } from "../modules/auth/current-user.ts";
import { platformAdministratorRoles } from "../modules/user/platform-administrator.ts";

const REMOVE_MESSAGE = "不可删除超级管理员角色!";
const RENAME_MESSAGE = "不可修改超级管理员角色的别名!";

/** Only the platform administrator creates or changes a role aliased `administrator` (contract §8.1). */
export const roleHooks: ResourceHooks = {
  /** Only the platform administrator sees the role that makes one (contract §8.1). */
  hiddenRows(user, sql) {
    return isAdministrator(user) ? [] : [`t.role_alias <> ${sql.bind(ROLE_ADMINISTRATOR)}`];
  },
  async beforeWrite({ db, def, user }, values, id) {
    const alias = values.get(columnByName(def, "roleAlias")!);
    if (id && alias !== undefined && alias !== ROLE_ADMINISTRATOR) {
      // Renaming the platform's administrator role would leave nobody able to manage the platform.
      if ((await platformAdministratorRoles(db, [id])).length > 0) throw badRequest(RENAME_MESSAGE);
    }
    if (isAdministrator(user)) return;
    const [stored] = id
      ? await db.query<{ role_alias: string }>("select role_alias from sys_role where id = $1", [id])
      : [];
    if (alias === ROLE_ADMINISTRATOR || stored?.role_alias === ROLE_ADMINISTRATOR) {
      throw forbidden("无权限创建超管角色!");
    }
  },
  async beforeRemove({ db, user }, ids) {
    if ((await platformAdministratorRoles(db, ids)).length > 0) throw badRequest(REMOVE_MESSAGE);
    if (isAdministrator(user)) return;
    const rows = await db.query("select 1 from sys_role where id = any($1::bigint[]) and role_alias = $2", [
      ids,
      ROLE_ADMINISTRATOR,
    ]);
    if (rows.length > 0) throw forbidden("无权限删除超管角色!");
  },
};

/** A menu's parent is a screen, never a button; codes and screen names are unique (contract §7.1). */
export const menuHooks: ResourceHooks = {
  async beforeWrite({ db, def }, values, id) {
    const parentId = values.get(columnByName(def, "parentId")!);
    if (parentId !== undefined && String(parentId) !== "0") {
      const [parent] = await db.query<{ category: number }>(
        "select category from sys_menu where id = $1 and is_deleted = 0",
        [String(parentId)],
      );
      if (parent && parent.category !== 1) throw badRequest("parentId: 父节点只可选择菜单类型!");
    }
    const name = values.get(columnByName(def, "name")!);
    const category = values.get(columnByName(def, "category")!);
    if (typeof name === "string" && category === 1) {
      const clash = await db.query(
        "select 1 from sys_menu where name = $1 and category = 1 and is_deleted = 0 and id <> $2 limit 1",
        [name, id ?? "0"],
      );
      if (clash.length > 0) throw badRequest("name: 菜单名或编号已存在!");
    }
  },
};

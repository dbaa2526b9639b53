import type { TreeNode } from "@meterline/contracts";
import type { Http } from "./http.ts";

/** The three forests a role can be granted from (contract §8.3). */
export interface GrantTrees {
  menu: TreeNode[];
  dataScope: TreeNode[];
  apiScope: TreeNode[];
}

/** What roles hold: menu ids (ancestors included), data-scope ids and API-scope ids. */
export interface GrantKeys {
  menu: string[];
  dataScope: string[];
  apiScope: string[];
}

export interface RoleGrant {
  roleIds: string[];
  menuIds: string[];
  dataScopeIds: string[];
  apiScopeIds: string[];
}

/** The screens top menus are set to hold (contract §7 topmenu grant). */
export interface TopMenuGrant {
  topMenuIds: string[];
  menuIds: string[];
}

export function accessApi(http: Http) {
  return {
    grantTrees(): Promise<GrantTrees> {
      return http.envelope<GrantTrees>("/api/blade-system/menu/grant-tree");
    },
    roleTreeKeys(roleIds: readonly string[]): Promise<GrantKeys> {
      return http.envelope<GrantKeys>("/api/blade-system/menu/role-tree-keys", { query: { roleIds } });
    },
    /** Replaces the roles' grants; the server adds the ancestors of every granted menu. */
    grantRoles(grant: RoleGrant): Promise<unknown> {
      return http.envelope<unknown>("/api/blade-system/role/grant", { method: "POST", body: grant });
    },
    /** The screens (menus, no buttons) a top menu may hold. */
    grantTopTree(): Promise<{ menu: TreeNode[] }> {
      return http.envelope<{ menu: TreeNode[] }>("/api/blade-system/menu/grant-top-tree");
    },
    /** The screens the given top menus hold (ancestors included). */
    topTreeKeys(topMenuIds: readonly string[]): Promise<{ menu: string[] }> {
      return http.envelope<{ menu: string[] }>("/api/blade-system/menu/top-tree-keys", {
        query: { topMenuIds },
      });
    },
    /** Replaces the screens of the top menus. */
    grantTopMenus(grant: TopMenuGrant): Promise<unknown> {
      return http.envelope<unknown>("/api/blade-system/topmenu/grant", { method: "POST", body: grant });
    },
  };
}

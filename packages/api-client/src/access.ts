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
  };
}

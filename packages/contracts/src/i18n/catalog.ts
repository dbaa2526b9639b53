import type { resources } from "../resources/index.ts";

type Resources = typeof resources;

/**
 * Labels of every plain resource: its title and one per field, plus the common columns. The type
 * makes a missing field a compile error, so a new definition cannot ship without its words.
 */
export type ResourceCatalog = {
  [K in keyof Resources]: { title: string; fields: Record<keyof Resources[K]["fields"], string> };
};

export type CommonFieldLabels = Record<
  "id" | "tenantId" | "createUser" | "createDept" | "createTime" | "updateUser" | "updateTime" | "status",
  string
>;

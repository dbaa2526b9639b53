import { type ResourceName, resources } from "@meterline/contracts";
import type { PageEntry } from "../components/chunk.ts";

/**
 * Resources with a bespoke page (a ResourcePage plus extra actions). Every other resource renders
 * the generic ResourcePage from its definition alone, so a new menu needs no page file.
 */
const bespoke: Partial<Record<ResourceName, PageEntry>> = {
  role: { load: () => import("../pages/role/RolePage.tsx"), file: "pages/role/RolePage.tsx" },
  tenant: { load: () => import("../pages/tenant/TenantPage.tsx"), file: "pages/tenant/TenantPage.tsx" },
};

const generic = new Map<ResourceName, PageEntry>();

export const isResourceName = (code: string): code is ResourceName => Object.hasOwn(resources, code);

/** The page of the resource a menu code names; one entry per resource so its chunk loads once. */
export function resourcePageEntry(name: ResourceName): PageEntry {
  const own = bespoke[name];
  if (own) return own;
  let entry = generic.get(name);
  if (!entry) {
    entry = {
      file: "crud/ResourcePage.tsx",
      load: async () => {
        const { ResourcePage } = await import("./ResourcePage.tsx");
        const def = resources[name];
        return { default: () => <ResourcePage def={def} /> };
      },
    };
    generic.set(name, entry);
  }
  return entry;
}

/**
 * Resources made by the code generator (blade-develop gen-code). The generator writes this file
 * again with every resource it has made so far plus the new ones, so unpacking its zip at the
 * repository root is all it takes to add a resource: no other file changes.
 */
import type { ResourceDef } from "../../resource/types.ts";

export const generatedResources = {} as const satisfies Record<string, ResourceDef>;

/** Chinese and English labels of the generated resources, merged into the catalogs. */
export const generatedResourcesZh = {} as const;
export const generatedResourcesEn = {} as const;

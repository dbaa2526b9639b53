import type { ResourceDef } from "../resource/types.ts";
import { param, post } from "./system.ts";

/** Every plain resource, by name. The server registers and the console renders whatever is here. */
export const resources = { param, post } as const satisfies Record<string, ResourceDef>;

export type ResourceName = keyof typeof resources;

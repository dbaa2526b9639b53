import type { ResourceDef } from "../resource/types.ts";
import { dict, dictBiz } from "./dict.ts";
import { param, post } from "./system.ts";

/** Every plain resource, by name. The server registers and the console renders whatever is here. */
export const resources = { param, post, dict, dictBiz } as const satisfies Record<string, ResourceDef>;

export type ResourceName = keyof typeof resources;

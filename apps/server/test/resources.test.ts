import { type ResourceDef, resources } from "@meterline/contracts";
import { describePlainResources } from "./resource-suite.ts";

/** Every plain resource: a new definition is picked up here without touching this file. */
describePlainResources(Object.values(resources) as ResourceDef[]);

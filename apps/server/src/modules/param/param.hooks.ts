import type { ResourceHooks } from "../../crud/hooks.ts";
import { tenantParamRows } from "./param-values.ts";

/** A tenant's parameter list shows its own values and the defaults it has not overridden. */
export const paramHooks: ResourceHooks = {
  tenantRows: (user, sql, alias) => tenantParamRows(user.tenantId, sql, alias),
};

import { crossesTenants, type ResourceDef, TENANT_CODE } from "@meterline/contracts";
import { badParam } from "../contract/errors.ts";
import { optionalString } from "../contract/params.ts";
import { type CurrentUser, isAdministrator } from "../modules/auth/current-user.ts";

/**
 * Whether this caller's rows of this resource carry their tenant's name (`tenantName`): only the
 * platform administrator, who reads across tenants, needs to be told whose a row is.
 */
export const showsTenant = (def: ResourceDef, user: CurrentUser) =>
  crossesTenants(def) && isAdministrator(user);

/**
 * The `tenantId` a list call names, checked for everyone (a malformed code is a 400 naming it).
 * Only the platform administrator's narrows anything (see visibleRows): anyone else stays in their
 * own tenant whatever they send.
 */
export function askedTenant(params: Record<string, unknown>): string | undefined {
  const asked = optionalString(params, "tenantId");
  if (asked !== undefined && !TENANT_CODE.test(asked)) throw badParam("tenantId");
  return asked;
}

/**
 * The join that names each row's tenant, for `t` (a live tenant code is unique, so no row repeats).
 * Part of the list's own statement: no extra round trip.
 */
export const TENANT_JOIN = "left join sys_tenant tn on tn.tenant_id = t.tenant_id and tn.is_deleted = 0";
export const TENANT_NAME = `coalesce(tn.tenant_name, t.tenant_id) as "tenantName"`;

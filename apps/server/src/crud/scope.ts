import type { ResourceDef } from "@meterline/contracts";
import { type CurrentUser, isAdministrator } from "../modules/auth/current-user.ts";
import type { SqlParams } from "./sql.ts";

/** A predicate on the rows of alias `alias` that the caller's tenant sees. */
export type TenantRows = (user: CurrentUser, sql: SqlParams, alias: string) => string;

/**
 * The rows a caller can see at all: live rows of the caller's tenant. The platform administrator
 * crosses tenants, as the contract's super-administrator bypass does (contract §9.1), and may narrow
 * to one tenant with `tenantId`.
 */
export function visibleRows(
  def: ResourceDef,
  user: CurrentUser,
  sql: SqlParams,
  options: {
    alias?: string;
    tenantId?: string;
    /** Which tenants' rows a caller other than the platform administrator sees, in place of its own only. */
    tenantRows?: TenantRows;
  } = {},
): string[] {
  const t = options.alias ?? "t";
  const conditions: string[] = [];
  if (def.softDelete) conditions.push(`${t}.is_deleted = 0`);
  if (def.tenantScoped && options.tenantRows && !isAdministrator(user)) {
    conditions.push(`(${options.tenantRows(user, sql, t)})`);
  } else if (def.tenantScoped) {
    const crosses = isAdministrator(user) && !def.tenantStrict;
    const tenant = crosses ? options.tenantId : user.tenantId;
    if (tenant) conditions.push(`${t}.tenant_id = ${sql.bind(tenant)}`);
  }
  return conditions;
}

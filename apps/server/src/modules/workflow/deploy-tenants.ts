import { badParam, badRequest, forbidden } from "../../contract/errors.ts";
import type { Db } from "../../db/client.ts";
import { type CurrentUser, isAdministrator } from "../auth/current-user.ts";

/**
 * The tenants a deployment goes to (CSV `tenantIds`; none = common): the platform administrator
 * names existing tenants, a tenant's administrator deploys for the own tenant only.
 */
export async function deployTenants(db: Db, caller: CurrentUser, raw: string | undefined): Promise<string[]> {
  const asked = (raw ?? "")
    .split(",")
    .map((t) => t.trim())
    .filter(Boolean);
  if (asked.length > 100 || asked.some((t) => !/^\d{6,12}$/.test(t))) throw badParam("tenantIds");
  if (!isAdministrator(caller)) {
    // A tenant's administrator deploys for the own tenant only.
    if (asked.some((t) => t !== caller.tenantId)) throw forbidden("tenantIds: 只能部署到本租户");
    return [caller.tenantId];
  }
  if (asked.length === 0) return [];
  const known = await db.query<{ tenant_id: string }>(
    "select tenant_id from sys_tenant where tenant_id = any($1::varchar[]) and is_deleted = 0",
    [asked],
  );
  const missing = asked.filter((t) => !known.some((k) => k.tenant_id === t));
  if (missing.length > 0) throw badRequest(`tenantIds: 租户 ${missing.join(",")} 不存在`);
  return [...new Set(asked)];
}

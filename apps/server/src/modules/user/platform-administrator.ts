import { PLATFORM_TENANT_ID, ROLE_ADMINISTRATOR } from "@meterline/contracts";
import { badRequest } from "../../contract/errors.ts";
import type { Queryable } from "../../db/client.ts";

// Any constant works; every process that changes administrators takes turns on it.
const ADMINISTRATOR_LOCK = 7_046_452;

export const LAST_ADMINISTRATOR_MESSAGE = "平台至少需要保留一名可用的超级管理员!";

/**
 * Refuses a change, inside its transaction and after its writes, that left the platform without an
 * active user holding the administrator role: nobody could sign in to manage it again. The lock
 * makes two such changes take turns, so each one counts what the other committed.
 */
export async function assertPlatformAdministratorRemains(db: Queryable): Promise<void> {
  await db.query("select pg_advisory_xact_lock($1)", [ADMINISTRATOR_LOCK]);
  const rows = await db.query(
    `select 1 from sys_user u
      where u.tenant_id = $1 and u.is_deleted = 0 and u.status = 1
        and exists (select 1 from sys_role r
                     where r.tenant_id = $1 and r.role_alias = $2 and r.is_deleted = 0
                       and (',' || replace(u.role_id, ' ', '') || ',') like '%,' || r.id::text || ',%')
      limit 1`,
    [PLATFORM_TENANT_ID, ROLE_ADMINISTRATOR],
  );
  if (rows.length === 0) throw badRequest(LAST_ADMINISTRATOR_MESSAGE);
}

/** The platform's administrator roles among `ids`: they can be neither removed nor renamed. */
export async function platformAdministratorRoles(db: Queryable, ids: string[]): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `select id::text as id from sys_role
      where id = any($1::bigint[]) and tenant_id = $2 and role_alias = $3 and is_deleted = 0`,
    [ids, PLATFORM_TENANT_ID, ROLE_ADMINISTRATOR],
  );
  return rows.map((r) => r.id);
}

import type { Db } from "../src/db/client.ts";
import { nextId } from "../src/db/ids.ts";
import { hashPassword, md5Hex } from "../src/modules/auth/password.ts";

export async function addTenant(
  db: Db,
  tenantId: string,
  options: { expireTime?: Date; domain?: string } = {},
) {
  await db.query(
    "insert into sys_tenant (id, tenant_id, tenant_name, domain, expire_time) values ($1, $2, $3, $4, $5)",
    [nextId(), tenantId, `租户${tenantId}`, options.domain ?? null, options.expireTime ?? null],
  );
}

export async function addRole(db: Db, tenantId: string, alias: string): Promise<string> {
  const id = nextId();
  await db.query("insert into sys_role (id, tenant_id, role_name, role_alias) values ($1, $2, $3, $3)", [
    id,
    tenantId,
    alias,
  ]);
  return id;
}

export async function addUser(
  db: Db,
  options: { tenantId: string; account: string; password: string; roleIds: string[]; status?: number },
): Promise<string> {
  const id = nextId();
  await db.query(
    `insert into sys_user (id, tenant_id, account, password, name, real_name, role_id, status)
     values ($1, $2, $3, $4, $3, $3, $5, $6)`,
    [
      id,
      options.tenantId,
      options.account,
      await hashPassword(md5Hex(options.password)),
      options.roleIds.join(","),
      options.status ?? 1,
    ],
  );
  return id;
}

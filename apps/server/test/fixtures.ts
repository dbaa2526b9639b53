import type { Db } from "../src/db/client.ts";
import { nextId } from "../src/db/ids.ts";
import { hashPassword, md5Hex } from "../src/modules/auth/password.ts";
import type { TestServer } from "./helpers.ts";

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

/** A provisioned tenant with its admin signed in, and the ids its users need. */
export async function provisionTenant(server: TestServer, admin: string, name: string, accountNumber = 50) {
  const tenant = (
    await server.call("POST", "/api/blade-system/tenant/submit", admin, {
      tenantName: name,
      accountNumber,
    })
  ).json().data;
  const token = (await server.login("admin", tenant.password, tenant.tenantId)).access_token;
  const [role] = await server.db.query<{ id: string }>("select id from sys_role where tenant_id = $1", [
    tenant.tenantId,
  ]);
  const [dept] = await server.db.query<{ id: string }>("select id from sys_dept where tenant_id = $1", [
    tenant.tenantId,
  ]);
  return { tenantId: tenant.tenantId as string, token, roleId: role!.id, deptId: dept!.id };
}

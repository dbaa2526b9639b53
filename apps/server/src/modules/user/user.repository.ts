import type { UserInfo } from "@meterline/contracts";
import { formatDateTime } from "../../contract/dates.ts";
import type { Queryable } from "../../db/client.ts";
import type { CurrentUser } from "../auth/current-user.ts";

interface InfoRow {
  id: string;
  tenant_id: string;
  tenant_name: string | null;
  expire_time: Date | null;
  account: string;
  name: string | null;
  real_name: string | null;
  avatar: string | null;
  role_id: string;
  dept_id: string;
  post_id: string;
  email: string | null;
  phone: string | null;
}

export class UserRepository {
  constructor(private readonly db: Queryable) {}

  /** The caller's profile with the tenant facts the console's expiry notice needs. */
  async info(user: CurrentUser): Promise<UserInfo | undefined> {
    const rows = await this.db.query<InfoRow>(
      `select u.id, u.tenant_id, t.tenant_name, t.expire_time, u.account, u.name, u.real_name, u.avatar,
              u.role_id, u.dept_id, u.post_id, u.email, u.phone
         from sys_user u left join sys_tenant t on t.tenant_id = u.tenant_id and t.is_deleted = 0
        where u.id = $1 and u.tenant_id = $2 and u.is_deleted = 0`,
      [user.userId, user.tenantId],
    );
    const row = rows[0];
    if (!row) return undefined;
    return {
      userId: row.id,
      tenantId: row.tenant_id,
      tenantName: row.tenant_name ?? "",
      tenantExpireTime: row.expire_time ? formatDateTime(row.expire_time) : "",
      account: row.account,
      userName: row.real_name || row.name || row.account,
      realName: row.real_name ?? "",
      nickName: row.name ?? "",
      avatar: row.avatar ?? "",
      roleId: row.role_id,
      roleName: user.roleAliases.join(","),
      deptId: row.dept_id,
      postId: row.post_id,
      email: row.email ?? "",
      phone: row.phone ?? "",
    };
  }

  async tenantExists(tenantId: string): Promise<boolean> {
    const rows = await this.db.query("select 1 from sys_tenant where tenant_id = $1 and is_deleted = 0", [
      tenantId,
    ]);
    return rows.length > 0;
  }

  async accountTaken(tenantId: string, account: string): Promise<boolean> {
    const rows = await this.db.query(
      "select 1 from sys_user where tenant_id = $1 and account = $2 and is_deleted = 0",
      [tenantId, account],
    );
    return rows.length > 0;
  }

  /** An unbound third-party identity; binding it is what register-guest does. */
  async unboundOauth(oauthId: string): Promise<{ id: string; avatar: string | null } | undefined> {
    const rows = await this.db.query<{ id: string; avatar: string | null }>(
      "select id, avatar from sys_user_oauth where id = $1 and user_id is null",
      [oauthId],
    );
    return rows[0];
  }

  /**
   * A pending registration: a user with no role, dept or post, who cannot sign in until an
   * administrator grants a role.
   */
  async insertGuest(row: {
    id: string;
    tenantId: string;
    account: string;
    name: string;
    passwordHash: string;
    avatar: string | null;
    oauthId: string;
  }): Promise<void> {
    await this.db.query(
      `insert into sys_user (id, tenant_id, account, password, name, real_name, avatar, role_id, dept_id, post_id)
       values ($1, $2, $3, $4, $5, $5, $6, '-1', '-1', '-1')`,
      [row.id, row.tenantId, row.account, row.passwordHash, row.name, row.avatar],
    );
    await this.db.query("update sys_user_oauth set user_id = $1, tenant_id = $2 where id = $3", [
      row.id,
      row.tenantId,
      row.oauthId,
    ]);
  }
}

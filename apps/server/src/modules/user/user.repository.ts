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
}

import type { RegistrationRow } from "@meterline/contracts";
import { formatDateTime } from "../../contract/dates.ts";
import { ApiError, badRequest, notFound } from "../../contract/errors.ts";
import type { Db, Queryable } from "../../db/client.ts";
import { nextId } from "../../db/ids.ts";
import type { CurrentUser } from "../auth/current-user.ts";
import { asMd5, hashPassword } from "../auth/password.ts";
import { UserService } from "../user/user.service.ts";
import { type RegistrationRecord, SocialRepository } from "./social.repository.ts";

export const REGISTERED_MESSAGE = "注册申请已提交,请耐心等待管理员审核";
const BAD_TENANT = "租户信息错误!";
const BAD_OAUTH = "第三方登陆信息错误!";
/** Applications one address may send per window: enough for a family or an office, not for a bot. */
const APPLICATIONS_PER_WINDOW = 5;
const WINDOW_SECONDS = 60 * 60;
const EMAIL = /^[^@\s]{1,64}@[^@\s]{1,180}$/;

export interface Application {
  tenantId: string;
  name: string;
  account: string;
  password: string;
  oauthId: string;
  address: string;
}

/**
 * Guest registration (contract §5.9, hardened): the caller proves the identity with its guest
 * token, the identity must be of the tenant and unbound, and the result is an application an
 * administrator of the tenant approves (creating the user and binding the identity) or rejects.
 */
export class RegistrationService {
  constructor(
    private readonly db: Db,
    private readonly timeZone: string,
  ) {}

  async apply(application: Application, guest: { tenantId: string; oauthId: string } | undefined) {
    const { tenantId, oauthId, account, name } = application;
    if (account.length > 45) throw badRequest("account: 账号长度不能超过45个字符");
    if (name.length > 20) throw badRequest("name: 姓名长度不能超过20个字符");
    const passwordHash = await hashPassword(asMd5(application.password));
    await this.db.transaction(async (tx) => {
      const repo = new SocialRepository(tx);
      const [tenant] = await tx.query("select 1 from sys_tenant where tenant_id = $1 and is_deleted = 0", [
        tenantId,
      ]);
      if (!tenant) throw badRequest(BAD_TENANT);
      // The guest token names the identity it proved: nobody registers another person's.
      if (guest?.oauthId !== oauthId || guest.tenantId !== tenantId) throw badRequest(BAD_OAUTH);
      const identity = await repo.identity(oauthId);
      if (!identity || identity.user_id || identity.tenant_id !== tenantId) throw badRequest(BAD_OAUTH);
      if (await repo.hasPendingApplication(oauthId)) throw badRequest(BAD_OAUTH);
      if ((await repo.recentApplications(application.address, WINDOW_SECONDS)) >= APPLICATIONS_PER_WINDOW) {
        throw new ApiError(429, "注册申请过于频繁,请稍后再试");
      }
      if (await this.accountTaken(tx, repo, tenantId, account)) {
        throw badRequest(`当前用户 [${account}] 已存在!`);
      }
      await repo.insertApplication({
        id: nextId(),
        tenantId,
        oauthId,
        account,
        name,
        passwordHash,
        address: application.address,
      });
    });
  }

  private async accountTaken(tx: Queryable, repo: SocialRepository, tenantId: string, account: string) {
    const rows = await tx.query(
      "select 1 from sys_user where tenant_id = $1 and account = $2 and is_deleted = 0",
      [tenantId, account],
    );
    return rows.length > 0 || (await repo.pendingAccount(tenantId, account));
  }

  async list(caller: CurrentUser, status: number | undefined, size: number, offset: number) {
    const { rows, total } = await new SocialRepository(this.db).applications(
      caller.tenantId,
      status,
      size,
      offset,
    );
    return { rows: rows.map((row) => this.toRow(row)), total };
  }

  private toRow(row: RegistrationRecord): RegistrationRow {
    return {
      id: String(row.id),
      tenantId: row.tenant_id,
      account: row.account,
      name: row.name,
      status: row.status,
      reason: row.reason ?? "",
      source: row.source,
      providerUsername: row.username ?? "",
      providerName: row.nickname ?? "",
      email: row.email ?? "",
      avatar: row.avatar ?? "",
      createTime: formatDateTime(new Date(row.create_time), this.timeZone),
    };
  }

  /** Creates the user with the role and department chosen, and binds the identity to it. */
  async approve(caller: CurrentUser, id: string, roleId: string, deptId: string): Promise<string> {
    return this.db.transaction(async (tx) => {
      const repo = new SocialRepository(tx);
      const application = await repo.pendingForReview(id, caller.tenantId);
      if (!application) throw notFound("id: 注册申请不存在或已处理");
      const users = new UserService(tx, this.timeZone);
      // The user's own rules hold: quota, unique account, role and dept of this tenant.
      const userId = await users.create(
        caller,
        {
          account: application.account,
          name: application.name,
          realName: application.name,
          userType: 1,
          roleId,
          deptId,
          // The provider's e-mail is kept where it fits the user's field; its picture lives on another
          // site, which the console does not load, so the user starts with the default avatar.
          email: EMAIL.test(application.email ?? "") ? application.email : "",
        },
        application.password,
      );
      if (!(await repo.bindIdentity(application.oauth_id, userId, caller.tenantId))) {
        throw badRequest(BAD_OAUTH);
      }
      await repo.closeApplication({ id, status: 1, reason: null, userId, reviewUser: caller.userId });
      return userId;
    });
  }

  async reject(caller: CurrentUser, id: string, reason: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      const repo = new SocialRepository(tx);
      const application = await repo.pendingForReview(id, caller.tenantId);
      if (!application) throw notFound("id: 注册申请不存在或已处理");
      await repo.closeApplication({ id, status: 2, reason, userId: null, reviewUser: caller.userId });
    });
  }
}

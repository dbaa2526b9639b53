import { PLATFORM_TENANT_ID, resources } from "@meterline/contracts";
import { badRequest, forbidden, notFound } from "../../contract/errors.ts";
import { type Column, columnByName } from "../../crud/columns.ts";
import { NOT_FOUND_MESSAGE } from "../../crud/context.ts";
import { assertDictionaryValues } from "../../crud/dictionary-check.ts";
import { readInput } from "../../crud/input.ts";
import { visibleRows } from "../../crud/scope.ts";
import { SqlParams } from "../../crud/sql.ts";
import { ResourceStore } from "../../crud/store.ts";
import type { Queryable } from "../../db/client.ts";
import { type CurrentUser, csv, isAdministrator } from "../auth/current-user.ts";
import { asMd5, hashPassword, verifyPassword } from "../auth/password.ts";
import { SignInThrottle } from "../auth/sign-in-throttle.ts";
import { initialPassword } from "./initial-password.ts";
import { assertPlatformAdministratorRemains } from "./platform-administrator.ts";

const def = resources.user;
/** sys_user.status of a user who may sign in (dict user_status); anything else is disabled. */
const ENABLED = 1;

export type ScopeFilter = (sql: SqlParams, alias: string) => string | undefined;
const column = (name: string) => columnByName(def, name)!;
/** Only changes to platform users can leave the platform without its administrator. */
const onPlatform = (user: { tenant_id: string }) => user.tenant_id === PLATFORM_TENANT_ID;

/** The rules of user accounts (contract §10.1): quota, unique account, hashed passwords, own tenant. */
export class UserService {
  private readonly store: ResourceStore;
  constructor(
    private readonly db: Queryable,
    private readonly timeZone: string,
    /** The caller's data scope on users as a predicate, so writes reach only rows the caller can list. */
    private readonly scope: ScopeFilter = () => undefined,
  ) {
    this.store = new ResourceStore(db, def);
  }

  /** Users among `ids` the caller may act on; any other id fails the whole call. */
  async visible(
    caller: CurrentUser,
    ids: string[],
  ): Promise<{ id: string; tenant_id: string; account: string }[]> {
    const sql = new SqlParams();
    const conditions = [
      `id = any(${sql.bind(ids)}::bigint[])`,
      ...visibleRows(def, caller, sql, { alias: "sys_user" }),
    ];
    const scoped = this.scope(sql, "sys_user");
    if (scoped) conditions.push(scoped);
    const rows = await this.db.query<{ id: string; tenant_id: string; account: string }>(
      `select id, tenant_id, account from sys_user where ${conditions.join(" and ")}`,
      sql.values,
    );
    if (rows.length !== new Set(ids).size) throw notFound(NOT_FOUND_MESSAGE);
    return rows;
  }

  /** Roles, depts and posts named on a user must exist in the user's tenant. */
  private async assertLinks(values: Map<Column, unknown>, tenantId: string) {
    for (const [name, table] of [
      ["roleId", "sys_role"],
      ["deptId", "sys_dept"],
      ["postId", "sys_post"],
    ] as const) {
      const ids = csv(values.get(column(name)) as string | undefined);
      if (ids.length === 0) continue;
      const found = await this.db.query(
        `select 1 from ${table} where id = any($1::bigint[]) and tenant_id = $2 and is_deleted = 0`,
        [ids, tenantId],
      );
      if (found.length !== new Set(ids).size) throw badRequest(`${name}: 所选项不存在或不属于该租户`);
    }
  }

  private async assertAccountFree(tenantId: string, account: string, exceptId?: string) {
    const rows = await this.db.query(
      "select 1 from sys_user where tenant_id = $1 and account = $2 and is_deleted = 0 and id <> $3",
      [tenantId, account, exceptId ?? "0"],
    );
    if (rows.length > 0) throw badRequest(`当前用户 [${account}] 已存在!`);
  }

  /** `passwordHash` stands in for the body's password when many users get the same initial one. */
  async create(caller: CurrentUser, body: Record<string, unknown>, passwordHash?: string): Promise<string> {
    const values = readInput(def, body, "create", this.timeZone);
    const asked = typeof body.tenantId === "string" && body.tenantId ? body.tenantId : undefined;
    const tenantId = isAdministrator(caller) && asked ? asked : caller.tenantId;
    const password = values.get(column("password"));
    if (!passwordHash && (typeof password !== "string" || password === ""))
      throw badRequest("password: 不能为空");
    values.set(column("password"), passwordHash ?? (await hashPassword(asMd5(String(password)))));
    const [tenant] = await this.db.query<{ account_number: number }>(
      "select account_number from sys_tenant where tenant_id = $1 and is_deleted = 0",
      [tenantId],
    );
    if (!tenant) throw badRequest(`tenantId: 租户 [${tenantId}] 不存在`);
    if (tenantId !== PLATFORM_TENANT_ID && tenant.account_number > 0) {
      const [{ n } = { n: "0" }] = await this.db.query<{ n: string }>(
        "select count(*) as n from sys_user where tenant_id = $1 and is_deleted = 0",
        [tenantId],
      );
      if (Number(n) >= tenant.account_number) throw badRequest("当前租户已到最大账号额度!");
    }
    await this.assertAccountFree(tenantId, String(values.get(column("account"))));
    await this.assertLinks(values, tenantId);
    await assertDictionaryValues(this.db, values, tenantId);
    return this.store.insert(values, caller, tenantId);
  }

  /** Updates a user's profile and links; the password never changes here. */
  async update(caller: CurrentUser, id: string, body: Record<string, unknown>): Promise<void> {
    const [target] = await this.visible(caller, [id]);
    const values = readInput(def, body, "update", this.timeZone);
    values.delete(column("password"));
    const status = values.get(column("status"));
    const disabling = status !== undefined && Number(status) !== ENABLED;
    if (disabling && id === caller.userId) throw forbidden("不能禁用本账号!");
    await this.assertLinks(values, target!.tenant_id);
    await assertDictionaryValues(this.db, values, target!.tenant_id);
    await this.store.update(id, values, caller, (s) => visibleRows(def, caller, s));
    const powersChanged = values.has(column("roleId")) || disabling;
    if (powersChanged && target!.tenant_id === PLATFORM_TENANT_ID) {
      await assertPlatformAdministratorRemains(this.db);
    }
    // Sessions end with the commit, in every process: the token rows' change is announced to all
    // of them (LISTEN/NOTIFY), and re-enabling the user later does not bring these sessions back.
    if (disabling) await this.revokeSessions([id]);
  }

  async remove(caller: CurrentUser, ids: string[]): Promise<void> {
    if (ids.includes(caller.userId)) throw forbidden("不能删除本账号!");
    const users = await this.visible(caller, ids);
    await this.store.remove(ids, caller);
    if (users.some(onPlatform)) await assertPlatformAdministratorRemains(this.db);
    await this.revokeSessions(ids);
  }

  async grant(caller: CurrentUser, userIds: string[], roleIds: string[]): Promise<void> {
    const users = await this.visible(caller, userIds);
    for (const tenantId of new Set(users.map((u) => u.tenant_id))) {
      await this.assertLinks(new Map([[column("roleId"), roleIds.join(",")]]), tenantId);
    }
    await this.db.query(
      "update sys_user set role_id = $2, update_time = now() where id = any($1::bigint[])",
      [userIds, roleIds.join(",")],
    );
    if (users.some(onPlatform)) await assertPlatformAdministratorRemains(this.db);
    // Roles are read from the token: sign the users out so their next session carries the new ones.
    await this.revokeSessions(userIds);
  }

  async resetPassword(caller: CurrentUser, userIds: string[], production = false): Promise<void> {
    const users = await this.visible(caller, userIds);
    // Each tenant's users get that tenant's initial password (the platform administrator may reset several tenants').
    for (const tenantId of new Set(users.map((u) => u.tenant_id))) {
      const hash = await hashPassword(asMd5(await initialPassword(this.db, tenantId, production)));
      const ids = users.filter((u) => u.tenant_id === tenantId).map((u) => u.id);
      await this.db.query(
        "update sys_user set password = $2, update_time = now() where id = any($1::bigint[])",
        [ids, hash],
      );
    }
    await this.revokeSessions(userIds);
  }

  async updatePassword(caller: CurrentUser, oldPassword: string, newPassword: string, confirm: string) {
    if (newPassword !== confirm) throw badRequest("请输入正确的确认密码!");
    const [row] = await this.db.query<{ password: string }>("select password from sys_user where id = $1", [
      caller.userId,
    ]);
    if (!row || !(await verifyPassword(asMd5(oldPassword), row.password))) throw badRequest("原密码不正确!");
    await this.db.query("update sys_user set password = $2, update_time = now() where id = $1", [
      caller.userId,
      await hashPassword(asMd5(newPassword)),
    ]);
    // Whoever knew the old password is signed out everywhere; the console that changed it stays in.
    await this.db.query(
      `update auth_token set revoked_at = now()
        where user_id = $1 and session_id <> $2 and revoked_at is null`,
      [caller.userId, caller.sessionId],
    );
  }

  /** The caller's own profile: only these fields, whatever else the body carries. */
  async updateInfo(caller: CurrentUser, body: Record<string, unknown>): Promise<void> {
    const own = ["name", "realName", "avatar", "email", "phone", "birthday", "sex"];
    const picked = Object.fromEntries(Object.entries(body).filter(([key]) => own.includes(key)));
    const values = readInput(def, picked, "update", this.timeZone);
    await assertDictionaryValues(this.db, values, caller.tenantId);
    await this.store.update(caller.userId, values, caller, (s) => [
      `t.tenant_id = ${s.bind(caller.tenantId)}`,
    ]);
  }

  async unlock(caller: CurrentUser, userIds: string[]): Promise<void> {
    const users = await this.visible(caller, userIds);
    const throttle = new SignInThrottle(this.db);
    for (const u of users) await throttle.unlock(u.tenant_id, u.account);
  }

  private async revokeSessions(userIds: string[]) {
    await this.db.query(
      "update auth_token set revoked_at = now() where user_id = any($1::bigint[]) and revoked_at is null",
      [userIds],
    );
  }
}

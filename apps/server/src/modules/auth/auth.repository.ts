import { PLATFORM_TENANT_ID } from "@meterline/contracts";
import { cachedRead } from "../../cache/shared-cache.ts";
import type { Queryable } from "../../db/client.ts";

export interface ClientRow {
  client_id: string;
  client_secret: string;
  authorized_grant_types: string;
  access_token_validity: number;
  refresh_token_validity: number;
}

export interface TenantRow {
  tenant_id: string;
  tenant_name: string;
  expire_time: Date | null;
  status: number;
}

export interface UserRow {
  id: string;
  tenant_id: string;
  account: string;
  password: string;
  name: string | null;
  real_name: string | null;
  avatar: string | null;
  email: string | null;
  phone: string | null;
  role_id: string;
  dept_id: string;
  post_id: string;
  user_type: number;
  status: number;
}

export interface TokenRow {
  jti: string;
  session_id: string;
  kind: "access" | "refresh";
  user_id: string;
  revoked_at: Date | null;
}

/** The session behind an access token, with the user, roles and tenant as they are now. */
export interface LiveSessionRow {
  session_id: string;
  user_id: string;
  tenant_id: string;
  account: string;
  real_name: string | null;
  dept_id: string;
  post_id: string;
  role_ids: string[];
  role_aliases: string[];
  /** When the answer stops being true by itself: the token's expiry or the tenant's, the earlier. */
  valid_until: Date;
}

/** A CSV id column as a bigint array; anything that is not an id (blank, -1) is left out. */
const idArray = (column: string) =>
  `array(select trim(x)::bigint from unnest(string_to_array(${column}, ',')) x where trim(x) ~ '^[0-9]{1,18}$')`;

const USER_COLUMNS =
  "id, tenant_id, account, password, name, real_name, avatar, email, phone, role_id, dept_id, post_id, user_type, status";

/** The SQL of sign-in: clients, tenants, users, roles, tokens and captchas. */
export class AuthRepository {
  constructor(private readonly db: Queryable) {}

  async client(clientId: string): Promise<ClientRow | undefined> {
    const rows = await this.db.query<ClientRow>(
      `select client_id, client_secret, authorized_grant_types, access_token_validity, refresh_token_validity
         from sys_client where client_id = $1 and is_deleted = 0 and status = 1`,
      [clientId],
    );
    return rows[0];
  }

  async tenant(tenantId: string): Promise<TenantRow | undefined> {
    const rows = await this.db.query<TenantRow>(
      "select tenant_id, tenant_name, expire_time, status from sys_tenant where tenant_id = $1 and is_deleted = 0",
      [tenantId],
    );
    return rows[0];
  }

  async userByAccount(tenantId: string, account: string): Promise<UserRow | undefined> {
    const rows = await this.db.query<UserRow>(
      `select ${USER_COLUMNS} from sys_user where tenant_id = $1 and account = $2 and is_deleted = 0`,
      [tenantId, account],
    );
    return rows[0];
  }

  async userById(id: string): Promise<UserRow | undefined> {
    const rows = await this.db.query<UserRow>(
      `select ${USER_COLUMNS} from sys_user where id = $1 and is_deleted = 0`,
      [id],
    );
    return rows[0];
  }

  /** Aliases of the user's roles that still exist in the user's tenant, in role-id order. */
  async roleAliases(tenantId: string, roleIds: string[]): Promise<string[]> {
    if (roleIds.length === 0) return [];
    const rows = await this.db.query<{ role_alias: string }>(
      `select role_alias from sys_role
        where tenant_id = $1 and is_deleted = 0 and id = any($2::bigint[]) order by id`,
      [tenantId, roleIds],
    );
    return rows.map((r) => r.role_alias);
  }

  async param(key: string): Promise<string | undefined> {
    const rows = await this.db.query<{ param_value: string }>(
      "select param_value from sys_param where param_key = $1 and tenant_id = '000000' and is_deleted = 0",
      [key],
    );
    return rows[0]?.param_value;
  }

  async insertToken(row: {
    jti: string;
    sessionId: string;
    kind: "access" | "refresh";
    userId: string;
    tenantId: string;
    clientId: string;
    expiresAt: Date;
  }): Promise<void> {
    await this.db.query(
      `insert into auth_token (jti, session_id, kind, user_id, tenant_id, client_id, expires_at)
       values ($1, $2, $3, $4, $5, $6, $7)`,
      [row.jti, row.sessionId, row.kind, row.userId, row.tenantId, row.clientId, row.expiresAt],
    );
  }

  async token(jti: string): Promise<TokenRow | undefined> {
    const rows = await this.db.query<TokenRow>(
      "select jti, session_id, kind, user_id, revoked_at from auth_token where jti = $1 and expires_at > now()",
      [jti],
    );
    return rows[0];
  }

  /**
   * One round trip, and none while cached: the token must be live and unrevoked, its user present
   * and active, the tenant present, active and (but for the platform) unexpired. Roles and depts are
   * read from the user as they are now; any change to tokens, users, roles or tenants is announced
   * and drops the cached answers, so a revocation, demotion, move or lock counts from the next
   * request on, in every process.
   */
  liveSession(jti: string): Promise<LiveSessionRow | undefined> {
    return cachedRead(
      this.db,
      "session",
      jti,
      async () => {
        const rows = await this.db.query<LiveSessionRow>(
          `select t.session_id, u.id as user_id, u.tenant_id, u.account, u.real_name, u.dept_id, u.post_id,
                  array(select r.id::text from sys_role r
                         where r.id = any(${idArray("u.role_id")}) and r.tenant_id = u.tenant_id and r.is_deleted = 0
                         order by r.id) as role_ids,
                  array(select r.role_alias from sys_role r
                         where r.id = any(${idArray("u.role_id")}) and r.tenant_id = u.tenant_id and r.is_deleted = 0
                         order by r.id) as role_aliases,
                  least(t.expires_at, case when n.tenant_id = $2 then null else n.expire_time end) as valid_until
             from auth_token t
             join sys_user u on u.id = t.user_id and u.tenant_id = t.tenant_id and u.is_deleted = 0 and u.status = 1
             join sys_tenant n on n.tenant_id = u.tenant_id and n.is_deleted = 0 and n.status = 1
            where t.jti = $1 and t.kind = 'access' and t.revoked_at is null and t.expires_at > now()
              and (n.tenant_id = $2 or n.expire_time is null or n.expire_time > now())`,
          [jti, PLATFORM_TENANT_ID],
        );
        return rows[0];
      },
      (row) => (row ? new Date(row.valid_until).getTime() : Number.POSITIVE_INFINITY),
    );
  }

  /** Marks a refresh token used; false when someone else used it first. */
  async consumeToken(jti: string): Promise<boolean> {
    const rows = await this.db.query(
      "update auth_token set revoked_at = now() where jti = $1 and revoked_at is null returning jti",
      [jti],
    );
    return rows.length === 1;
  }

  async revokeSession(sessionId: string): Promise<void> {
    await this.db.query(
      "update auth_token set revoked_at = now() where session_id = $1 and revoked_at is null",
      [sessionId],
    );
  }

  async purgeExpired(): Promise<void> {
    await this.db.query("delete from auth_token where expires_at < now() - interval '1 day'");
    await this.db.query("delete from auth_captcha where expires_at < now()");
  }

  async insertCaptcha(key: string, code: string, ttlSeconds: number): Promise<void> {
    await this.db.query(
      "insert into auth_captcha (captcha_key, code, expires_at) values ($1, $2, now() + make_interval(secs => $3))",
      [key, code, ttlSeconds],
    );
  }

  /** Takes a captcha code out of the store: each code answers once. */
  async takeCaptcha(key: string): Promise<string | undefined> {
    const rows = await this.db.query<{ code: string }>(
      "delete from auth_captcha where captcha_key = $1 returning code, expires_at > now() as live",
      [key],
    );
    const row = rows[0] as { code: string; live?: boolean } | undefined;
    return row?.live ? row.code : undefined;
  }
}

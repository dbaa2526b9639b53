import type { Queryable } from "../../db/client.ts";

export interface ProviderRow {
  id: string;
  tenant_id: string;
  source: string;
  display_name: string;
  icon: string | null;
  client_id: string;
  client_secret: string;
  issuer: string | null;
  scopes: string | null;
  redirect_uri: string;
  enabled: number;
  join_by_email: number;
}

export interface StateRow {
  state: string;
  tenant_id: string;
  provider_id: string;
  source: string;
  code_verifier: string;
  nonce: string;
  browser_hash: string;
  link_user_id: string | null;
  live: boolean;
}

export interface IdentityRow {
  id: string;
  tenant_id: string;
  source: string;
  uuid: string;
  user_id: string | null;
  username: string | null;
  nickname: string | null;
  email: string | null;
  avatar: string | null;
}

export interface RegistrationRecord {
  id: string;
  tenant_id: string;
  oauth_id: string;
  account: string;
  name: string;
  password: string;
  status: number;
  reason: string | null;
  source: string;
  username: string | null;
  nickname: string | null;
  email: string | null;
  avatar: string | null;
  create_time: Date;
}

const PROVIDER_COLUMNS =
  "id, tenant_id, source, display_name, icon, client_id, client_secret, issuer, scopes, redirect_uri, enabled, join_by_email";

/** The SQL of third-party sign-in: providers, pending states, identities and applications. */
export class SocialRepository {
  constructor(private readonly db: Queryable) {}

  /** One per source: the first enabled row of each, as sign-in uses it. */
  async enabledProviders(tenantId: string): Promise<ProviderRow[]> {
    return this.db.query<ProviderRow>(
      `select distinct on (source) ${PROVIDER_COLUMNS} from blade_social_provider
        where tenant_id = $1 and is_deleted = 0 and enabled = 1 order by source, id`,
      [tenantId],
    );
  }

  /** The tenant's enabled provider of a source; a disabled or removed one is not found. */
  async enabledProvider(tenantId: string, source: string): Promise<ProviderRow | undefined> {
    const rows = await this.db.query<ProviderRow>(
      `select ${PROVIDER_COLUMNS} from blade_social_provider
        where tenant_id = $1 and source = $2 and is_deleted = 0 and enabled = 1 order by id limit 1`,
      [tenantId, source],
    );
    return rows[0];
  }

  async providerById(id: string): Promise<ProviderRow | undefined> {
    const rows = await this.db.query<ProviderRow>(
      `select ${PROVIDER_COLUMNS} from blade_social_provider where id = $1 and is_deleted = 0`,
      [id],
    );
    return rows[0];
  }

  async insertState(row: Omit<StateRow, "live">, ttlSeconds: number): Promise<void> {
    await this.db.query(
      `insert into social_sign_in_state
         (state, tenant_id, provider_id, source, code_verifier, nonce, browser_hash, link_user_id, expires_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, now() + make_interval(secs => $9))`,
      [
        row.state,
        row.tenant_id,
        row.provider_id,
        row.source,
        row.code_verifier,
        row.nonce,
        row.browser_hash,
        row.link_user_id,
        ttlSeconds,
      ],
    );
  }

  /** Takes a state out of the store: each answers once, whatever comes of it. */
  async takeState(state: string): Promise<StateRow | undefined> {
    const rows = await this.db.query<StateRow>(
      `delete from social_sign_in_state where state = $1
       returning state, tenant_id, provider_id, source, code_verifier, nonce, browser_hash, link_user_id,
                 expires_at > now() as live`,
      [state],
    );
    return rows[0];
  }

  /** Where a pending sign-in is heading, without using it up (the callback's redirect). */
  async peekState(state: string): Promise<{ tenant_id: string; link_user_id: string | null } | undefined> {
    const rows = await this.db.query<{ tenant_id: string; link_user_id: string | null }>(
      "select tenant_id, link_user_id from social_sign_in_state where state = $1 and expires_at > now()",
      [state],
    );
    return rows[0];
  }

  async purgeStates(): Promise<void> {
    await this.db.query("delete from social_sign_in_state where expires_at < now()");
  }

  /** The identity of a person at a source in a tenant, created on first sight, refreshed after. */
  async upsertIdentity(row: {
    id: string;
    tenantId: string;
    providerId: string;
    source: string;
    uuid: string;
    username: string;
    nickname: string;
    email: string;
    emailVerified: boolean;
    avatar: string;
  }): Promise<IdentityRow> {
    const rows = await this.db.query<IdentityRow>(
      `insert into sys_user_oauth (id, tenant_id, provider_id, source, uuid, username, nickname, email, email_verified, avatar)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
       on conflict (tenant_id, source, uuid) do update
          set provider_id = excluded.provider_id, username = excluded.username, nickname = excluded.nickname,
              email = excluded.email, email_verified = excluded.email_verified, avatar = excluded.avatar
       returning id, tenant_id, source, uuid, user_id, username, nickname, email, avatar`,
      [
        row.id,
        row.tenantId,
        row.providerId,
        row.source,
        row.uuid,
        row.username.slice(0, 255),
        row.nickname.slice(0, 255),
        row.email.slice(0, 255),
        row.emailVerified ? 1 : 0,
        row.avatar.slice(0, 1000),
      ],
    );
    return rows[0]!;
  }

  async identity(id: string): Promise<IdentityRow | undefined> {
    const rows = await this.db.query<IdentityRow>(
      "select id, tenant_id, source, uuid, user_id, username, nickname, email, avatar from sys_user_oauth where id = $1",
      [id],
    );
    return rows[0];
  }

  /** Binds an unbound identity; false when someone bound it first. */
  async bindIdentity(oauthId: string, userId: string, tenantId: string): Promise<boolean> {
    const rows = await this.db.query(
      "update sys_user_oauth set user_id = $1 where id = $2 and tenant_id = $3 and user_id is null returning id",
      [userId, oauthId, tenantId],
    );
    return rows.length === 1;
  }

  /** The identities bound to a user, oldest first. */
  async identitiesOf(userId: string, tenantId: string): Promise<(IdentityRow & { create_time: Date })[]> {
    return this.db.query<IdentityRow & { create_time: Date }>(
      `select id, tenant_id, source, uuid, user_id, username, nickname, email, avatar, create_time
         from sys_user_oauth where user_id = $1 and tenant_id = $2 order by create_time, id`,
      [userId, tenantId],
    );
  }

  /** Whether the user can sign in with a password (the other way in besides identities). */
  async hasPassword(userId: string): Promise<boolean> {
    const rows = await this.db.query(
      "select 1 from sys_user where id = $1 and coalesce(password, '') <> ''",
      [userId],
    );
    return rows.length > 0;
  }

  /** Unbinds one of the user's identities; false when it is not theirs. */
  async unbindIdentity(oauthId: string, userId: string, tenantId: string): Promise<boolean> {
    const rows = await this.db.query(
      "update sys_user_oauth set user_id = null where id = $1 and user_id = $2 and tenant_id = $3 returning id",
      [oauthId, userId, tenantId],
    );
    return rows.length === 1;
  }

  /** The one active user of the tenant with this e-mail, if exactly one has it. */
  async userIdByEmail(tenantId: string, email: string): Promise<string | undefined> {
    const rows = await this.db.query<{ id: string }>(
      "select id from sys_user where tenant_id = $1 and lower(email) = lower($2) and is_deleted = 0 limit 2",
      [tenantId, email],
    );
    return rows.length === 1 ? rows[0]!.id : undefined;
  }

  async recentApplications(address: string, withinSeconds: number): Promise<number> {
    const [row] = await this.db.query<{ n: string }>(
      `select count(*) as n from sys_user_registration
        where address = $1 and create_time > now() - make_interval(secs => $2)`,
      [address, withinSeconds],
    );
    return Number(row?.n ?? 0);
  }

  async hasPendingApplication(oauthId: string): Promise<boolean> {
    const rows = await this.db.query(
      "select 1 from sys_user_registration where oauth_id = $1 and status = 0",
      [oauthId],
    );
    return rows.length > 0;
  }

  async pendingAccount(tenantId: string, account: string): Promise<boolean> {
    const rows = await this.db.query(
      "select 1 from sys_user_registration where tenant_id = $1 and account = $2 and status = 0",
      [tenantId, account],
    );
    return rows.length > 0;
  }

  async insertApplication(row: {
    id: string;
    tenantId: string;
    oauthId: string;
    account: string;
    name: string;
    passwordHash: string;
    address: string;
  }): Promise<void> {
    await this.db.query(
      `insert into sys_user_registration (id, tenant_id, oauth_id, account, name, password, address)
       values ($1, $2, $3, $4, $5, $6, $7)`,
      [row.id, row.tenantId, row.oauthId, row.account, row.name, row.passwordHash, row.address],
    );
  }

  private readonly applicationSelect = `
    select r.id, r.tenant_id, r.oauth_id, r.account, r.name, r.password, r.status, r.reason, r.create_time,
           o.source, o.username, o.nickname, o.email, o.avatar
      from sys_user_registration r join sys_user_oauth o on o.id = r.oauth_id`;

  async applications(
    tenantId: string,
    status: number | undefined,
    limit: number,
    offset: number,
  ): Promise<{ rows: RegistrationRecord[]; total: number }> {
    const filter = "r.tenant_id = $1 and ($2::integer is null or r.status = $2)";
    const rows = await this.db.query<RegistrationRecord>(
      `${this.applicationSelect} where ${filter} order by r.status, r.create_time desc, r.id desc limit $3 offset $4`,
      [tenantId, status ?? null, limit, offset],
    );
    const [count] = await this.db.query<{ n: string }>(
      `select count(*) as n from sys_user_registration r where ${filter}`,
      [tenantId, status ?? null],
    );
    return { rows, total: Number(count?.n ?? 0) };
  }

  /** A pending application of the tenant, locked for its review. */
  async pendingForReview(id: string, tenantId: string): Promise<RegistrationRecord | undefined> {
    const rows = await this.db.query<RegistrationRecord>(
      `${this.applicationSelect} where r.id = $1 and r.tenant_id = $2 and r.status = 0 for update of r`,
      [id, tenantId],
    );
    return rows[0];
  }

  async closeApplication(row: {
    id: string;
    status: 1 | 2;
    reason: string | null;
    userId: string | null;
    reviewUser: string;
  }): Promise<void> {
    await this.db.query(
      `update sys_user_registration
          set status = $2, reason = $3, user_id = $4, review_user = nullif($5, '')::bigint, review_time = now()
        where id = $1`,
      [row.id, row.status, row.reason, row.userId, row.reviewUser],
    );
  }
}

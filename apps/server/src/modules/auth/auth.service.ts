import { randomUUID } from "node:crypto";
import type { TokenResponse } from "@meterline/contracts";
import { PLATFORM_TENANT_ID } from "@meterline/contracts";
import type { Queryable } from "../../db/client.ts";
import type { AuthRepository, ClientRow, UserRow } from "./auth.repository.ts";
import { randomCaptchaText, renderCaptcha } from "./captcha-image.ts";
import { clientSecretMatches } from "./client-secret.ts";
import { type CurrentUser, csv } from "./current-user.ts";
import { signJwt, verifyJwt } from "./jwt.ts";
import { AuthMessage, OAuthError } from "./oauth-error.ts";
import { asMd5, hashPassword, md5Hex, passwordVerifier } from "./password.ts";
import { SignInLock } from "./sign-in-lock.ts";
import { accountSubject, SignInThrottle } from "./sign-in-throttle.ts";

export const CAPTCHA_TTL_SECONDS = 5 * 60;
/** The OAuth error of a sign-in that may go on only with a captcha; the console then shows one. */
export const CAPTCHA_REQUIRED = "captcha_required";
const DEFAULT_FAIL_COUNT = 5;
const LICENSE = "powered by meterline";

export interface TokenRequest {
  grantType: string;
  clientId: string;
  clientSecret: string;
  tenantId?: string;
  username?: string;
  password?: string;
  refreshToken?: string;
  captchaKey?: string;
  captchaCode?: string;
  /** The caller's network address: failures are counted and locked per address. */
  address?: string;
  /** Social grant: the provider's source, the code it returned, the state and the browser's cookie. */
  source?: string;
  socialCode?: string;
  state?: string;
  browserKey?: string;
}

/** The identity a third-party sign-in proved, bound to a user of the tenant or not yet. */
export interface SocialIdentity {
  id: string;
  tenant_id: string;
  user_id: string | null;
  username: string | null;
  nickname: string | null;
  avatar: string | null;
}

/** Finishes third-party sign-ins (the social module); absent, the social grant is refused. */
export interface SocialIdentities {
  finish(request: {
    tenantId: string;
    source: string;
    code: string;
    state: string;
    browserKey: string;
  }): Promise<SocialIdentity>;
}

/** Claims of a guest token: a third-party identity the tenant does not know yet. */
export interface GuestClaims {
  tenantId: string;
  oauthId: string;
}

/** How long a guest has to fill in the registration dialog. */
const GUEST_TOKEN_SECONDS = 30 * 60;

const denied = (description: string) => new OAuthError(400, "access_denied", description);
const invalidGrant = (description: string) => new OAuthError(400, "invalid_grant", description);

/** Sign-in, token issue, rotation and revocation, and captchas (contract §5). */
export class AuthService {
  private readonly throttle: SignInThrottle;
  private readonly lock: SignInLock;
  private dummy: Promise<string> | undefined;

  constructor(
    private readonly repo: AuthRepository,
    private readonly options: { jwtSecret: string; captchaEnabled: boolean },
    db: Queryable,
    private readonly social?: SocialIdentities,
  ) {
    this.throttle = new SignInThrottle(db);
    this.lock = new SignInLock(db);
  }

  async token(request: TokenRequest): Promise<TokenResponse> {
    const client = await this.checkClient(request);
    switch (request.grantType) {
      case "password":
      case "captcha":
        return this.passwordGrant(request, client);
      case "refresh_token":
        return this.refreshGrant(request, client);
      case "social":
        return this.socialGrant(request, client);
      default:
        throw new OAuthError(400, "unsupported_grant_type", AuthMessage.unsupportedGrant);
    }
  }

  private async checkClient(request: TokenRequest): Promise<ClientRow> {
    const client = request.clientId ? await this.repo.client(request.clientId) : undefined;
    if (!client || !clientSecretMatches(client.client_secret, request.clientSecret)) {
      throw new OAuthError(401, "invalid_client", AuthMessage.badClient);
    }
    if (!csv(client.authorized_grant_types).includes(request.grantType)) {
      throw new OAuthError(400, "unauthorized_client", AuthMessage.grantNotAllowed);
    }
    return client;
  }

  /**
   * The checks of contract §5.7, hardened: the lock counts failures per account and address, and an
   * attempt reaches the password check only with a reservation that keeps concurrent wrong guesses
   * within the limit (correct ones all get through); addresses and accounts with many failures wait; an
   * unknown account costs the same password check as a known one.
   */
  private async passwordGrant(request: TokenRequest, client: ClientRow): Promise<TokenResponse> {
    const captchaRequired = request.grantType === "captcha" || this.options.captchaEnabled;
    const captchaPassed = request.captchaKey ? await this.captchaPassed(request) : false;
    if (captchaRequired && !captchaPassed) throw denied(AuthMessage.badCaptcha);
    const tenantId = request.tenantId;
    if (!tenantId) throw denied(AuthMessage.noTenantId);
    const account = request.username ?? "";
    if (!account) throw invalidGrant(AuthMessage.missing("username"));
    const address = request.address ?? "";
    const accountKey = accountSubject(tenantId, account);
    const waiting = await this.throttle.waiting(address, accountKey);
    if (waiting.has("address")) throw denied(AuthMessage.addressThrottled);
    // Many failures from many addresses slow the account down for everyone, but a person who
    // solves a captcha still gets through: nobody can keep an administrator out that way.
    if (waiting.has("account") && !captchaPassed) {
      throw new OAuthError(400, CAPTCHA_REQUIRED, AuthMessage.captchaRequired);
    }
    await this.checkTenant(tenantId);
    const failCount = Number((await this.repo.param("account.failCount")) ?? DEFAULT_FAIL_COUNT);
    const reservation = await this.lock.reserve(tenantId, account, address, failCount);
    if (!reservation) throw denied(AuthMessage.locked);
    let user: UserRow | undefined;
    let passwordOk: boolean;
    try {
      user = await this.repo.userByAccount(tenantId, account);
      const stored = user?.password ?? (await this.dummyHash());
      passwordOk = await passwordVerifier.verify(asMd5(request.password ?? ""), stored);
    } catch (error) {
      // No verdict: the reservation is freed now rather than lapsing later.
      await this.lock.release(reservation).catch(() => undefined);
      throw error;
    }
    if (!user || !request.password || !passwordOk) {
      await this.lock.failed(reservation);
      await this.throttle.failed("address", address);
      await this.throttle.failed("account", accountKey);
      throw invalidGrant(AuthMessage.badCredentials);
    }
    await this.lock.succeeded(reservation);
    await this.throttle.succeeded(accountKey);
    return this.issue(user, client, randomUUID());
  }

  private async captchaPassed(request: TokenRequest): Promise<boolean> {
    const stored = request.captchaKey ? await this.repo.takeCaptcha(request.captchaKey) : undefined;
    return stored !== undefined && stored === (request.captchaCode ?? "").trim().toLowerCase();
  }

  /** A hash no password matches, checked for unknown accounts so they answer as slowly as known ones. */
  private dummyHash(): Promise<string> {
    this.dummy ??= hashPassword(md5Hex(randomUUID()));
    return this.dummy;
  }

  /** Rotation: each refresh token works once; a second use revokes the whole session. */
  private async refreshGrant(request: TokenRequest, client: ClientRow): Promise<TokenResponse> {
    const claims = request.refreshToken ? verifyJwt(request.refreshToken, this.options.jwtSecret) : undefined;
    if (claims?.token_type !== "refresh_token" || claims.client_id !== client.client_id) {
      throw invalidGrant(AuthMessage.badRefresh);
    }
    const row = await this.repo.token(claims.jti);
    if (row?.kind !== "refresh") throw invalidGrant(AuthMessage.badRefresh);
    if (row.revoked_at || !(await this.repo.consumeToken(row.jti))) {
      await this.repo.revokeSession(row.session_id);
      throw invalidGrant(AuthMessage.badRefresh);
    }
    // The old access token keeps working until it expires: requests already in flight must not fail.
    const user = await this.repo.userById(row.user_id);
    if (!user) throw invalidGrant(AuthMessage.badRefresh);
    await this.checkTenant(user.tenant_id);
    return this.issue(user, client, row.session_id);
  }

  /**
   * Contract §5.1 social grant: a bound identity signs in as its user with the same answer as a
   * password sign-in; an unbound one gets a guest token (no user id, role guest) that is good only
   * for registering, never for the API.
   */
  private async socialGrant(request: TokenRequest, client: ClientRow): Promise<TokenResponse> {
    if (!this.social) throw new OAuthError(400, "unsupported_grant_type", AuthMessage.socialNotConfigured);
    for (const [name, value] of [
      ["source", request.source],
      ["code", request.socialCode],
      ["state", request.state],
    ] as const) {
      if (!value) throw invalidGrant(AuthMessage.missing(name));
    }
    const tenantId = request.tenantId || PLATFORM_TENANT_ID;
    await this.checkTenant(tenantId);
    const identity = await this.social.finish({
      tenantId,
      source: request.source!,
      code: request.socialCode!,
      state: request.state!,
      browserKey: request.browserKey ?? "",
    });
    if (identity.user_id) {
      const user = await this.repo.userById(identity.user_id);
      if (user?.tenant_id !== tenantId) throw invalidGrant(AuthMessage.badCredentials);
      return this.issue(user, client, randomUUID(), identity.id);
    }
    return this.guest(identity, client);
  }

  private guest(identity: SocialIdentity, client: ClientRow): TokenResponse {
    const now = Math.floor(Date.now() / 1000);
    const jti = randomUUID();
    const account = identity.username ?? "";
    const accessToken = signJwt(
      {
        token_type: "guest",
        client_id: client.client_id,
        tenant_id: identity.tenant_id,
        oauth_id: identity.id,
        account,
        jti,
        iat: now,
        exp: now + GUEST_TOKEN_SECONDS,
      },
      this.options.jwtSecret,
    );
    return {
      access_token: accessToken,
      token_type: "bearer",
      refresh_token: "",
      expires_in: GUEST_TOKEN_SECONDS,
      scope: "all",
      tenant_id: identity.tenant_id,
      user_id: "",
      dept_id: "",
      post_id: "",
      role_id: "",
      role_name: "guest",
      account,
      user_name: account,
      userName: identity.nickname || account,
      nick_name: identity.nickname ?? "",
      real_name: "",
      avatar: identity.avatar ?? "",
      oauth_id: identity.id,
      client_id: client.client_id,
      detail: { type: "web" },
      license: LICENSE,
      jti,
    };
  }

  /** The claims of a live guest token, or undefined for anything else. */
  guestClaims(token: string): GuestClaims | undefined {
    const claims = verifyJwt(token, this.options.jwtSecret);
    if (claims?.token_type !== "guest") return undefined;
    const { tenant_id: tenantId, oauth_id: oauthId } = claims;
    return typeof tenantId === "string" && typeof oauthId === "string" ? { tenantId, oauthId } : undefined;
  }

  private async checkTenant(tenantId: string): Promise<void> {
    const tenant = await this.repo.tenant(tenantId);
    if (!tenant) throw denied(AuthMessage.noTenant);
    if (tenant.status !== 1) throw denied(AuthMessage.tenantDisabled);
    if (tenantId !== PLATFORM_TENANT_ID && tenant.expire_time && tenant.expire_time.getTime() < Date.now()) {
      throw denied(AuthMessage.tenantExpired);
    }
  }

  private async issue(
    user: UserRow,
    client: ClientRow,
    sessionId: string,
    oauthId = "",
  ): Promise<TokenResponse> {
    if (user.status !== 1) throw denied(AuthMessage.disabled);
    const roleIds = csv(user.role_id);
    const aliases = await this.repo.roleAliases(user.tenant_id, roleIds);
    if (aliases.length === 0) throw denied(AuthMessage.noRoles);
    const now = Math.floor(Date.now() / 1000);
    const profile = {
      client_id: client.client_id,
      user_id: user.id,
      tenant_id: user.tenant_id,
      dept_id: csv(user.dept_id).join(","),
      post_id: csv(user.post_id).join(","),
      role_id: roleIds.join(","),
      role_name: aliases.join(","),
      account: user.account,
      user_name: user.account,
      nick_name: user.name ?? "",
      real_name: user.real_name ?? "",
      avatar: user.avatar ?? "",
      oauth_id: oauthId,
      detail: { type: "web" },
      license: LICENSE,
    };
    const accessJti = randomUUID();
    const refreshJti = randomUUID();
    const accessExp = now + client.access_token_validity;
    const refreshExp = now + client.refresh_token_validity;
    const secret = this.options.jwtSecret;
    const common = { sid: sessionId, iat: now, scope: ["all"] };
    const accessToken = signJwt(
      {
        ...profile,
        ...common,
        token_type: "access_token",
        authorities: aliases,
        jti: accessJti,
        exp: accessExp,
      },
      secret,
    );
    const refreshToken = signJwt(
      {
        ...common,
        token_type: "refresh_token",
        user_id: user.id,
        client_id: client.client_id,
        jti: refreshJti,
        exp: refreshExp,
      },
      secret,
    );
    const base = { sessionId, userId: user.id, tenantId: user.tenant_id, clientId: client.client_id };
    await this.repo.insertToken({
      ...base,
      jti: accessJti,
      kind: "access",
      expiresAt: new Date(accessExp * 1000),
    });
    await this.repo.insertToken({
      ...base,
      jti: refreshJti,
      kind: "refresh",
      expiresAt: new Date(refreshExp * 1000),
    });
    return {
      access_token: accessToken,
      token_type: "bearer",
      refresh_token: refreshToken,
      expires_in: client.access_token_validity,
      scope: "all",
      ...profile,
      userName: user.real_name || user.name || user.account,
      jti: accessJti,
    };
  }

  /**
   * The caller behind an access token, or undefined when it is invalid, expired or revoked, or its
   * user or tenant no longer may sign in. Everything that grants powers is read live, never from the
   * token, so changes to a user's roles, depts, status or tenant hold from the next request on.
   */
  async authenticate(token: string): Promise<CurrentUser | undefined> {
    const claims = verifyJwt(token, this.options.jwtSecret);
    if (claims?.token_type !== "access_token") return undefined;
    const live = await this.repo.liveSession(claims.jti);
    if (!live || live.role_ids.length === 0) return undefined;
    return {
      userId: live.user_id,
      tenantId: live.tenant_id,
      account: live.account,
      userName: live.account,
      realName: live.real_name ?? "",
      roleIds: live.role_ids,
      roleAliases: live.role_aliases,
      deptIds: csv(live.dept_id),
      postIds: csv(live.post_id),
      clientId: typeof claims.client_id === "string" ? claims.client_id : "",
      sessionId: live.session_id,
      jti: claims.jti,
    };
  }

  /** Logout: every token of the session, access and refresh, stops working at once. */
  logout(user: CurrentUser): Promise<void> {
    return this.repo.revokeSession(user.sessionId);
  }

  async captcha(): Promise<{ key: string; image: string }> {
    const text = randomCaptchaText();
    const key = randomUUID().replaceAll("-", "");
    await this.repo.insertCaptcha(key, text.toLowerCase(), CAPTCHA_TTL_SECONDS);
    return { key, image: `data:image/png;base64,${renderCaptcha(text).toString("base64")}` };
  }
}

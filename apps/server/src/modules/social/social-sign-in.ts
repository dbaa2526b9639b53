import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { SocialProviderOption } from "@meterline/contracts";
import type { FieldCipher } from "../../crud/field-cipher.ts";
import type { Queryable } from "../../db/client.ts";
import { nextId } from "../../db/ids.ts";
import { OAuthError } from "../auth/oauth-error.ts";
import { ProviderClient, ProviderError, type ProviderSettings, supportedSources } from "./provider-client.ts";
import { type IdentityRow, type ProviderRow, SocialRepository } from "./social.repository.ts";

/** A sign-in started at a provider must come back within this long. */
export const STATE_TTL_SECONDS = 10 * 60;

export const SocialMessage = {
  notConfigured: "未配置该第三方登录,请使用账号密码登录",
  disabled: "该第三方登录已停用,请使用账号密码登录",
  badState: "第三方登录已失效,请重新登录",
  wrongTenant: "第三方登录与租户不符,请重新登录",
  unsupported: "暂不支持该第三方登录",
} as const;

const hashOf = (value: string) => createHash("sha256").update(value, "utf8").digest("hex");

function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, "hex");
  const right = Buffer.from(b, "hex");
  return left.length === right.length && left.length > 0 && timingSafeEqual(left, right);
}

const invalid = (message: string) => new OAuthError(400, "invalid_grant", message);
const denied = (message: string) => new OAuthError(400, "access_denied", message);

/**
 * Third-party sign-in: which providers a tenant offers, starting a sign-in at one (state bound to
 * the browser, PKCE, nonce) and finishing it (state used once, same browser, same tenant, provider
 * still enabled) into the identity it proves.
 */
export class SocialSignIn {
  private readonly repo: SocialRepository;

  constructor(
    db: Queryable,
    private readonly cipher: FieldCipher,
    private readonly client: ProviderClient = new ProviderClient(),
  ) {
    this.repo = new SocialRepository(db);
  }

  async options(tenantId: string): Promise<SocialProviderOption[]> {
    const rows = await this.repo.enabledProviders(tenantId);
    return rows
      .filter((row) => supportedSources.includes(row.source))
      .map((row) => ({ source: row.source, displayName: row.display_name, icon: row.icon ?? "" }));
  }

  private settings(row: ProviderRow): ProviderSettings {
    const secret = this.cipher.decrypt(row.client_secret);
    if (secret === undefined) throw new ProviderError("clientSecret: 无法解密,请重新填写");
    return {
      id: row.id,
      source: row.source,
      clientId: row.client_id,
      clientSecret: secret,
      issuer: row.issuer ?? "",
      scopes: row.scopes ?? "",
      redirectUri: row.redirect_uri,
    };
  }

  /**
   * Starts a sign-in: the provider's address to send the browser to, and the secret the browser
   * keeps in an HttpOnly cookie (only its hash is stored) to prove it is the one coming back.
   */
  async start(
    tenantId: string,
    source: string,
    linkUserId: string | null = null,
  ): Promise<{ url: string; browserKey: string }> {
    const row = await this.repo.enabledProvider(tenantId, source);
    if (!row) throw denied(SocialMessage.notConfigured);
    if (!supportedSources.includes(row.source)) throw denied(SocialMessage.unsupported);
    const { url, checks } = await this.client.start(this.settings(row));
    const browserKey = randomBytes(32).toString("base64url");
    await this.repo.insertState(
      {
        state: checks.state,
        tenant_id: tenantId,
        provider_id: row.id,
        source: row.source,
        code_verifier: checks.codeVerifier,
        nonce: checks.nonce,
        browser_hash: hashOf(browserKey),
        link_user_id: linkUserId,
      },
      STATE_TTL_SECONDS,
    );
    return { url, browserKey };
  }

  /** Where a returning sign-in belongs: its tenant, and whether it links an account rather than signs in. */
  peekState(state: string): Promise<{ tenant_id: string; link_user_id: string | null } | undefined> {
    return this.repo.peekState(state);
  }

  /**
   * Finishes a sign-in into the identity the provider proves. Every check fails closed and the
   * state is spent whatever the outcome, so a replay never gets further than the first try.
   */
  async finish(request: {
    tenantId: string;
    source: string;
    code: string;
    state: string;
    browserKey: string;
    /** The signed-in user linking an identity; absent for a sign-in. The state must say the same. */
    linkUserId?: string;
  }): Promise<IdentityRow> {
    const state = await this.repo.takeState(request.state);
    if (!state?.live || !sameHash(state.browser_hash, hashOf(request.browserKey))) {
      throw invalid(SocialMessage.badState);
    }
    // A state started to link an account never signs anyone in, and the other way round.
    if (String(state.link_user_id ?? "") !== (request.linkUserId ?? ""))
      throw invalid(SocialMessage.badState);
    if (state.source !== request.source) throw invalid(SocialMessage.badState);
    if (state.tenant_id !== request.tenantId) throw denied(SocialMessage.wrongTenant);
    const row = await this.repo.enabledProvider(state.tenant_id, state.source);
    // Disabled, removed or replaced since the sign-in started: refused at once.
    if (row?.id !== state.provider_id) throw denied(SocialMessage.disabled);
    let profile: Awaited<ReturnType<ProviderClient["finish"]>>;
    try {
      profile = await this.client.finish(this.settings(row), request.code, {
        state: state.state,
        nonce: state.nonce,
        codeVerifier: state.code_verifier,
      });
    } catch (error) {
      if (error instanceof ProviderError) throw invalid(error.message);
      throw error;
    }
    const identity = await this.repo.upsertIdentity({
      id: nextId(),
      tenantId: state.tenant_id,
      providerId: row.id,
      source: row.source,
      ...profile,
    });
    // Joining an existing account by e-mail only when the tenant allows it for this provider and
    // the provider asserts the address is verified; anything else waits for an administrator.
    if (
      !request.linkUserId &&
      !identity.user_id &&
      row.join_by_email === 1 &&
      profile.emailVerified &&
      profile.email
    ) {
      const userId = await this.repo.userIdByEmail(state.tenant_id, profile.email);
      if (userId && (await this.repo.bindIdentity(identity.id, userId, state.tenant_id))) {
        return { ...identity, user_id: userId };
      }
    }
    return identity;
  }

  purge(): Promise<void> {
    return this.repo.purgeStates();
  }
}

import * as oidc from "openid-client";

/** What sign-in needs of a provider row, with the client secret already decrypted. */
export interface ProviderSettings {
  id: string;
  source: string;
  clientId: string;
  clientSecret: string;
  issuer: string;
  scopes: string;
  redirectUri: string;
}

/** The person a provider vouches for, in the provider's own words. */
export interface ProviderProfile {
  /** The provider's stable id of the person (OIDC `sub`, GitHub/Gitee numeric id). */
  uuid: string;
  username: string;
  nickname: string;
  email: string;
  /** Only OIDC asserts this (`email_verified`); the others never join by e-mail. */
  emailVerified: boolean;
  avatar: string;
}

/** The secrets of one sign-in started at a provider, kept server-side until it comes back. */
export interface SignInChecks {
  state: string;
  nonce: string;
  codeVerifier: string;
}

export class ProviderError extends Error {}

/** OAuth 2 sources spoken through the same client: endpoints on a base (public, Enterprise, double). */
const OAUTH2_SOURCES: Record<
  string,
  { base: string; authorize: string; token: string; user: (base: string) => string; scope: string }
> = {
  github: {
    base: "https://github.com",
    authorize: "/login/oauth/authorize",
    token: "/login/oauth/access_token",
    // GitHub.com's API lives on its own host; GitHub Enterprise Server serves it under /api/v3.
    user: (base) => (base === "https://github.com" ? "https://api.github.com/user" : `${base}/api/v3/user`),
    scope: "read:user user:email",
  },
  gitee: {
    base: "https://gitee.com",
    authorize: "/oauth/authorize",
    token: "/oauth/token",
    user: (base) => `${base}/api/v5/user`,
    scope: "user_info",
  },
};

/**
 * WeChat's two sign-ins (Open Platform QR sign-in on a website; official-account sign-in inside
 * WeChat's browser) share its OAuth 2 dialect: `appid` for client_id, a GET token endpoint that
 * takes the secret in the query and answers `openid` without a token type, and a user API keyed by
 * openid. The exchange still goes through openid-client; a fetch adapter speaks the dialect.
 */
const WECHAT_SOURCES: Record<string, { authorize: string; scope: string }> = {
  wechat_open: { authorize: "/connect/qrconnect", scope: "snsapi_login" },
  wechat_mp: { authorize: "/connect/oauth2/authorize", scope: "snsapi_userinfo" },
};
const WECHAT_OPEN = "https://open.weixin.qq.com";
const WECHAT_API = "https://api.weixin.qq.com";

export const supportedSources = ["oidc", ...Object.keys(OAUTH2_SOURCES), ...Object.keys(WECHAT_SOURCES)];

/** Translates openid-client's standard token request into WeChat's and its answer back. */
function wechatFetch(tokenEndpoint: string) {
  return async (url: string, options: { method?: string; body?: unknown; signal?: AbortSignal }) => {
    if (url !== tokenEndpoint || options.method !== "POST") return fetch(url, options as RequestInit);
    const form = new URLSearchParams(String(options.body ?? ""));
    const query = new URLSearchParams({
      appid: form.get("client_id") ?? "",
      secret: form.get("client_secret") ?? "",
      code: form.get("code") ?? "",
      grant_type: "authorization_code",
    });
    const answer = await fetch(`${tokenEndpoint}?${query}`, {
      ...(options.signal ? { signal: options.signal } : {}),
    });
    const body = (await answer.json()) as Record<string, unknown>;
    const failed = answer.status !== 200 || Boolean(body.errcode);
    const translated = failed
      ? {
          error: "invalid_grant",
          error_description: `${String(body.errcode ?? answer.status)} ${String(body.errmsg ?? "")}`,
        }
      : { ...body, token_type: "bearer" };
    return new Response(JSON.stringify(translated), {
      status: failed ? 400 : 200,
      headers: { "content-type": "application/json" },
    });
  };
}

/** Plain http is only tolerated for a provider on this machine (development and tests). */
const isLoopback = (url: URL) => ["127.0.0.1", "localhost", "[::1]"].includes(url.hostname);

const trimSlash = (text: string) => text.replace(/\/+$/, "");

/**
 * Builds authorization addresses and exchanges codes through openid-client, for OpenID Connect
 * (discovered metadata, PKCE, nonce, ID token checks) and for GitHub and Gitee (plain OAuth 2 with
 * PKCE, the profile read from their user API). Discovered configurations are kept per provider and
 * its settings, so an edited provider is discovered afresh.
 */
export class ProviderClient {
  private readonly configs = new Map<string, Promise<oidc.Configuration>>();

  private configuration(p: ProviderSettings): Promise<oidc.Configuration> {
    const key = JSON.stringify([p.id, p.source, p.clientId, p.clientSecret, p.issuer]);
    let config = this.configs.get(key);
    if (!config) {
      config = this.build(p);
      // A failed discovery is retried on the next sign-in, not remembered.
      config.catch(() => this.configs.delete(key));
      this.configs.set(key, config);
    }
    return config;
  }

  private async build(p: ProviderSettings): Promise<oidc.Configuration> {
    const auth = oidc.ClientSecretPost(p.clientSecret);
    if (p.source === "oidc") {
      if (!p.issuer) throw new ProviderError("issuer: 未配置");
      const issuer = new URL(p.issuer);
      const execute = isLoopback(issuer) ? [oidc.allowInsecureRequests] : [];
      return oidc.discovery(issuer, p.clientId, undefined, auth, { execute });
    }
    const wechat = WECHAT_SOURCES[p.source];
    if (wechat) {
      // A configured base stands in for both of WeChat's hosts (a test double, a gateway).
      const openBase = trimSlash(p.issuer || WECHAT_OPEN);
      const apiBase = trimSlash(p.issuer || WECHAT_API);
      const tokenEndpoint = `${apiBase}/sns/oauth2/access_token`;
      const config = new oidc.Configuration(
        {
          issuer: openBase,
          authorization_endpoint: `${openBase}${wechat.authorize}`,
          token_endpoint: tokenEndpoint,
          userinfo_endpoint: `${apiBase}/sns/userinfo`,
        },
        p.clientId,
        undefined,
        auth,
      );
      config[oidc.customFetch] = wechatFetch(tokenEndpoint) as oidc.CustomFetch;
      if (isLoopback(new URL(apiBase))) oidc.allowInsecureRequests(config);
      return config;
    }
    const known = OAUTH2_SOURCES[p.source];
    if (!known) throw new ProviderError(`source: 暂不支持 ${p.source}`);
    const base = trimSlash(p.issuer || known.base);
    const config = new oidc.Configuration(
      {
        issuer: base,
        authorization_endpoint: `${base}${known.authorize}`,
        token_endpoint: `${base}${known.token}`,
        userinfo_endpoint: known.user(base),
      },
      p.clientId,
      undefined,
      auth,
    );
    if (isLoopback(new URL(base))) oidc.allowInsecureRequests(config);
    return config;
  }

  /** The provider's authorization address for a new sign-in, and the checks to keep for its return. */
  async start(p: ProviderSettings): Promise<{ url: string; checks: SignInChecks }> {
    const config = await this.configuration(p);
    const checks = {
      state: oidc.randomState(),
      nonce: oidc.randomNonce(),
      codeVerifier: oidc.randomPKCECodeVerifier(),
    };
    const wechat = WECHAT_SOURCES[p.source];
    if (wechat) {
      // WeChat reads its parameters in this order, names the client appid and wants the fragment.
      const url = new URL(config.serverMetadata().authorization_endpoint!);
      url.search = new URLSearchParams([
        ["appid", p.clientId],
        ["redirect_uri", p.redirectUri],
        ["response_type", "code"],
        ["scope", p.scopes.trim() || wechat.scope],
        ["state", checks.state],
      ]).toString();
      url.hash = "wechat_redirect";
      return { url: url.href, checks };
    }
    const params: Record<string, string> = {
      redirect_uri: p.redirectUri,
      scope:
        p.scopes.trim() || (p.source === "oidc" ? "openid profile email" : OAUTH2_SOURCES[p.source]!.scope),
      state: checks.state,
      code_challenge: await oidc.calculatePKCECodeChallenge(checks.codeVerifier),
      code_challenge_method: "S256",
    };
    if (p.source === "oidc") params.nonce = checks.nonce;
    return { url: oidc.buildAuthorizationUrl(config, params).href, checks };
  }

  /**
   * Exchanges the code that came back (once: providers refuse a second use) and reads the person.
   * The callback address is rebuilt from the configured redirect URI, never from the request.
   */
  async finish(p: ProviderSettings, code: string, checks: SignInChecks): Promise<ProviderProfile> {
    const config = await this.configuration(p);
    const current = new URL(p.redirectUri);
    current.searchParams.set("code", code);
    current.searchParams.set("state", checks.state);
    if (p.source === "oidc") {
      const issuer = config.serverMetadata().authorization_response_iss_parameter_supported;
      if (issuer) current.searchParams.set("iss", config.serverMetadata().issuer);
    }
    let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
    try {
      tokens = await oidc.authorizationCodeGrant(config, current, {
        pkceCodeVerifier: checks.codeVerifier,
        expectedState: checks.state,
        ...(p.source === "oidc" ? { expectedNonce: checks.nonce, idTokenExpected: true } : {}),
      });
    } catch (error) {
      throw new ProviderError(`第三方登录失败: ${(error as Error).message}`);
    }
    if (p.source === "oidc") {
      const claims = tokens.claims();
      if (!claims) throw new ProviderError("第三方登录失败: 缺少 ID 令牌");
      const info = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub).catch(() => claims);
      const text = (name: string) => {
        const value = info[name] ?? claims[name];
        return typeof value === "string" ? value : "";
      };
      return {
        uuid: claims.sub,
        username: text("preferred_username") || claims.sub,
        nickname: text("name"),
        email: text("email"),
        emailVerified: (info.email_verified ?? claims.email_verified) === true,
        avatar: text("picture"),
      };
    }
    if (WECHAT_SOURCES[p.source]) return this.wechatProfile(config, tokens);
    const endpoint = config.serverMetadata().userinfo_endpoint!;
    const answer = await oidc.fetchProtectedResource(config, tokens.access_token, new URL(endpoint), "GET");
    if (!answer.ok) throw new ProviderError(`第三方登录失败: 用户信息 ${answer.status}`);
    const user = (await answer.json()) as Record<string, unknown>;
    const text = (name: string) => (typeof user[name] === "string" ? (user[name] as string) : "");
    if (user.id === undefined || user.id === null) throw new ProviderError("第三方登录失败: 用户信息缺少 id");
    return {
      uuid: String(user.id),
      username: text("login"),
      nickname: text("name"),
      email: text("email"),
      emailVerified: false,
      avatar: text("avatar_url"),
    };
  }

  /**
   * WeChat's silent authorization (scope snsapi_base, the owner page inside WeChat): the code is
   * exchanged for the openid alone. Its token may not read the user API, so none is asked for.
   */
  async wechatOpenid(p: ProviderSettings, code: string, checks: SignInChecks): Promise<string> {
    const config = await this.configuration(p);
    const current = new URL(p.redirectUri);
    current.searchParams.set("code", code);
    current.searchParams.set("state", checks.state);
    let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
    try {
      tokens = await oidc.authorizationCodeGrant(config, current, {
        pkceCodeVerifier: checks.codeVerifier,
        expectedState: checks.state,
      });
    } catch (error) {
      throw new ProviderError(`微信授权失败: ${(error as Error).message}`);
    }
    const openid = typeof tokens.openid === "string" ? tokens.openid : "";
    if (!openid) throw new ProviderError("微信授权失败: 缺少 openid");
    return openid;
  }

  /** WeChat's user API, keyed by the openid of the token answer. */
  private async wechatProfile(
    config: oidc.Configuration,
    tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>,
  ): Promise<ProviderProfile> {
    const openid = typeof tokens.openid === "string" ? tokens.openid : "";
    if (!openid) throw new ProviderError("第三方登录失败: 缺少 openid");
    const url = new URL(config.serverMetadata().userinfo_endpoint!);
    url.search = new URLSearchParams({ access_token: tokens.access_token, openid, lang: "zh_CN" }).toString();
    const answer = await oidc.fetchProtectedResource(config, tokens.access_token, url, "GET");
    const user = (await answer.json()) as Record<string, unknown>;
    if (!answer.ok || user.errcode)
      throw new ProviderError(`第三方登录失败: 用户信息 ${String(user.errcode ?? answer.status)}`);
    const text = (name: string) => (typeof user[name] === "string" ? (user[name] as string) : "");
    return {
      uuid: openid,
      username: text("nickname") || openid,
      nickname: text("nickname"),
      email: "",
      emailVerified: false,
      avatar: text("headimgurl"),
    };
  }
}

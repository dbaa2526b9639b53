import {
  type CaptchaResponse,
  type LocalLogEntry,
  type LoginOptions,
  type TenantDomainInfo,
  type TokenResponse,
  type UserInfo,
  website,
} from "@meterline/contracts";
import { ApiError, messageOf } from "./errors.ts";
import type { Http } from "./http.ts";
import type { QueryParams } from "./query.ts";

const AUTH = "/api/blade-auth/oauth";

export interface LoginParams {
  tenantId: string;
  username: string;
  /** md5 hex of the plain password (contract §5.2); the console hashes it. */
  password: string;
  /** Present when the login page runs in captcha mode (grant_type=captcha). */
  captcha?: { key: string; code: string };
}

/** What the console got back from a third-party provider (`/login?social=…&code=…&state=…`). */
export interface SocialReturn {
  source: string;
  code: string;
  state: string;
  tenantId: string;
}

export interface GuestRegistration {
  tenantId: string;
  name: string;
  account: string;
  /** Plain password: the server hashes it (contract §5.2). */
  password: string;
  oauthId: string;
}

/** `{success:"true", msg:"success"}` of logout and clear-cache (contract §5.6). */
export interface PlainAck {
  success: string;
  msg: string;
}

export function authApi(http: Http) {
  /** The token endpoint answers flat OAuth2 JSON; a 200 carrying error_description is a failure too. */
  async function token(query: QueryParams, headers: Record<string, string>): Promise<TokenResponse> {
    const body = await http.request(`${AUTH}/token`, { method: "POST", query, headers, auth: false });
    const answer = (body ?? {}) as Partial<TokenResponse> & { error_description?: string };
    if (answer.error_description || !answer.access_token) {
      http.fail(new ApiError("http", 400, messageOf(body), body));
    }
    return answer as TokenResponse;
  }

  return {
    login(params: LoginParams): Promise<TokenResponse> {
      const headers: Record<string, string> = { "Tenant-Id": params.tenantId };
      if (params.captcha) {
        headers["Captcha-Key"] = params.captcha.key;
        headers["Captcha-Code"] = params.captcha.code;
      }
      return token(
        {
          tenantId: params.tenantId,
          username: params.username,
          password: params.password,
          grant_type: params.captcha ? "captcha" : "password",
          scope: "all",
          type: "account",
        },
        headers,
      );
    },

    /**
     * Contract §5.1 social grant. The browser's HttpOnly cookie from oauth/render travels with it
     * (same origin); an unbound identity answers a guest token with an empty user_id.
     */
    socialLogin(params: SocialReturn): Promise<TokenResponse> {
      return token(
        {
          grant_type: "social",
          source: params.source,
          code: params.code,
          state: params.state,
          tenantId: params.tenantId,
          scope: "all",
        },
        { "Tenant-Id": params.tenantId },
      );
    },

    refresh(refreshToken: string, tenantId: string): Promise<TokenResponse> {
      return token(
        { grant_type: "refresh_token", refresh_token: refreshToken, tenantId, scope: "all" },
        { "Tenant-Id": tenantId },
      );
    },

    captcha(): Promise<CaptchaResponse> {
      return http.request(`${AUTH}/captcha`, { auth: false }) as Promise<CaptchaResponse>;
    },

    /** For `tenantId` (its third-party providers); without it, the platform tenant's. */
    loginOptions(tenantId?: string): Promise<LoginOptions> {
      return http.envelope<LoginOptions>(`${AUTH}/login-options`, {
        auth: false,
        ...(tenantId ? { query: { tenantId } } : {}),
      });
    },

    tenantInfo(domain: string): Promise<TenantDomainInfo> {
      return http.envelope<TenantDomainInfo>("/api/blade-system/tenant/info", {
        query: { domain },
        auth: false,
      });
    },

    userInfo(): Promise<UserInfo> {
      return http.envelope<UserInfo>(`${AUTH}/user-info`);
    },

    /** Revokes the token on the server; the caller clears the local session. */
    logout(): Promise<PlainAck> {
      return http.request(`${AUTH}/logout`) as Promise<PlainAck>;
    },

    /** Uploads local error logs; despite the path this does NOT log out (contract §5.6). */
    uploadLogs(logs: readonly LocalLogEntry[]): Promise<PlainAck> {
      return http.request(`${AUTH}/logout`, { method: "POST", body: logs }) as Promise<PlainAck>;
    },

    clearCache(): Promise<PlainAck> {
      return http.request(`${AUTH}/clear-cache`) as Promise<PlainAck>;
    },

    /**
     * `silent`: failures are not reported through onError (the dialog shows its own text).
     * `guestToken`: the guest token of the social grant when it is not the stored session's.
     */
    registerGuest(
      form: GuestRegistration,
      options: { silent?: boolean; guestToken?: string } = {},
    ): Promise<unknown> {
      const headers: Record<string, string> = { "Tenant-Id": form.tenantId || website.defaultTenantId };
      if (options.guestToken) headers[website.tokenHeader] = `bearer ${options.guestToken}`;
      return http.envelope<unknown>("/api/blade-user/register-guest", {
        method: "POST",
        query: { ...form },
        silent: options.silent,
        headers,
        ...(options.guestToken ? { auth: false } : {}),
      });
    },
  };
}

/** The flat OAuth2 answer of POST /api/blade-auth/oauth/token (contract §5.3). */
export interface TokenResponse {
  access_token: string;
  token_type: "bearer";
  refresh_token: string;
  expires_in: number;
  scope: string;
  tenant_id: string;
  user_id: string;
  dept_id: string;
  post_id: string;
  role_id: string;
  role_name: string;
  account: string;
  user_name: string;
  /** camelCase display name the console shows in the top bar (compatibility extra). */
  userName: string;
  nick_name: string;
  real_name: string;
  avatar: string;
  oauth_id: string;
  client_id: string;
  detail: { type: string; ext?: string };
  license: string;
  jti: string;
}

/** The OAuth2 error body of the token endpoint (contract §4.3). */
export interface TokenError {
  error: string;
  error_description: string;
}

export type GrantType = "password" | "captcha" | "refresh_token" | "social";

/** GET /api/blade-auth/oauth/captcha, not wrapped (contract §5.5). */
export interface CaptchaResponse {
  key: string;
  image: string;
}

/** GET /api/blade-auth/oauth/login-options: what the login page must show. Meterline's own call. */
export interface LoginOptions {
  captchaMode: boolean;
  tenantMode: boolean;
  registrationEnabled: boolean;
  /** Sources of the tenant's enabled sign-in providers (the tenant of `?tenantId=`, else 000000). */
  socialSources: string[];
  /** The same providers with what their login buttons show. */
  socialProviders: SocialProviderOption[];
}

/** A login button for one enabled third-party provider of a tenant. */
export interface SocialProviderOption {
  source: string;
  displayName: string;
  /** Image address, or "" for the source's own mark. */
  icon: string;
}

/** One of the signed-in user's accounts at a sign-in provider (GET /api/blade-auth/oauth/linked). */
export interface LinkedAccount {
  id: string;
  source: string;
  username: string;
  nickname: string;
  email: string;
  createTime: string;
}

/** One registration application in the review list (GET /api/blade-user/registration/page). */
export interface RegistrationRow {
  id: string;
  tenantId: string;
  account: string;
  name: string;
  /** 0 pending, 1 approved, 2 rejected. */
  status: number;
  reason: string;
  source: string;
  /** The provider's account name and display name of the person, and what it says of them. */
  providerUsername: string;
  providerName: string;
  email: string;
  avatar: string;
  createTime: string;
}

/** GET /api/blade-auth/oauth/user-info (data). */
export interface UserInfo {
  userId: string;
  tenantId: string;
  tenantName: string;
  /** `yyyy-MM-dd HH:mm:ss` or "" when the tenant never expires. */
  tenantExpireTime: string;
  account: string;
  userName: string;
  realName: string;
  nickName: string;
  avatar: string;
  roleId: string;
  roleName: string;
  deptId: string;
  postId: string;
  email: string;
  phone: string;
}

/** GET /api/blade-system/tenant/info?domain= (public; contract §9.2). Empty object when no tenant has that domain. */
export interface TenantDomainInfo {
  tenantId?: string;
  domain?: string;
  backgroundUrl?: string;
}

/** One local error log entry the console uploads through POST oauth/logout (spec §3). */
export interface LocalLogEntry {
  type: string;
  url: string;
  message: string;
  stack: string;
  info?: string;
  time: string;
}

/** A failure of the token endpoint, answered in the OAuth2 format of contract §4.3 rather than the envelope. */
export class OAuthError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    description: string,
  ) {
    super(description);
    this.name = "OAuthError";
  }
}

/** The token endpoint's messages, worded as the console family shows them (contract §4.3). */
export const AuthMessage = {
  badCredentials: "用户名或密码错误",
  badCaptcha: "验证码不正确",
  noTenantId: "租户ID未找到",
  noTenant: "未获得用户的租户信息",
  tenantExpired: "租户授权已过期,请联系管理员",
  tenantDisabled: "租户已被停用,请联系管理员",
  noRoles: "未获得用户的角色信息",
  locked: "登录错误次数过多,请稍后再试",
  addressThrottled: "该地址登录失败次数过多,请稍后再试",
  captchaRequired: "该账号登录失败次数过多,请输入验证码后再试",
  disabled: "账号已被停用,请联系管理员",
  badClient: "Bad client credentials",
  grantNotAllowed: "客户端不支持此授权类型",
  unsupportedGrant: "不支持的授权类型",
  badRefresh: "刷新令牌无效或已过期",
  socialNotConfigured: "未配置第三方登录,请使用账号密码登录",
  missing: (name: string) => `缺少必要的请求参数: ${name}`,
} as const;

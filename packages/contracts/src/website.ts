/** Console constants of spec §9, in one place for console and server. */
export const website = {
  title: "Meterline",
  clientId: "saber",
  clientSecret: "saber_secret",
  tokenHeader: "Blade-Auth",
  /** Seconds of token age after which the console refreshes it. */
  tokenTime: 3000,
  tokenCheckIntervalMs: 10_000,
  requestTimeoutMs: 20_000,
  tenantMode: true,
  defaultTenantId: "000000",
  captchaMode: false,
  lockPage: "/lock",
  homePath: "/wel/index",
  expiryNoticeIntervalMs: 1_200_000,
  defaultColor: "#409EFF",
  defaultTheme: "theme-default",
  defaultLanguage: "zh",
  logBadgeMax: 99,
  chunkLoadTimeoutMs: 120_000,
  breakpoints: [768, 992, 1200] as const,
  avatarMaxBytes: 500 * 1024,
  dictDialogWidth: 880,
  pageSizes: [10, 30, 50, 100, 200] as const,
  defaultPageSize: 10,
  alarmListSize: 10,
  ignoreDays: { once: 0, week: 7, permanent: 9999 } as const,
} as const;

export const themes = [
  "theme-default",
  "theme-white",
  "theme-dark",
  "theme-colourful",
  "theme-smart",
  "theme-iview",
  "theme-vip",
  "theme-cool",
  "theme-d2",
  "theme-hey",
  "theme-lte",
] as const;
export type ThemeName = (typeof themes)[number];

export const PLATFORM_TENANT_ID = "000000";
export const ROLE_ADMINISTRATOR = "administrator";
export const ROLE_ADMIN = "admin";

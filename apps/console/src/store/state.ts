import {
  type LocalLogEntry,
  type ThemeName,
  type TokenResponse,
  type TopMenu,
  themes,
  type UserInfo,
  website,
} from "@meterline/contracts";
import type { MenuItem } from "../layout/menu-model.ts";
import { loadItem, storageKeys } from "./persist.ts";
import { homeTab, type Tab } from "./tabs.ts";

export type Language = "zh" | "en";
/** Screen-size class: 0 below 768 px, 1 below 992, 2 below 1200, 3 above (spec §2). */
export type ScreenClass = 0 | 1 | 2 | 3;

/** The access token and when it was stored; its age decides the refresh (spec §9). */
export interface TokenRecord {
  content: string;
  datetime: number;
}

export interface ConsoleState {
  token: TokenRecord | null;
  refreshToken: string;
  tenantId: string;
  /** The token endpoint's answer, kept as the session's user record (contract §5.3). */
  userInfo: TokenResponse | null;
  /** GET user-info: tenant name and expiry, phone, e-mail. Loaded with the navigation. */
  profile: UserInfo | null;
  roles: string[];
  /** Sidebar of the selected top menu; null until loaded. */
  menus: MenuItem[] | null;
  /** The last navigation load failed (network); the layout offers a retry. */
  menuFailed: boolean;
  /** The full menu (home top menu): searched by the menu search and the home shortcuts. */
  menuAll: MenuItem[];
  topMenus: TopMenu[];
  /** "" is the home top menu, i.e. the full menu. */
  activeTopMenu: string;
  permission: Record<string, true>;
  tabs: Tab[];
  isLock: boolean;
  /** md5 of the lock password, "" when none is set. */
  lockPassword: string;
  /** The page the user locked from, to return to after unlocking (kept for this page load only). */
  lockReturn: string;
  theme: ThemeName;
  color: string;
  language: Language;
  collapsed: boolean;
  screen: ScreenClass;
  logs: LocalLogEntry[];
}

function stored<T>(key: (typeof storageKeys)[keyof typeof storageKeys], fallback: T): T {
  return loadItem<T>(key)?.content ?? fallback;
}

function storedToken(): TokenRecord | null {
  const record = loadItem<string>(storageKeys.token);
  return record ? { content: String(record.content ?? ""), datetime: record.datetime } : null;
}

function storedTheme(): ThemeName {
  const name = stored<string>(storageKeys.theme, website.defaultTheme);
  return (themes as readonly string[]).includes(name) ? (name as ThemeName) : website.defaultTheme;
}

function storedTabs(): Tab[] {
  const tabs = stored<Tab[]>(storageKeys.tabs, []);
  return Array.isArray(tabs) && tabs.length ? tabs : [homeTab];
}

export function rolesOf(userInfo: TokenResponse | null): string[] {
  return (userInfo?.role_name ?? "")
    .split(",")
    .map((role) => role.trim())
    .filter(Boolean);
}

/** The state after a reload: persisted values, everything else empty. */
export function initialState(): ConsoleState {
  const userInfo = stored<TokenResponse | null>(storageKeys.userInfo, null);
  return {
    token: storedToken(),
    refreshToken: stored(storageKeys.refreshToken, ""),
    tenantId: stored(storageKeys.tenantId, website.defaultTenantId),
    userInfo,
    profile: null,
    roles: rolesOf(userInfo),
    menus: null,
    menuFailed: false,
    menuAll: [],
    topMenus: [],
    activeTopMenu: "",
    permission: {},
    tabs: storedTabs(),
    isLock: stored(storageKeys.lock, false),
    lockPassword: stored(storageKeys.lockPassword, ""),
    lockReturn: "",
    theme: storedTheme(),
    color: stored(storageKeys.color, website.defaultColor),
    language:
      stored<Language>(storageKeys.language, website.defaultLanguage as Language) === "en" ? "en" : "zh",
    collapsed: stored(storageKeys.collapse, false),
    screen: 3,
    logs: stored<LocalLogEntry[]>(storageKeys.logs, []),
  };
}

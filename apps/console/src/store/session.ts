import type { TokenResponse } from "@meterline/contracts";
import { rolesOf } from "./state.ts";
import { store } from "./store.ts";
import { homeTab } from "./tabs.ts";

/** Store the answer of a login: token, refresh token, tenant, user; the lock is cleared (spec §4). */
export function signIn(token: TokenResponse, now = Date.now()): void {
  store.setState({
    token: { content: token.access_token, datetime: now },
    refreshToken: token.refresh_token,
    tenantId: token.tenant_id,
    userInfo: token,
    roles: rolesOf(token),
    isLock: false,
    lockPassword: "",
    tabs: [homeTab],
    menus: null,
    menuFailed: false,
    menuAll: [],
    topMenus: [],
    activeTopMenu: "",
    permission: {},
    profile: null,
  });
}

/** Replace the access and refresh tokens after a refresh; the user stays where they are. */
export function replaceToken(token: TokenResponse, now = Date.now()): void {
  store.setState((state) => ({
    token: { content: token.access_token, datetime: now },
    refreshToken: token.refresh_token || state.refreshToken,
    userInfo: { ...(state.userInfo ?? token), ...token },
  }));
}

/**
 * Local logout: token, menus, roles, tabs and lock are cleared and the stored access and refresh
 * tokens removed (spec §4). The navigation guard then sends the user to /login.
 */
export function clearSession(): void {
  store.setState({
    token: null,
    refreshToken: "",
    userInfo: null,
    profile: null,
    roles: [],
    menus: null,
    menuFailed: false,
    menuAll: [],
    topMenus: [],
    activeTopMenu: "",
    permission: {},
    tabs: [homeTab],
    isLock: false,
    lockPassword: "",
  });
}

import { isApiError } from "@meterline/api-client";
import { normalizeMenus, permissionFlags } from "../layout/menu-model.ts";
import { clearSession, replaceToken, signIn } from "../store/session.ts";
import { store } from "../store/store.ts";
import { api } from "./api.ts";
import { refreshDue } from "./token-policy.ts";

export interface LoginForm {
  tenantId: string;
  username: string;
  /** Plain text as typed; hashed here (contract §5.2). */
  password: string;
  captcha?: { key: string; code: string };
}

/** Logs in; on success the guard moves the user off /login. Failures were toasted by the client. */
export async function login(form: LoginForm): Promise<void> {
  // The hash function loads with the first sign-in, not with the login page.
  const { md5 } = await import("js-md5");
  const token = await api.login({ ...form, password: md5(form.password) });
  signIn(token);
}

/** Revokes the token on the server, then clears the local session whatever the answer. */
export async function logout(): Promise<void> {
  try {
    await api.logout();
  } catch {
    // An expired or revoked token cannot be revoked again; the local logout is what matters.
  } finally {
    clearSession();
  }
}

/** Loads what the layout needs after login or reload: menus, top menus, buttons, then the profile. */
export async function loadNavigation(): Promise<void> {
  const [routes, topMenus, buttons] = await Promise.all([api.routes(), api.topMenu(), api.buttonCodes()]);
  const menus = normalizeMenus(routes, store.getState().roles);
  store.setState({
    menus,
    menuAll: menus,
    topMenus,
    permission: permissionFlags(buttons),
    activeTopMenu: "",
  });
  // The profile only feeds the tenant line and the expiry notice; the layout works without it.
  api.userInfo().then(
    (profile) => store.setState({ profile }),
    () => undefined,
  );
}

/** Top menu click: the sidebar shows that top menu's routes; "" is the home item (full menu). */
export async function selectTopMenu(id: string): Promise<void> {
  const routes = await api.routes(id || undefined);
  store.setState({ menus: normalizeMenus(routes, store.getState().roles), activeTopMenu: id });
}

let refreshing = false;
/** The token whose refresh was refused: not retried every 10 s; its expiry ends in a 401. */
let refusedToken = "";

/**
 * Refreshes the token when its age in seconds has reached website.tokenTime and no refresh is
 * running (spec §9). Called every website.tokenCheckIntervalMs.
 */
export async function refreshTokenIfDue(now = Date.now()): Promise<boolean> {
  const { token, refreshToken, tenantId } = store.getState();
  if (!token || !refreshToken || refreshing || refusedToken === token.content) return false;
  if (!refreshDue(token, now)) return false;
  refreshing = true;
  try {
    replaceToken(await api.refresh(refreshToken, tenantId));
    return true;
  } catch (error) {
    if (isApiError(error) && error.kind === "http") refusedToken = token.content;
    return false;
  } finally {
    refreshing = false;
  }
}

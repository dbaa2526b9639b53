import { website } from "@meterline/contracts";
import type { TokenRecord } from "../store/state.ts";

export interface GuardInput {
  token: TokenRecord | null;
  isLock: boolean;
  path: string;
  search: string;
  /** False for routes marked as not needing auth. */
  needsAuth: boolean;
}

/** What the guard does: let the page render, or redirect (optionally after a local logout). */
export type GuardDecision = { kind: "render" } | { kind: "redirect"; to: string; logout?: boolean };

/** The fixed routes of spec §2 reachable without a token. */
const PUBLIC_PATHS: ReadonlySet<string> = new Set(["/login", "/403", "/404", "/500"]);

export function isPublicPath(path: string): boolean {
  return PUBLIC_PATHS.has(path);
}

/** Only same-site paths may be a post-login destination. */
export function safeRedirect(value: string | null): string {
  return value?.startsWith("/") && !value.startsWith("//") ? value : "/";
}

/**
 * The navigation rules of spec §2, in order: empty token → local logout → /login; locked → /lock;
 * logged in at /login → / (or the page the login interrupted); no token → /login unless the route
 * needs no auth.
 */
export function guardDecision({ token, isLock, path, search, needsAuth }: GuardInput): GuardDecision {
  if (token !== null && !token.content) return { kind: "redirect", to: "/login", logout: true };
  if (token && isLock && path !== website.lockPage) return { kind: "redirect", to: website.lockPage };
  if (token && path === "/login") {
    return { kind: "redirect", to: safeRedirect(new URLSearchParams(search).get("redirect")) };
  }
  if (!token && needsAuth) {
    const back =
      path === "/" || path === website.lockPage ? "" : `?redirect=${encodeURIComponent(path + search)}`;
    return { kind: "redirect", to: `/login${back}` };
  }
  return { kind: "render" };
}

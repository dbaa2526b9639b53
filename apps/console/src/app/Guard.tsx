import { lazy, Suspense, useEffect } from "react";
import { Navigate, Outlet, useLocation, useMatches } from "react-router";
import { clearSession } from "../store/session.ts";
import { useConsole } from "../store/useConsole.ts";
import { guardDecision } from "./guard-rules.ts";

// Only a signed-in session has effects to run: the login page does not load them.
const SessionEffects = lazy(() =>
  import("./SessionEffects.tsx").then((m) => ({ default: m.SessionEffects })),
);

/** Route `handle`: `auth: false` marks a page reachable without a token. */
export interface RouteHandle {
  auth?: boolean;
}

/**
 * The navigation guard, re-evaluated on every navigation and every session change (a 401 clears
 * the token, and the guard then moves the user to /login). Page titles are set by pages and tabs.
 */
export function Guard() {
  const token = useConsole((state) => state.token);
  const isLock = useConsole((state) => state.isLock);
  const { pathname, search } = useLocation();
  const matches = useMatches();
  const needsAuth = !matches.some((match) => (match.handle as RouteHandle | undefined)?.auth === false);
  const decision = guardDecision({ token, isLock, path: pathname, search, needsAuth });
  const logout = decision.kind === "redirect" && decision.logout === true;

  useEffect(() => {
    if (logout) clearSession();
  }, [logout]);

  if (decision.kind === "redirect") return <Navigate to={decision.to} replace />;
  return (
    <>
      {token ? (
        <Suspense fallback={null}>
          <SessionEffects />
        </Suspense>
      ) : null}
      <Outlet />
    </>
  );
}

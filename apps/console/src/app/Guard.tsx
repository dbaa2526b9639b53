import { lazy, Suspense, useEffect } from "react";
import { Navigate, Outlet, useLocation } from "react-router";
import { clearSession } from "../store/session.ts";
import { useConsole } from "../store/useConsole.ts";
import { dropBootLogin } from "./boot-login.ts";
import { guardDecision, isPublicPath } from "./guard-rules.ts";

// Only a signed-in session has effects to run: the login page does not load them.
const SessionEffects = lazy(() =>
  import("./SessionEffects.tsx").then((m) => ({ default: m.SessionEffects })),
);

/**
 * The navigation guard, re-evaluated on every navigation and every session change (a 401 clears
 * the token, and the guard then moves the user to /login). Page titles are set by pages and tabs.
 */
export function Guard() {
  const token = useConsole((state) => state.token);
  const isLock = useConsole((state) => state.isLock);
  const { pathname, search } = useLocation();
  const needsAuth = !isPublicPath(pathname);
  const decision = guardDecision({ token, isLock, path: pathname, search, needsAuth });
  const logout = decision.kind === "redirect" && decision.logout === true;

  useEffect(() => {
    if (logout) clearSession();
  }, [logout]);
  // The form index.html shows on /login belongs to the login page only (which takes it over).
  useEffect(() => {
    if (pathname !== "/login") dropBootLogin();
  }, [pathname]);

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

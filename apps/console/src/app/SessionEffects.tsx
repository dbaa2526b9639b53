import { website } from "@meterline/contracts";
import { lazy, Suspense, useEffect } from "react";
import { isGuest } from "../components/registration.ts";
import { useConsole } from "../store/useConsole.ts";
import { refreshTokenIfDue } from "./session.ts";
import { useTenantExpiryNotice } from "./useTenantExpiryNotice.tsx";

// Only a guest sees it: antd's Form and Modal stay out of every other session's load.
const RegistrationDialog = lazy(() =>
  import("../components/RegistrationDialog.tsx").then((m) => ({ default: m.RegistrationDialog })),
);

/** Session-wide background work while a token exists: refresh, expiry notice, guest registration. */
export function SessionEffects() {
  const userId = useConsole((state) => state.userInfo?.user_id);
  const isLock = useConsole((state) => state.isLock);

  useEffect(() => {
    // Checked at once too: a console reopened after a long pause renews its token without waiting.
    void refreshTokenIfDue();
    const timer = setInterval(() => void refreshTokenIfDue(), website.tokenCheckIntervalMs);
    return () => clearInterval(timer);
  }, []);

  useTenantExpiryNotice();

  return isGuest(userId) && !isLock ? (
    <Suspense fallback={null}>
      <RegistrationDialog />
    </Suspense>
  ) : null;
}

import type { TokenResponse } from "@meterline/contracts";
import { useEffect, useState } from "react";
import { api } from "../../app/api.ts";
import { useFeedback } from "../../app/feedback.ts";
import { useT } from "../../i18n/index.tsx";
import { signIn } from "../../store/session.ts";

/** States already handed to the server: a state answers once, even when effects run twice. */
const spent = new Set<string>();

/**
 * The end of a third-party sign-in: the server's callback brought the browser to
 * `/login?social=…&code=…&state=…&tenantId=…` (or `?socialError=…`). The code is exchanged through
 * the social grant; a known user is signed in, an unknown one gets the guest token back for the
 * registration dialog. The address is cleaned at once so a reload never replays the code.
 */
export function useSocialReturn(): { guest: TokenResponse | null; clearGuest: () => void; busy: boolean } {
  const t = useT();
  const { message } = useFeedback();
  const [guest, setGuest] = useState<TokenResponse | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    const query = new URLSearchParams(window.location.search);
    const error = query.get("socialError");
    const source = query.get("social");
    const code = query.get("code");
    const state = query.get("state");
    if (!error && !(source && code && state)) return;
    window.history.replaceState(window.history.state, "", window.location.pathname);
    if (error) {
      message.error(t("social.failed", { reason: error }));
      return;
    }
    if (!source || !code || !state || spent.has(state)) return;
    spent.add(state);
    setBusy(true);
    api
      .socialLogin({ source, code, state, tenantId: query.get("tenantId") ?? "" })
      .then((token) => {
        if (token.user_id) signIn(token);
        else setGuest(token);
      })
      // Refusals were toasted by the API client.
      .catch(() => undefined)
      .finally(() => setBusy(false));
  }, [message, t]);

  return { guest, clearGuest: () => setGuest(null), busy };
}

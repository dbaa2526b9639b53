import { useCallback, useEffect } from "react";
import { reportNetworkError } from "../app/api.ts";
import { loadNavigation } from "../app/session.ts";
import { store } from "../store/store.ts";
import { useConsole } from "../store/useConsole.ts";

let loading: Promise<void> | null = null;

/** One navigation load at a time, however many components ask for it. */
function load(): Promise<void> {
  loading ??= loadNavigation()
    .then(() => store.setState({ menuFailed: false }))
    .catch((error: unknown) => {
      reportNetworkError(error);
      if (store.getState().token) store.setState({ menuFailed: true });
    })
    .finally(() => {
      loading = null;
    });
  return loading;
}

/** Loads menus, top menus, buttons and profile when the layout has none (after login or reload). */
export function useNavigationLoader(): { retry: () => void } {
  const menus = useConsole((state) => state.menus);
  const failed = useConsole((state) => state.menuFailed);
  useEffect(() => {
    if (menus === null && !failed) void load();
  }, [menus, failed]);
  const retry = useCallback(() => {
    store.setState({ menuFailed: false });
  }, []);
  return { retry };
}

import { useEffect, useState } from "react";
import { describeError, reportNetworkError } from "../app/api.ts";

/** The answer of `load`, called again whenever it changes (memoise it); loading and error states. */
export function useLoaded<T>(load: () => Promise<T>): { data?: T; error?: string; loading: boolean } {
  const [state, setState] = useState<{ data?: T; error?: string; loading: boolean }>({ loading: true });
  useEffect(() => {
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    load().then(
      (data) => live && setState({ data, loading: false }),
      (error: unknown) => {
        reportNetworkError(error);
        if (live) setState({ error: describeError(error), loading: false });
      },
    );
    return () => {
      live = false;
    };
  }, [load]);
  return state;
}

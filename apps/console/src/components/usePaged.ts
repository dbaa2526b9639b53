import type { Page } from "@meterline/contracts";
import { website } from "@meterline/contracts";
import { useCallback, useEffect, useRef, useState } from "react";
import { describeError, reportNetworkError } from "../app/api.ts";

export interface Paged<T> {
  rows: T[];
  total: number;
  current: number;
  size: number;
  loading: boolean;
  error: string | null;
}

/**
 * A server page for the current filters (`loader` changes when they do: back to page 1). Only the
 * latest request writes, so a slow answer never replaces a newer one; `quiet` reloads (polling)
 * keep the rows on screen instead of a spinner.
 */
export function usePaged<T>(loader: (current: number, size: number) => Promise<Page<T>>) {
  const [state, setState] = useState<Paged<T>>({
    rows: [],
    total: 0,
    current: 1,
    size: website.pageSizes[0],
    loading: true,
    error: null,
  });
  const latest = useRef(0);
  const paging = useRef({ current: 1, size: website.pageSizes[0] as number });

  const load = useCallback(
    async (current = paging.current.current, size = paging.current.size, quiet = false) => {
      const call = ++latest.current;
      paging.current = { current, size };
      if (!quiet) setState((s) => ({ ...s, loading: true, current, size }));
      try {
        const page = await loader(current, size);
        if (call !== latest.current) return;
        setState({ rows: page.records, total: page.total, current, size, loading: false, error: null });
      } catch (failure) {
        // A failed poll keeps what is shown; the next one may succeed.
        if (quiet || call !== latest.current) return;
        reportNetworkError(failure);
        setState((s) => ({ ...s, rows: [], total: 0, loading: false, error: describeError(failure) }));
      }
    },
    [loader],
  );

  useEffect(() => {
    void load(1);
  }, [load]);

  return { ...state, load };
}

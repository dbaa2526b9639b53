import type { QueryParams, Row } from "@meterline/api-client";
import { type ResourceDef, resourceBase, website } from "@meterline/contracts";
import { useCallback, useEffect, useRef, useState } from "react";
import { api, describeError, reportNetworkError } from "../app/api.ts";

export interface RowsState {
  rows: Row[];
  total: number;
  current: number;
  size: number;
  loading: boolean;
  /** The last load failed: the table shows this instead of stale rows. */
  error: string | null;
  /** The answer was a page (else a whole list or forest, shown without paging). */
  paged: boolean;
  /** False when the server's count stopped early and `total` is a lower bound (Page.totalExact). */
  totalExact: boolean;
}

/**
 * The rows of a resource for the current search and page, from `<base>/<verb>` (the resource's list
 * verb unless told otherwise). Tree resources load their whole forest (the engine pages nothing
 * then), and so do verbs answering a plain list. Only the latest request may write the state, so a slow answer
 * to an older search never overwrites a newer one.
 */
export function useResourceRows(def: ResourceDef, filters: QueryParams, verb?: string) {
  const [state, setState] = useState<RowsState>({
    rows: [],
    total: 0,
    current: 1,
    size: website.pageSizes[0],
    loading: true,
    error: null,
    paged: !def.tree,
    totalExact: true,
  });
  const latest = useRef(0);
  const paging = useRef({ current: 1, size: website.pageSizes[0] as number });

  const load = useCallback(
    async (current = paging.current.current, size = paging.current.size) => {
      const call = ++latest.current;
      paging.current = { current, size };
      setState((s) => ({ ...s, loading: true, current, size }));
      try {
        const query = def.tree && !verb ? filters : { ...filters, current, size };
        const answer = await api.listRows(resourceBase(def), verb ?? def.listVerb, query);
        if (call !== latest.current) return;
        const paged = !Array.isArray(answer);
        const rows = paged ? answer.records : answer;
        const total = paged ? answer.total : answer.length;
        const totalExact = !paged || answer.totalExact !== false;
        setState({ rows, total, current, size, loading: false, error: null, paged, totalExact });
      } catch (error) {
        reportNetworkError(error);
        if (call !== latest.current) return;
        setState((s) => ({
          ...s,
          rows: [],
          total: 0,
          totalExact: true,
          loading: false,
          error: describeError(error),
        }));
      }
    },
    [def, filters, verb],
  );

  // A new search starts again at page 1.
  useEffect(() => {
    void load(1);
  }, [load]);

  return { ...state, load };
}

import type { QueryParams, Row } from "@meterline/api-client";
import { website } from "@meterline/contracts";
import { useCallback, useEffect, useRef, useState } from "react";
import { describeError, reportNetworkError } from "../../app/api.ts";
import { loadMoneyPage, type MoneyPage } from "./money-calls.ts";

export interface MoneyPageState {
  rows: Row[];
  total: number;
  current: number;
  size: number;
  totals: MoneyPage["totals"];
  loading: boolean;
  /** The last load failed: the table shows this instead of stale rows and totals. */
  error: string | null;
}

/**
 * A page of a money list for the current search, with the totals of the whole search. Only the
 * latest request may write the state, so a slow answer to an older search never shows.
 */
export function useMoneyPage(path: string, filters: QueryParams) {
  const [state, setState] = useState<MoneyPageState>({
    rows: [],
    total: 0,
    current: 1,
    size: website.pageSizes[0],
    totals: undefined,
    loading: true,
    error: null,
  });
  const latest = useRef(0);
  const paging = useRef({ current: 1, size: website.pageSizes[0] as number });

  const load = useCallback(
    async (current = paging.current.current, size = paging.current.size) => {
      const call = ++latest.current;
      paging.current = { current, size };
      setState((s) => ({ ...s, loading: true, current, size }));
      try {
        const answer = await loadMoneyPage(path, { ...filters, current, size });
        if (call !== latest.current) return;
        setState({
          rows: answer.records,
          total: answer.total,
          current,
          size,
          totals: answer.totals,
          loading: false,
          error: null,
        });
      } catch (error) {
        reportNetworkError(error);
        if (call !== latest.current) return;
        setState((s) => ({
          ...s,
          rows: [],
          total: 0,
          totals: undefined,
          loading: false,
          error: describeError(error),
        }));
      }
    },
    [path, filters],
  );

  // A new search starts again at page 1.
  useEffect(() => {
    void load(1);
  }, [load]);

  return { ...state, load };
}

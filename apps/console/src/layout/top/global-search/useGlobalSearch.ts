import {
  GLOBAL_SEARCH_MAX_KEYWORD,
  GLOBAL_SEARCH_MAX_WORDS,
  GLOBAL_SEARCH_PATH,
  type GlobalSearchResult,
} from "@meterline/contracts";
import { useEffect, useState } from "react";
import { api } from "../../../app/api.ts";
import { type SearchHit, searchHits } from "./search-hits.ts";

/** Typing pauses this long before the server is asked: one call per word, not per key. */
export const SEARCH_DEBOUNCE_MS = 250;
/**
 * Fewer characters match most of the registry and no index helps (trigrams need three): the
 * server is asked from two on.
 */
export const SEARCH_MIN_CHARACTERS = 2;

export interface GlobalSearchState {
  hits: SearchHit[];
  /** A call for the current text is under way (or waiting out the debounce). */
  loading: boolean;
  /** The last call failed (network, or a caller who may read none of the kinds). */
  failed: boolean;
  /** Something is typed, but too little to ask about. */
  tooShort?: boolean;
  /** The keyword these hits answer: a caller acting on them knows they are not an older text's. */
  keyword?: string;
}

/**
 * What is asked for `text`: within the server's bounds, so that a long paste narrows by its first
 * words rather than failing.
 */
export function searchKeyword(text: string): string {
  return text
    .trim()
    .split(/\s+/u)
    .slice(0, GLOBAL_SEARCH_MAX_WORDS)
    .join(" ")
    .slice(0, GLOBAL_SEARCH_MAX_KEYWORD)
    .trim();
}

/**
 * The server's search for `text`, debounced; an answer for older text never replaces a newer one.
 * Blank text asks nothing. Failures stay quiet (no toast): the list says so instead.
 */
export function useGlobalSearch(text: string): GlobalSearchState {
  const keyword = searchKeyword(text);
  const [state, setState] = useState<GlobalSearchState>({ hits: [], loading: false, failed: false });
  useEffect(() => {
    if ([...keyword].length < SEARCH_MIN_CHARACTERS) {
      setState({ hits: [], loading: false, failed: false, tooShort: keyword !== "", keyword });
      return;
    }
    setState((previous) => ({ ...previous, loading: true }));
    const controller = new AbortController();
    const timer = window.setTimeout(() => {
      api
        .request(GLOBAL_SEARCH_PATH, { query: { keyword }, silent: true, signal: controller.signal })
        .then((body) => {
          const result = (body as { data: GlobalSearchResult }).data;
          setState({ hits: searchHits(result), loading: false, failed: false, keyword });
        })
        .catch(() => {
          if (!controller.signal.aborted) setState({ hits: [], loading: false, failed: true, keyword });
        });
    }, SEARCH_DEBOUNCE_MS);
    return () => {
      window.clearTimeout(timer);
      controller.abort();
    };
  }, [keyword]);
  return state;
}

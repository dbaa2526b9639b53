import type { Page, TreeNode } from "@meterline/contracts";
import type { Http } from "./http.ts";
import { compactFilters, type QueryParams, withQuery } from "./query.ts";

/** One item of a system or business dictionary, as the selects show it (contract §10.4). */
export interface DictionaryItem {
  dictKey: string;
  dictValue: string;
  dictValueEn?: string;
}

/** A row as the engine answers it: always an id, the rest depends on the resource. */
export type Row = { id: string; children?: Row[] } & Record<string, unknown>;

/**
 * The engine routes of one resource, addressed by its base path (`resourceBase(def)`), so resources
 * that live directly under their service (`/api/blade-user/page`) work the same as the others.
 */
export function crudApi(http: Http) {
  return {
    /** A page of rows, or the whole forest of a tree resource (the engine answers an array then). */
    listRows(base: string, verb: string, params: QueryParams): Promise<Page<Row> | Row[]> {
      return http.envelope<Page<Row> | Row[]>(`${base}/${verb}`, { query: compactFilters(params) });
    },
    detailRow(base: string, id: string): Promise<Row> {
      return http.envelope<Row>(`${base}/detail`, { query: { id } });
    },
    /**
     * Writes a row: `submit` creates without id and updates with one; resources that split the two
     * pass `save` or `update` (the verbs of `writePaths(def)`). Answers the id (and more for tenants).
     */
    submitRow(base: string, body: object, verb = "submit"): Promise<Record<string, unknown>> {
      return http.envelope<Record<string, unknown>>(`${base}/${verb}`, { method: "POST", body });
    },
    /** Removes rows by id; `delete` where a resource's remove path is named so (collector). */
    removeRows(base: string, ids: readonly string[], verb = "remove"): Promise<unknown> {
      return http.envelope<unknown>(`${base}/${verb}`, { method: "POST", query: { ids } });
    },
    selectRows(base: string): Promise<Row[]> {
      return http.envelope<Row[]>(`${base}/select`);
    },
    treeNodes(base: string): Promise<TreeNode[]> {
      return http.envelope<TreeNode[]>(`${base}/tree`);
    },
    /** Items of a dictionary code; `biz` for the per-tenant business dictionaries. */
    dictionary(code: string, biz = false): Promise<DictionaryItem[]> {
      const base = biz ? "/api/blade-system/dict-biz" : "/api/blade-system/dict";
      return http.envelope<DictionaryItem[]>(`${base}/dictionary`, { query: { code } });
    },
  };
}

/**
 * The URL of `<base>/export` for the current search. Downloads are opened by the browser, which
 * cannot send headers, so the token travels as the `Blade-Auth` query parameter (contract §3.3).
 */
export function exportUrl(base: string, filters: QueryParams, token: string): string {
  return withQuery(`${base}/export`, { ...compactFilters(filters), "Blade-Auth": token });
}

import type { Page } from "@meterline/contracts";
import type { Http } from "./http.ts";
import { compactFilters, type QueryParams } from "./query.ts";

/** Paging plus filters of a list call (contract §3.1); empty filters are not sent. */
export interface PageParams extends QueryParams {
  current?: number;
  size?: number;
}

/**
 * `/api/<service>/<resource>/<verb>`; `service` is the Blade service segment such as
 * `blade-system` or `blade-pms`.
 */
export function resourcePath(service: string, resource: string, verb: string): string {
  return `/api/${service}/${resource}/${verb}`;
}

/** The generic verbs every plain resource shares (spec §7 conventions). */
export function resourceApi(http: Http) {
  return {
    get<T>(path: string, query?: QueryParams): Promise<T> {
      return http.envelope<T>(path, { query });
    },
    /** POST with a JSON body, or with query parameters only when body is undefined. */
    post<T>(path: string, body?: unknown, query?: QueryParams): Promise<T> {
      return http.envelope<T>(path, { method: "POST", body, query });
    },
    page<T>(service: string, resource: string, params: PageParams = {}, verb = "page"): Promise<Page<T>> {
      return http.envelope<Page<T>>(resourcePath(service, resource, verb), { query: compactFilters(params) });
    },
    list<T>(service: string, resource: string, params: QueryParams = {}): Promise<T> {
      return http.envelope<T>(resourcePath(service, resource, "list"), { query: compactFilters(params) });
    },
    detail<T>(service: string, resource: string, id: string): Promise<T> {
      return http.envelope<T>(resourcePath(service, resource, "detail"), { query: { id } });
    },
    /** Create when the body has no id, update otherwise (one path, contract §1). */
    submit<T = unknown>(service: string, resource: string, body: object): Promise<T> {
      return http.envelope<T>(resourcePath(service, resource, "submit"), { method: "POST", body });
    },
    remove(service: string, resource: string, ids: readonly string[]): Promise<unknown> {
      return http.envelope<unknown>(resourcePath(service, resource, "remove"), {
        method: "POST",
        query: { ids },
      });
    },
  };
}

import { accessApi } from "./access.ts";
import { authApi } from "./auth.ts";
import { crudApi } from "./crud.ts";
import { createHttp, type HttpOptions } from "./http.ts";
import { menuApi } from "./menu.ts";
import { profileApi } from "./profile.ts";
import { resourceApi } from "./resource.ts";
import { systemApi } from "./system.ts";

export type ApiClientOptions = HttpOptions;

/**
 * The console's one door to the server. Every URL, header and envelope rule lives behind it.
 *
 * @example
 * const api = createApiClient({ baseUrl: "", getToken: () => token, onUnauthorized: logout });
 * const menus = await api.routes();
 */
export function createApiClient(options: ApiClientOptions) {
  const http = createHttp(options);
  return {
    ...authApi(http),
    ...menuApi(http),
    ...systemApi(http),
    ...resourceApi(http),
    ...crudApi(http),
    ...accessApi(http),
    ...profileApi(http),
    /** Escape hatch for calls that are not enveloped. */
    request: http.request,
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;

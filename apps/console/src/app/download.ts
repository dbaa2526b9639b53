import { type QueryParams, withQuery } from "@meterline/api-client";
import { website } from "@meterline/contracts";
import { store } from "../store/store.ts";

/** The current access token, or "" when signed out. */
export const currentToken = () => store.getState().token?.content ?? "";

/**
 * A same-origin path that carries the token as `Blade-Auth` in its query: a download is fetched
 * by the browser itself, which cannot add headers (contract §3.3).
 */
export const withToken = (path: string, query: QueryParams = {}) =>
  withQuery(path, { ...query, [website.tokenHeader]: currentToken() });

/**
 * Starts a browser download of `href` and keeps the console on its page (no blank window).
 * Attachments download anyway; `download` also makes files served inline download (stored
 * files), under the name the server gives them.
 */
export function startDownload(href: string): void {
  const link = document.createElement("a");
  link.href = href;
  link.download = "";
  link.click();
}

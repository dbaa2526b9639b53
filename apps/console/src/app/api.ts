import { type ApiClientOptions, createApiClient, isApiError } from "@meterline/api-client";
import { translate } from "../i18n/index.tsx";
import { clearSession } from "../store/session.ts";
import { store } from "../store/store.ts";
import { feedback } from "./feedback.ts";
import { progressFetch } from "./progress-fetch.ts";

/** Body codes rejected silently (spec §8 whitelist); none are needed yet. */
const statusWhitelist: number[] = [];

const options: ApiClientOptions = {
  baseUrl: "",
  // A production server refuses the published client secret: the console is built with the
  // server's CLIENT_SECRET (`CLIENT_SECRET=… npm run build`); without it, the embedded default's.
  // (`import.meta.env` exists only in Vite's build; unit tests import this module without it.)
  ...(import.meta.env?.CLIENT_SECRET ? { clientSecret: import.meta.env.CLIENT_SECRET } : {}),
  getToken: () => store.getState().token?.content ?? "",
  onUnauthorized: clearSession,
  onError: (message) => {
    feedback().message.error(message);
  },
  whitelist: statusWhitelist,
};

/** The console's API client: token from the store, 401 → local logout, other failures → toast. */
export const api = createApiClient(options);

/**
 * The same client for one upload whose progress is shown: it reports the percentage of the file
 * sent, and waits `timeoutMs` because the server works through the whole file before it answers.
 */
export const uploadingApi = (onProgress: (percent: number) => void, timeoutMs: number) =>
  createApiClient({ ...options, fetch: progressFetch(onProgress), timeoutMs });

/**
 * The same client for a call the server answers only once something outside has happened (a
 * scanned payment code the owner confirms on the phone), so it waits `timeoutMs` instead.
 */
export const patientApi = (timeoutMs: number) => createApiClient({ ...options, timeoutMs });

/** The text to show for a failed call; server messages were already toasted by onError. */
export function describeError(error: unknown): string {
  const language = store.getState().language;
  if (isApiError(error)) {
    if (error.kind === "timeout") return translate(language, "network.timeout");
    if (error.kind === "network") return translate(language, "network.error");
    return error.message;
  }
  return error instanceof Error ? error.message : String(error);
}

/** Toasts transport failures, which the client does not report itself (it only rejects). */
export function reportNetworkError(error: unknown): void {
  if (isApiError(error) && (error.kind === "network" || error.kind === "timeout")) {
    feedback().message.error(describeError(error));
  }
}

import { isApiError } from "@meterline/api-client";
import { isValidationFailure } from "../crud/validated.ts";
import { addLog } from "../store/logs.ts";

/** Browser noise that is not an error of ours. */
const ignored = [/ResizeObserver loop/i];

function onError(event: ErrorEvent): void {
  if (ignored.some((pattern) => pattern.test(event.message))) return;
  const error = event.error instanceof Error ? event.error : null;
  addLog({
    type: "error",
    url: window.location.href,
    message: event.message || error?.message || "",
    stack: error?.stack ?? "",
    info: event.filename ? `${event.filename}:${event.lineno}:${event.colno}` : "",
  });
}

function onRejection(event: PromiseRejectionEvent): void {
  const reason: unknown = event.reason;
  // Failed API calls were already reported to the user (toast or logout); they are not bugs.
  if (isApiError(reason)) return;
  // A form whose fields failed their rules (antd's `errorFields`) already says why, under the fields.
  if (isValidationFailure(reason)) return;
  const error = reason instanceof Error ? reason : null;
  addLog({
    type: "error",
    url: window.location.href,
    message: error?.message ?? String(reason),
    stack: error?.stack ?? "",
    info: "unhandledrejection",
  });
}

/** Uncaught errors and rejections go to the local error log (spec §8). */
export function installErrorCapture(): () => void {
  window.addEventListener("error", onError);
  window.addEventListener("unhandledrejection", onRejection);
  return () => {
    window.removeEventListener("error", onError);
    window.removeEventListener("unhandledrejection", onRejection);
  };
}

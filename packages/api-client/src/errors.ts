/**
 * Why a call failed. `http`: the server answered with a non-200 code (body code or HTTP status);
 * `whitelisted`: the code is on the caller's whitelist, so nobody was told; `network`: no usable
 * answer (connection refused, HTTP status outside 200–500, unreadable body); `timeout`: no answer
 * within the request timeout.
 */
export type ApiErrorKind = "http" | "whitelisted" | "network" | "timeout";

/** The one error type every api-client call rejects with. */
export class ApiError extends Error {
  override readonly name = "ApiError";
  readonly kind: ApiErrorKind;
  /** Body code, else HTTP status; 0 when there was no answer. */
  readonly status: number;
  /** The parsed body when there was one (envelope, OAuth2 error, …). */
  readonly body: unknown;

  constructor(kind: ApiErrorKind, status: number, message: string, body?: unknown) {
    super(message);
    this.kind = kind;
    this.status = status;
    this.body = body;
  }
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}

export const UNKNOWN_ERROR = "未知错误";

/** The server's own message of a failed answer, "" when it gave none. */
export function serverMessageOf(body: unknown): string {
  if (body && typeof body === "object") {
    const { msg, error_description } = body as { msg?: unknown; error_description?: unknown };
    if (typeof msg === "string" && msg) return msg;
    if (typeof error_description === "string" && error_description) return error_description;
  }
  return "";
}

/** The message the console shows for a failed answer (spec §8). */
export function messageOf(body: unknown): string {
  return serverMessageOf(body) || UNKNOWN_ERROR;
}

import { website } from "@meterline/contracts";
import { ApiError, messageOf } from "./errors.ts";
import { type QueryParams, withQuery } from "./query.ts";

export interface HttpOptions {
  /** Prefix put before every `/api/...` path; "" for same origin. */
  baseUrl: string;
  /** The current access token, or "" when logged out. */
  getToken?: () => string | null | undefined;
  /** Called once per 401 answer (body code or HTTP status); the console logs out. */
  onUnauthorized?: () => void;
  /** Called for every other non-200 answer with the message to show. */
  onError?: (message: string, error: ApiError) => void;
  /** Codes rejected silently: no onError, no onUnauthorized. */
  whitelist?: readonly number[];
  timeoutMs?: number;
  clientId?: string;
  clientSecret?: string;
  /** Injected for tests; defaults to the global fetch. */
  fetch?: typeof fetch;
}

export interface RequestOptions {
  method?: "GET" | "POST";
  query?: QueryParams;
  /** Sent as JSON when present; FormData (uploads) is sent as multipart. */
  body?: unknown;
  headers?: Record<string, string>;
  /** Send `Blade-Auth` with the current token (default true). */
  auth?: boolean;
  /** Skip onError: the caller shows its own message (401 still logs out). */
  silent?: boolean;
  signal?: AbortSignal;
}

export interface Http {
  /** Performs a call and applies the status rule; resolves with the parsed body. */
  request(path: string, options?: RequestOptions): Promise<unknown>;
  /** Like request, for enveloped answers: resolves with `body.data`. */
  envelope<T>(path: string, options?: RequestOptions): Promise<T>;
  /** Lets the token endpoint report its own 200-with-error_description failures the usual way. */
  fail(error: ApiError, silent?: boolean): never;
}

type Body = Record<string, unknown> | string | undefined;

function basicHeader(id: string, secret: string): string {
  return `Basic ${btoa(`${id}:${secret}`)}`;
}

async function readBody(response: Response): Promise<Body> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return text;
  }
}

/** Body code wins over HTTP status (spec §8); a string code such as "200" counts too. */
function statusOf(body: Body, httpStatus: number): number {
  if (body && typeof body === "object") {
    const code = Number(body.code);
    if (Number.isFinite(code) && code > 0) return code;
  }
  return httpStatus;
}

function bodyOf(body: unknown): BodyInit | undefined {
  if (body === undefined) return undefined;
  return body instanceof FormData ? body : JSON.stringify(body);
}

export function createHttp(options: HttpOptions): Http {
  const fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
  const timeoutMs = options.timeoutMs ?? website.requestTimeoutMs;
  const whitelist = new Set(options.whitelist ?? []);
  const authorization = basicHeader(
    options.clientId ?? website.clientId,
    options.clientSecret ?? website.clientSecret,
  );

  function fail(error: ApiError, silent = false): never {
    if (error.kind === "http") {
      if (error.status === 401) options.onUnauthorized?.();
      else if (!silent) options.onError?.(error.message, error);
    }
    throw error;
  }

  function headersFor(call: RequestOptions): Record<string, string> {
    const headers: Record<string, string> = { Authorization: authorization, ...call.headers };
    const token = call.auth === false ? "" : (options.getToken?.() ?? "");
    if (token) headers[website.tokenHeader] = `bearer ${token}`;
    // FormData sets its own multipart boundary, so no Content-Type is given for it.
    if (call.body !== undefined && !(call.body instanceof FormData))
      headers["Content-Type"] = "application/json";
    return headers;
  }

  /** Sends the call and reads the whole body, both within the request timeout. */
  async function send(path: string, call: RequestOptions): Promise<{ status: number; body: Body }> {
    const controller = new AbortController();
    const onCallerAbort = () => controller.abort(call.signal?.reason);
    call.signal?.addEventListener("abort", onCallerAbort, { once: true });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    try {
      const response = await fetchImpl(`${options.baseUrl}${withQuery(path, call.query)}`, {
        method: call.method ?? "GET",
        headers: headersFor(call),
        body: bodyOf(call.body),
        credentials: "include",
        signal: controller.signal,
      });
      return { status: response.status, body: await readBody(response) };
    } catch (cause) {
      if (timedOut) throw new ApiError("timeout", 0, `timeout after ${timeoutMs} ms`);
      const reason = cause instanceof Error ? cause.message : String(cause);
      throw new ApiError("network", 0, reason);
    } finally {
      clearTimeout(timer);
      call.signal?.removeEventListener("abort", onCallerAbort);
    }
  }

  async function request(path: string, call: RequestOptions = {}): Promise<unknown> {
    const { status: httpStatus, body } = await send(path, call);
    // Statuses 200–500 are answers to interpret; anything else is a broken transport (spec §8).
    if (httpStatus < 200 || httpStatus > 500) {
      throw new ApiError("network", httpStatus, `HTTP ${httpStatus}`, body);
    }
    const status = statusOf(body, httpStatus);
    if (status === 200) return body;
    if (whitelist.has(status)) throw new ApiError("whitelisted", status, messageOf(body), body);
    return fail(new ApiError("http", status, messageOf(body), body), call.silent);
  }

  async function envelope<T>(path: string, call?: RequestOptions): Promise<T> {
    const body = await request(path, call);
    if (!body || typeof body !== "object" || !("data" in body)) {
      throw new ApiError("network", 200, "unexpected response: no envelope", body);
    }
    return (body as { data: T }).data;
  }

  return { request, envelope, fail };
}

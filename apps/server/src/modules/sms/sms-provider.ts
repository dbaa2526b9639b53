/**
 * What every SMS provider offers the sender: one template message to some phones. The outcome
 * carries MSG_RESULT (0 fail, 1 success, 2 timeout to be confirmed) and whether sending again may
 * succeed, so that a queue can retry what failed for a passing reason.
 */

/** The settings one send needs, secret in the clear (decrypted just before sending). */
export interface SmsSettings {
  accessKey: string;
  secretKey: string;
  signName: string;
  templateId: string;
  regionId?: string;
  appId?: string;
  endpoint?: string;
}

export interface SmsMessage {
  /** Mainland mobile numbers, 11 digits each. */
  phones: readonly string[];
  /** Template variables, in the template's order. */
  params: Readonly<Record<string, string>>;
}

export const MSG_RESULT = { fail: 0, success: 1, unconfirmed: 2 } as const;
export type MsgResult = (typeof MSG_RESULT)[keyof typeof MSG_RESULT];

export interface SendOutcome {
  result: MsgResult;
  /** Sending again may succeed (network failure, time-out, throttling, provider-side error). */
  retryable: boolean;
  /** The provider's code (OK, isv.MOBILE_NUMBER_ILLEGAL, FailedOperation...), when it answered. */
  providerCode?: string;
  /** A short reason for the operator when the send failed. */
  error?: string;
  /** The provider's answer as received, for the send record. */
  answer?: string;
}

export interface SmsProvider {
  send(settings: SmsSettings, message: SmsMessage): Promise<SendOutcome>;
}

export interface HttpAnswer {
  status: number;
  body: string;
}

/** How long a provider may take before the send counts as "to be confirmed". */
export const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * POSTs and reads the whole answer. A time-out or a broken connection is not an error thrown at
 * the caller but an outcome: the message may or may not have gone out.
 */
export async function post(
  url: string,
  init: { headers: Record<string, string>; body: string },
  timeoutMs: number,
): Promise<HttpAnswer | SendOutcome> {
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: init.headers,
      body: init.body,
      signal: AbortSignal.timeout(timeoutMs),
      redirect: "manual",
    });
    return { status: response.status, body: await response.text() };
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
    return timedOut
      ? { result: MSG_RESULT.unconfirmed, retryable: true, error: `短信服务商 ${timeoutMs} 毫秒内未应答` }
      : { result: MSG_RESULT.fail, retryable: true, error: `无法连接短信服务商: ${messageOf(error)}` };
  }
}

export const isOutcome = (value: HttpAnswer | SendOutcome): value is SendOutcome => "result" in value;

/** A provider's HTTP answer with its body parsed as JSON (undefined when it is not JSON). */
export interface ProviderAnswer extends HttpAnswer {
  json: Record<string, unknown> | undefined;
}

/**
 * The round trip every provider makes: POST the signed request within the time limit, parse the
 * answer, let the provider read its own codes from it, and keep a short copy for the send record.
 * A time-out or a lost connection comes back as a retryable outcome without calling `read`.
 */
export async function exchange(
  request: { url: string; headers: Record<string, string>; body: string; timeoutMs: number },
  read: (answer: ProviderAnswer) => Omit<SendOutcome, "answer">,
): Promise<SendOutcome> {
  const answer = await post(request.url, request, request.timeoutMs);
  if (isOutcome(answer)) return answer;
  return { ...read({ ...answer, json: parseJson(answer.body) }), answer: clip(answer.body) };
}

/**
 * Whether a provider address may be used: in production (NODE_ENV=production) only https, so that
 * signed requests and phone numbers never cross the network in clear; blank is the public https one.
 */
export function endpointAllowed(endpoint: string | null | undefined, env = process.env.NODE_ENV): boolean {
  if (!endpoint || env !== "production") return true;
  return /^https:\/\//i.test(endpoint);
}

export const ENDPOINT_HTTPS_ONLY = "endpoint: 生产环境只允许 https 地址";

function messageOf(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as Error & { cause?: unknown }).cause;
    return cause instanceof Error ? cause.message : error.message;
  }
  return String(error);
}

/** The answer parsed as JSON, or undefined when it is not JSON (a proxy's error page). */
export function parseJson(body: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(body);
    return value && typeof value === "object" ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** A short copy of an answer for the record. */
export const clip = (text: string, length = 2000) =>
  text.length > length ? `${text.slice(0, length)}…` : text;

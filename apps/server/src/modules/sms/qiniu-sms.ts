import { createHmac } from "node:crypto";
import {
  DEFAULT_TIMEOUT_MS,
  exchange,
  MSG_RESULT,
  type SendOutcome,
  type SmsMessage,
  type SmsProvider,
  type SmsSettings,
} from "./sms-provider.ts";

export const QINIU_ENDPOINT = "https://sms.qiniuapi.com/v1/message";

/**
 * Qiniu's management signature of one request (its "Qiniu" token): HMAC-SHA1 with the secret key
 * over `METHOD path?query`, the Host and Content-Type lines, a blank line and the JSON body, in
 * URL-safe base64, after the access key.
 */
export function qiniuAuthorization(
  keys: { accessKey: string; secretKey: string },
  request: { method: string; url: string; contentType: string; body: string },
): string {
  const url = new URL(request.url);
  const signed = `${request.method} ${url.pathname}${url.search}\nHost: ${url.host}\nContent-Type: ${request.contentType}\n\n${request.body}`;
  const digest = createHmac("sha1", keys.secretKey).update(signed).digest("base64url");
  // Qiniu's URL-safe base64 keeps its padding.
  const padded = digest + "=".repeat((4 - (digest.length % 4)) % 4);
  return `Qiniu ${keys.accessKey}:${padded}`;
}

/**
 * Qiniu (七牛云) template SMS, POST /v1/message with JSON. The signature is bound to the template
 * in Qiniu's console; a sign name that is a Qiniu signature id (digits) is sent as signature_id.
 * Success is a job id.
 */
export class QiniuSmsProvider implements SmsProvider {
  constructor(private readonly options: { timeoutMs?: number } = {}) {}

  send(settings: SmsSettings, message: SmsMessage): Promise<SendOutcome> {
    const url = settings.endpoint || QINIU_ENDPOINT;
    const body = JSON.stringify({
      template_id: settings.templateId,
      mobiles: message.phones,
      parameters: message.params,
      ...(/^\d+$/.test(settings.signName) ? { signature_id: settings.signName } : {}),
    });
    const contentType = "application/json";
    return exchange(
      {
        url,
        headers: {
          "content-type": contentType,
          authorization: qiniuAuthorization(settings, { method: "POST", url, contentType, body }),
        },
        body,
        timeoutMs: this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      },
      ({ status, json }) => {
        const jobId = typeof json?.job_id === "string" ? json.job_id : undefined;
        if (status === 200 && jobId)
          return { result: MSG_RESULT.success, retryable: false, providerCode: "OK" };
        const code = typeof json?.error === "string" ? json.error : undefined;
        const text = typeof json?.message === "string" ? json.message : "";
        return {
          result: MSG_RESULT.fail,
          // Its own faults and throttling may pass; a refused key, template or number will not.
          retryable: status >= 500 || status === 429,
          providerCode: code,
          error: `七牛云短信: ${code ?? `HTTP ${status}`}${text ? ` ${text}` : ""}`,
        };
      },
    );
  }
}

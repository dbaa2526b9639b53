import { randomUUID } from "node:crypto";
import { aliyunSignature } from "./aliyun-signature.ts";
import {
  DEFAULT_TIMEOUT_MS,
  exchange,
  MSG_RESULT,
  type SendOutcome,
  type SmsMessage,
  type SmsProvider,
  type SmsSettings,
} from "./sms-provider.ts";

export const ALIYUN_ENDPOINT = "https://dysmsapi.aliyuncs.com/";

/** Codes after which the same request may go through later: throttling and Aliyun's own faults. */
const RETRYABLE_CODES = new Set([
  "isv.BUSINESS_LIMIT_CONTROL",
  "Throttling",
  "Throttling.User",
  "ServiceUnavailable",
  "InternalError",
  "isp.RAM_PERMISSION_DENY",
  "isp.SYSTEM_ERROR",
]);

export interface AliyunOptions {
  timeoutMs?: number;
  /** Clock and nonce, fixed in tests. */
  now?: () => Date;
  nonce?: () => string;
}

/** The ISO 8601 UTC time Aliyun asks for, to the second: 2017-07-12T02:42:19Z. */
export const aliyunTimestamp = (date: Date) => `${date.toISOString().slice(0, 19)}Z`;

/** The signed form parameters of one SendSms call (RPC style, version 2017-05-25). */
export function sendSmsParams(
  settings: SmsSettings,
  message: SmsMessage,
  at: Date,
  nonce: string,
): Record<string, string> {
  const params: Record<string, string> = {
    AccessKeyId: settings.accessKey,
    Action: "SendSms",
    Format: "JSON",
    PhoneNumbers: message.phones.join(","),
    RegionId: settings.regionId || "cn-hangzhou",
    SignName: settings.signName,
    SignatureMethod: "HMAC-SHA1",
    SignatureNonce: nonce,
    SignatureVersion: "1.0",
    TemplateCode: settings.templateId,
    Timestamp: aliyunTimestamp(at),
    Version: "2017-05-25",
  };
  if (Object.keys(message.params).length > 0) params.TemplateParam = JSON.stringify(message.params);
  params.Signature = aliyunSignature("POST", params, settings.secretKey);
  return params;
}

/** Aliyun SMS (dysmsapi SendSms), POSTed as a form; the answer's Code is "OK" on success. */
export class AliyunSmsProvider implements SmsProvider {
  constructor(private readonly options: AliyunOptions = {}) {}

  async send(settings: SmsSettings, message: SmsMessage): Promise<SendOutcome> {
    const params = sendSmsParams(
      settings,
      message,
      (this.options.now ?? (() => new Date()))(),
      (this.options.nonce ?? randomUUID)(),
    );
    return exchange(
      {
        url: settings.endpoint || ALIYUN_ENDPOINT,
        headers: {
          "content-type": "application/x-www-form-urlencoded; charset=utf-8",
          accept: "application/json",
        },
        body: new URLSearchParams(params).toString(),
        timeoutMs: this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      },
      ({ status, json }) => {
        const code = typeof json?.Code === "string" ? json.Code : undefined;
        const text = typeof json?.Message === "string" ? json.Message : undefined;
        if (status === 200 && code === "OK")
          return { result: MSG_RESULT.success, retryable: false, providerCode: code };
        return {
          result: MSG_RESULT.fail,
          retryable: status >= 500 || (code !== undefined && RETRYABLE_CODES.has(code)),
          providerCode: code,
          error: `阿里云短信: ${code ?? `HTTP ${status}`}${text ? ` ${text}` : ""}`,
        };
      },
    );
  }
}

import {
  DEFAULT_TIMEOUT_MS,
  exchange,
  MSG_RESULT,
  type ProviderAnswer,
  type SendOutcome,
  type SmsMessage,
  type SmsProvider,
  type SmsSettings,
} from "./sms-provider.ts";

export const YUNPIAN_ENDPOINT = "https://sms.yunpian.com/v2/sms/tpl_batch_send.json";

/**
 * Yunpian's codes after which the same request may go through later: the same content to one
 * number too often (8, 9), a number's hourly or daily limit (22, 33) and its own faults (-50 and
 * below are account problems an operator must mend, not retried).
 */
const RETRYABLE_CODES = new Set([8, 9, 22, 33]);

/**
 * The template variables as Yunpian reads them: `#name#=value` pairs, each side URL-encoded, joined
 * by `&` (the whole string is then encoded once more as a form field).
 */
export function yunpianTemplateValue(params: Readonly<Record<string, string>>): string {
  return Object.entries(params)
    .map(([key, value]) => `${encodeURIComponent(`#${key}#`)}=${encodeURIComponent(value)}`)
    .join("&");
}

/**
 * Yunpian (云片) template SMS, tpl_batch_send: the API key is the settings' secret (kept encrypted),
 * the template id Yunpian's tpl_id; the signature is part of Yunpian's template. Every number's item
 * must answer code 0.
 */
export class YunpianSmsProvider implements SmsProvider {
  constructor(private readonly options: { timeoutMs?: number } = {}) {}

  send(settings: SmsSettings, message: SmsMessage): Promise<SendOutcome> {
    const form = new URLSearchParams({
      apikey: settings.secretKey,
      mobile: message.phones.join(","),
      tpl_id: settings.templateId,
      tpl_value: yunpianTemplateValue(message.params),
    });
    return exchange(
      {
        url: settings.endpoint || YUNPIAN_ENDPOINT,
        headers: {
          "content-type": "application/x-www-form-urlencoded;charset=utf-8",
          accept: "application/json;charset=utf-8",
        },
        body: form.toString(),
        timeoutMs: this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      },
      readAnswer,
    );
  }
}

interface Item {
  code?: number;
  msg?: string;
  mobile?: string;
}

function readAnswer({ status, json }: ProviderAnswer): Omit<SendOutcome, "answer"> {
  const items = Array.isArray(json?.data) ? (json.data as Item[]) : undefined;
  if (status !== 200 || !items) {
    // The whole request was refused: a bad key, a missing template, the account's balance.
    const code = typeof json?.code === "number" ? json.code : undefined;
    const text = typeof json?.msg === "string" ? json.msg : "";
    return {
      result: MSG_RESULT.fail,
      retryable: status >= 500 || (code !== undefined && RETRYABLE_CODES.has(code)),
      providerCode: code === undefined ? undefined : String(code),
      error: `云片短信: ${code ?? `HTTP ${status}`}${text ? ` ${text}` : ""}`,
    };
  }
  const refused = items.filter((item) => item.code !== 0);
  if (items.length === 0 || refused.length > 0) {
    const first = refused[0];
    return {
      result: MSG_RESULT.fail,
      retryable: refused.length > 0 && refused.every((item) => RETRYABLE_CODES.has(item.code ?? -1)),
      providerCode: first ? String(first.code) : undefined,
      error: `云片短信: ${first ? `${first.mobile ?? ""} ${first.code} ${first.msg ?? ""}`.trim() : "未返回发送结果"}`,
    };
  }
  return { result: MSG_RESULT.success, retryable: false, providerCode: "0" };
}

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
import { JSON_CONTENT_TYPE, tc3Authorization } from "./tencent-tc3.ts";

export const TENCENT_ENDPOINT = "https://sms.tencentcloudapi.com/";
const VERSION = "2021-01-11";

/** Error codes after which the same request may go through later. */
const RETRYABLE =
  /^(InternalError|RequestLimitExceeded|LimitExceeded|FailedOperation\.(?:Frequency|Phone.*Limit)|ResourceUnavailable)/;

export interface TencentOptions {
  timeoutMs?: number;
  /** Seconds since the epoch, fixed in tests. */
  now?: () => number;
}

/** The JSON body of SendSms: numbers in E.164, the template's values in the order given. */
export function sendSmsBody(settings: SmsSettings, message: SmsMessage): string {
  return JSON.stringify({
    PhoneNumberSet: message.phones.map((phone) => `+86${phone}`),
    SmsSdkAppId: settings.appId ?? "",
    SignName: settings.signName,
    TemplateId: settings.templateId,
    TemplateParamSet: Object.values(message.params),
  });
}

/** Tencent Cloud SMS (API 3.0 SendSms), signed with TC3-HMAC-SHA256. */
export class TencentSmsProvider implements SmsProvider {
  constructor(private readonly options: TencentOptions = {}) {}

  async send(settings: SmsSettings, message: SmsMessage): Promise<SendOutcome> {
    const endpoint = new URL(settings.endpoint || TENCENT_ENDPOINT);
    const payload = sendSmsBody(settings, message);
    const timestamp = (this.options.now ?? (() => Math.floor(Date.now() / 1000)))();
    const authorization = tc3Authorization(
      { service: "sms", host: endpoint.host, timestamp, payload },
      settings.accessKey,
      settings.secretKey,
    );
    return exchange(
      {
        url: endpoint.toString(),
        headers: {
          authorization,
          "content-type": JSON_CONTENT_TYPE,
          "x-tc-action": "SendSms",
          "x-tc-version": VERSION,
          "x-tc-timestamp": String(timestamp),
          "x-tc-region": settings.regionId || "ap-guangzhou",
        },
        body: payload,
        timeoutMs: this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      },
      readAnswer,
    );
  }
}

/** What Tencent Cloud answered: an error of the call, or one status per number that must all be "Ok". */
function readAnswer({ status, json }: ProviderAnswer): Omit<SendOutcome, "answer"> {
  const response = json?.Response as Record<string, unknown> | undefined;
  const failure = response?.Error as { Code?: string; Message?: string } | undefined;
  if (status !== 200 || !response || failure) {
    const code = failure?.Code;
    return {
      result: MSG_RESULT.fail,
      retryable: status >= 500 || (code !== undefined && RETRYABLE.test(code)),
      providerCode: code,
      error: `腾讯云短信: ${code ?? `HTTP ${status}`}${failure?.Message ? ` ${failure.Message}` : ""}`,
    };
  }
  const statuses = (response.SendStatusSet ?? []) as {
    Code?: string;
    Message?: string;
    PhoneNumber?: string;
  }[];
  const refused = statuses.filter((one) => one.Code !== "Ok");
  if (statuses.length === 0 || refused.length > 0) {
    const first = refused[0];
    return {
      result: MSG_RESULT.fail,
      retryable: refused.length > 0 && refused.every((one) => RETRYABLE.test(one.Code ?? "")),
      providerCode: first?.Code,
      error: `腾讯云短信: ${first ? `${first.PhoneNumber ?? ""} ${first.Code} ${first.Message ?? ""}`.trim() : "未返回发送状态"}`,
    };
  }
  return { result: MSG_RESULT.success, retryable: false, providerCode: "Ok" };
}

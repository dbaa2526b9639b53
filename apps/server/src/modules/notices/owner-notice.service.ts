import { ApiError } from "../../contract/errors.ts";
import type { FieldCipher } from "../../crud/field-cipher.ts";
import type { Db } from "../../db/client.ts";
import type { SmsProvider } from "../sms/sms-provider.ts";
import { sendMessage } from "../sms/sms-send.ts";
import { type AttemptEnd, endAttempt, MESSAGE_STATE, messageById } from "./owner-notice.repository.ts";

/** How long a failed send waits before the next attempt: doubling from `baseSeconds` up to `maxSeconds`. */
export interface Backoff {
  baseSeconds: number;
  maxSeconds: number;
}

export const DEFAULT_BACKOFF: Backoff = { baseSeconds: 30, maxSeconds: 3600 };

/** The wait after the `attempt`-th failure (1-based). */
export function retryDelaySeconds(attempt: number, backoff: Backoff): number {
  const doubled = backoff.baseSeconds * 2 ** Math.min(Math.max(attempt - 1, 0), 30);
  return Math.min(doubled, backoff.maxSeconds);
}

export interface Delivery {
  db: Db;
  cipher: FieldCipher;
  providers: Readonly<Record<number, SmsProvider>>;
  backoff: Backoff;
  now?: () => Date;
}

/**
 * One attempt of a queued message, run by the job `jobId`: sends it through the tenant's enabled
 * provider (the send is recorded in sms_send_log with the provider's answer), then notes the
 * outcome on the message. A provider failure that may pass (error, time-out, throttling) schedules
 * the next attempt with backoff, without limit: the message is never dropped. A refusal no retry
 * mends (no enabled provider, a rejected number) leaves it failed, for an operator to resubmit.
 * A job that is no longer the message's (removed, resubmitted, already sent) does nothing.
 */
export async function deliverNotice(
  delivery: Delivery,
  messageId: string,
  jobId: string,
): Promise<AttemptEnd | undefined> {
  const { db } = delivery;
  const message = await messageById(db, messageId);
  if (!message || message.is_deleted === 1 || message.job_id !== jobId) return undefined;
  if (message.state === MESSAGE_STATE.sent || message.state === MESSAGE_STATE.failed) return undefined;
  const attempts = message.attempts + 1;
  let end: AttemptEnd;
  try {
    const sent = await sendMessage(
      db,
      delivery.cipher,
      delivery.providers,
      { tenantId: message.tenant_id },
      {
        code: undefined,
        phones: [message.phone ?? ""],
        params: JSON.parse(message.template_params ?? "{}") as Record<string, string>,
        messageId,
        attempt: attempts,
      },
    );
    const error = sent.error ?? "发送失败";
    if (sent.result === 1) end = { kind: "sent", smsLogId: sent.id };
    else if (sent.retryable) {
      const now = (delivery.now ?? (() => new Date()))();
      const nextAt = new Date(now.getTime() + retryDelaySeconds(attempts, delivery.backoff) * 1000);
      end = { kind: "retry", error, smsLogId: sent.id, nextAt };
    } else end = { kind: "failed", error, smsLogId: sent.id };
  } catch (error) {
    // The tenant's settings refuse the send (none enabled, unreadable secret, http in production).
    if (!(error instanceof ApiError) || error.status !== 400) throw error;
    // The refusal names the setting's field for the API caller ("code: 未启用短信配置"); the
    // message shows the reason alone.
    end = { kind: "failed", error: error.message.replace(/^\w+: /, ""), smsLogId: null };
  }
  await endAttempt(db, { id: messageId, jobId, attempts }, end);
  return end;
}

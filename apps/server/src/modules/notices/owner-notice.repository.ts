import type { Queryable } from "../../db/client.ts";
import { nextId } from "../../db/ids.ts";
import { roomLabelSql } from "../pms/room-label.ts";

/** MESSAGE_STATE of an owner notification (dictionary message_state, seed 023). */
export const MESSAGE_STATE = { queued: 1, retrying: 2, sent: 3, failed: 4 } as const;

/** A mainland mobile number (spec §5): a notification to anything else fails at once, named. */
const MOBILE = "^1[3-9][0-9]{9}$";

export interface BalanceAlarm {
  tenantId: string;
  recordId: string;
  ownerId: string;
  energyType: 1 | 2;
  meterId: string;
  ruleCode: string;
  /** ALARM_LEVEL: 1 low, 2 severely low, 3 arrears. */
  level: number;
  at: Date;
  /** The tenants' zone: its midnights divide the days a notification is sent at most once in. */
  timeZone: string;
}

/**
 * Queues the SMS to the owner of a raised balance alarm, in the transaction that raised it, unless
 * the owner already has one of that level for that local day (removed ones count too). The
 * template values are the owner's name, the room of the meter's account as the console names it
 * (building included: "2号楼 101", never a bare "101" several buildings have) and its balance in
 * yuan, in that order (Tencent Cloud templates take them by position). Answers the new message's id.
 */
export async function queueOwnerNotice(tx: Queryable, alarm: BalanceAlarm): Promise<string | undefined> {
  const rows = await tx.query<{ id: string }>(
    `insert into pms_message_queue (id, tenant_id, owner_id, owner_name, phone, record_id, rule_code, alarm_level,
       notify_day, template_params, state, last_error, job_id, dispatched)
     select $1, o.tenant_id, o.id, o.owner_name, o.phone, $3, $4, $5, ($6::timestamptz at time zone $7)::date,
            json_build_object('name', o.owner_name, 'room', ${roomLabelSql("r")},
                              'balance', (coalesce(a.balance, 0) / 100.0)::numeric(14, 2)::text)::text,
            case when coalesce(o.phone, '') ~ $11 then 1 else 4 end,
            case when coalesce(o.phone, '') ~ $11 then null else '业主未登记有效的手机号码' end,
            gen_random_uuid()::text,
            case when coalesce(o.phone, '') ~ $11 then 0 else 1 end
       from pms_owner o
       left join pms_account a on a.tenant_id = o.tenant_id and a.energy_type = $8 and a.meter_id = $9 and a.status = 1
       left join pms_room r on r.id = a.room_id and r.tenant_id = o.tenant_id
      where o.id = $10 and o.tenant_id = $2 and o.is_deleted = 0
     on conflict (tenant_id, owner_id, alarm_level, notify_day) do nothing
     returning id::text as id`,
    [
      nextId(),
      alarm.tenantId,
      alarm.recordId,
      alarm.ruleCode,
      alarm.level,
      alarm.at,
      alarm.timeZone,
      alarm.energyType,
      alarm.meterId,
      alarm.ownerId,
      MOBILE,
    ],
  );
  return rows[0]?.id;
}

/** A message waiting to be handed to the job queue: a new one, or one whose retry is scheduled. */
export interface Undispatched {
  id: string;
  tenant_id: string;
  job_id: string;
  next_attempt_time: Date | null;
}

export function undispatched(db: Queryable, limit: number): Promise<Undispatched[]> {
  return db.query<Undispatched>(
    `select id::text as id, tenant_id, job_id, next_attempt_time from pms_message_queue
      where dispatched = 0 and is_deleted = 0 and state in (1, 2) order by id limit $1`,
    [limit],
  );
}

export async function markDispatched(db: Queryable, id: string, jobId: string): Promise<void> {
  await db.query("update pms_message_queue set dispatched = 1 where id = $1 and job_id = $2", [id, jobId]);
}

export interface QueuedMessage {
  id: string;
  tenant_id: string;
  phone: string | null;
  template_params: string | null;
  state: number;
  attempts: number;
  job_id: string;
  is_deleted: number;
}

export async function messageById(db: Queryable, id: string): Promise<QueuedMessage | undefined> {
  const [row] = await db.query<QueuedMessage>(
    `select id::text as id, tenant_id, phone, template_params, state, attempts, job_id, is_deleted
       from pms_message_queue where id = $1`,
    [id],
  );
  return row;
}

/** What one attempt ended in, written only while `jobId` is still the message's job. */
export type AttemptEnd =
  | { kind: "sent"; smsLogId: string }
  | { kind: "retry"; error: string; smsLogId: string | null; nextAt: Date }
  | { kind: "failed"; error: string; smsLogId: string | null };

export async function endAttempt(
  db: Queryable,
  message: { id: string; jobId: string; attempts: number },
  end: AttemptEnd,
): Promise<void> {
  const common = [message.id, message.jobId, message.attempts];
  if (end.kind === "sent") {
    await db.query(
      `update pms_message_queue set state = 3, attempts = $3, last_error = null, next_attempt_time = null,
              sent_time = now(), sms_log_id = $4, update_time = now()
        where id = $1 and job_id = $2`,
      [...common, end.smsLogId],
    );
  } else if (end.kind === "retry") {
    // A new job id: the dispatcher hands the message to the queue again, to start at nextAt.
    await db.query(
      `update pms_message_queue set state = 2, attempts = $3, last_error = $4, next_attempt_time = $5,
              sms_log_id = coalesce($6, sms_log_id), job_id = gen_random_uuid()::text, dispatched = 0,
              update_time = now()
        where id = $1 and job_id = $2`,
      [...common, end.error.slice(0, 500), end.nextAt, end.smsLogId],
    );
  } else {
    await db.query(
      `update pms_message_queue set state = 4, attempts = $3, last_error = $4, next_attempt_time = null,
              sms_log_id = coalesce($5, sms_log_id), dispatched = 1, update_time = now()
        where id = $1 and job_id = $2`,
      [...common, end.error.slice(0, 500), end.smsLogId],
    );
  }
}

import type { Queryable } from "../../db/client.ts";
import { nextId } from "../../db/ids.ts";

/**
 * Queues a message an operator writes: to the phone given, else to the owner's phone. Its state is
 * queued; the dispatcher hands it to the job queue. Answers its id, or why there is nothing to send.
 */
export async function queueManualMessage(
  db: Queryable,
  tenantId: string,
  input: {
    ownerId: string | undefined;
    phone: string | undefined;
    templateParams: Record<string, string>;
    userId: string;
  },
): Promise<string | "no-owner" | "no-phone"> {
  let ownerName: string | null = null;
  let phone = input.phone;
  if (input.ownerId) {
    const [owner] = await db.query<{ owner_name: string; phone: string | null }>(
      "select owner_name, phone from pms_owner where id = $1 and tenant_id = $2 and is_deleted = 0",
      [input.ownerId, tenantId],
    );
    if (!owner) return "no-owner";
    ownerName = owner.owner_name;
    phone ??= owner.phone ?? undefined;
  }
  if (!phone) return "no-phone";
  const id = nextId();
  await db.query(
    `insert into pms_message_queue (id, tenant_id, owner_id, owner_name, phone, template_params, state, job_id, dispatched)
     values ($1, $2, $3, $4, $5, $6, 1, gen_random_uuid()::text, 0)`,
    [id, tenantId, input.ownerId ?? null, ownerName, phone, JSON.stringify(input.templateParams)],
  );
  return id;
}

/**
 * Queues a message again, now, under a new job (the old job, if any still waits, finds it is no
 * longer its message and does nothing); a corrected phone or template values replace the old.
 */
export async function requeueMessage(
  db: Queryable,
  tenantId: string,
  id: string,
  change: { phone: string | undefined; templateParams: Record<string, string> | undefined },
): Promise<"requeued" | "missing" | "sent"> {
  const [row] = await db.query<{ state: number }>(
    "select state from pms_message_queue where id = $1 and tenant_id = $2 and is_deleted = 0",
    [id, tenantId],
  );
  if (!row) return "missing";
  if (row.state === 3) return "sent";
  await db.query(
    `update pms_message_queue
        set phone = coalesce($3, phone), template_params = coalesce($4, template_params), state = 1,
            next_attempt_time = null, job_id = gen_random_uuid()::text, dispatched = 0, update_time = now()
      where id = $1 and tenant_id = $2 and is_deleted = 0 and state <> 3`,
    [
      id,
      tenantId,
      change.phone ?? null,
      change.templateParams ? JSON.stringify(change.templateParams) : null,
    ],
  );
  return "requeued";
}

/** Takes messages out of the queue: a job still waiting for one finds it removed and does nothing. */
export async function removeMessages(db: Queryable, tenantId: string, ids: string[]): Promise<number> {
  const rows = await db.query(
    `update pms_message_queue set is_deleted = 1, dispatched = 1, update_time = now()
      where tenant_id = $1 and id = any($2::bigint[]) and is_deleted = 0 returning id`,
    [tenantId, ids],
  );
  return rows.length;
}

export async function removeSmsRecords(db: Queryable, tenantId: string, ids: string[]): Promise<number> {
  const rows = await db.query(
    `update sms_send_log set is_deleted = 1, update_time = now()
      where tenant_id = $1 and id = any($2::bigint[]) and is_deleted = 0 returning id`,
    [tenantId, ids],
  );
  return rows.length;
}

export async function setSmsRemark(
  db: Queryable,
  tenantId: string,
  id: string,
  remark: string,
): Promise<boolean> {
  const rows = await db.query(
    `update sms_send_log set remark = $3, update_time = now()
      where id = $1 and tenant_id = $2 and is_deleted = 0 returning id`,
    [id, tenantId, remark],
  );
  return rows.length > 0;
}

import { fenToYuan, yuanToFen } from "@meterline/billing";
import { ApiError, badRequest } from "../../contract/errors.ts";
import type { Db, Queryable } from "../../db/client.ts";
import { type CurrentUser, serviceUser } from "../auth/current-user.ts";
import type { AccountJobKind } from "../operations/batch-jobs/job-kinds.ts";
import type { JobOutcome } from "../operations/batch-jobs/job-service.ts";
import { insertJob } from "../operations/batch-jobs/job-store.ts";
import { METER_TABLE } from "./account.repository.ts";
import type { Actor } from "./account-book.ts";
import { closeAccountIn } from "./account-closing.ts";
import { openAccount } from "./account-opening.ts";
import { closingRefusal } from "./closing-approval.ts";
import { settleClosingSupply } from "./closing-supply.ts";

/** What an account job's meters all get: their energy, and the opening deposit (yuan). */
interface AccountJobParams {
  energyType: 1 | 2;
  deposit: string;
}

/**
 * Opens or closes the accounts of a batch of meters as one job (batch-jobs/): every meter named
 * must be a live meter of the tenant (else 400 before anything is stored); the runner then works
 * them one meter per transaction, so one that fails (no owner, already open, a purchase on its way)
 * records why and leaves the others done.
 */
export async function startAccountJob(
  tx: Queryable,
  user: CurrentUser,
  tenantId: string,
  job: { kind: AccountJobKind; energyType: 1 | 2; meterIds: string[]; deposit: bigint; source: string },
): Promise<JobOutcome> {
  const meterIds = [...new Set(job.meterIds)];
  const rows = await tx.query<{ id: string; product_code: string }>(
    `select id::text as id, product_code from ${METER_TABLE[job.energyType]}
      where tenant_id = $1 and id = any($2::bigint[]) and is_deleted = 0`,
    [tenantId, meterIds],
  );
  const codes = new Map(rows.map((row) => [row.id, row.product_code]));
  const missing = meterIds.find((id) => !codes.has(id));
  if (missing) throw badRequest(`meterIds: 表计不存在 (${missing})`);
  const params: AccountJobParams = { energyType: job.energyType, deposit: fenToYuan(job.deposit) };
  const jobId = await insertJob(
    tx,
    {
      tenantId,
      kind: job.kind,
      params: { ...params },
      source: job.source,
      createUser: user.userId || null,
      skipped: [],
    },
    meterIds.map((meterId) => ({
      energyType: job.energyType,
      meterId,
      productCode: codes.get(meterId) ?? "",
      commands: [],
    })),
  );
  return { batchId: jobId, queued: meterIds.length, skipped: [], jobId };
}

interface TakenItem {
  seq: number;
  meterId: string;
  tenantId: string;
  kind: AccountJobKind;
  params: AccountJobParams;
  actor: Actor;
}

/**
 * The next pending meter of a running account job, with the job row locked for this transaction
 * (skipped when another process works the job, or a cancel holds it). A job with nothing pending
 * and nothing waiting for a meter's confirmation is done.
 */
async function takeItem(tx: Queryable, jobId: string): Promise<TakenItem | undefined> {
  const [job] = await tx.query<{
    tenant_id: string;
    kind: AccountJobKind;
    params: string;
    create_user: string | null;
    actor_name: string | null;
  }>(
    `select j.tenant_id, j.kind, j.params, j.create_user::text as create_user,
            coalesce(nullif(u.real_name, ''), u.account) as actor_name
       from pms_batch_job j left join sys_user u on u.id = j.create_user
      where j.id = $1 and j.state = 'running' for update of j skip locked`,
    [jobId],
  );
  if (!job) return undefined;
  const [item] = await tx.query<{ seq: number; meter_id: string }>(
    `select seq, meter_id::text as meter_id from pms_batch_job_item
      where job_id = $1 and state = 'pending' order by seq limit 1`,
    [jobId],
  );
  if (!item) {
    await tx.query(
      `update pms_batch_job set state = 'done', finish_time = now()
        where id = $1 and not exists (select 1 from pms_batch_job_item
                                       where job_id = $1 and state in ('pending', 'queued', 'sent'))`,
      [jobId],
    );
    return undefined;
  }
  return {
    seq: item.seq,
    meterId: item.meter_id,
    tenantId: job.tenant_id,
    kind: job.kind,
    params: JSON.parse(job.params) as AccountJobParams,
    actor: { userId: job.create_user ?? "", name: job.actor_name ?? "" },
  };
}

/**
 * Opens or closes one meter's account. Where that starts writes to the meter (a local-prepaid
 * meter's schemes and deposit, or its clearing before the refund), the writes join the job, so the
 * meter's item follows them to the meter's confirmation as a switch's item follows its command.
 */
async function workItem(tx: Queryable, jobId: string, item: TakenItem, timeZone: string): Promise<void> {
  const { energyType } = item.params;
  let commandIds: string[] = [];
  if (item.kind === "openAccount") {
    const target = { energyType, meterId: item.meterId, deposit: yuanToFen(item.params.deposit) };
    const opened = await openAccount(tx, item.tenantId, target, item.actor, timeZone);
    commandIds = opened.meterWrites?.commandIds ?? [];
  } else {
    const closed = await closeAccountIn(
      tx,
      item.tenantId,
      energyType,
      item.meterId,
      item.actor,
      timeZone,
      closingRefusal,
    );
    commandIds = closed.commandId ? [closed.commandId] : [];
    // Supply goes with the account, as at the desk: a closed remote-control meter is cut, its
    // command settled by read-back and shown on the closing's record (销户记录), not on this item.
    if (closed.state === 1)
      await settleClosingSupply(
        tx,
        serviceUser(item.tenantId, "account/close", {
          ...(item.actor.userId ? { userId: item.actor.userId } : {}),
          realName: item.actor.name,
        }),
        item.tenantId,
        energyType,
        closed,
        { keep: false, reason: "" },
      );
  }
  if (commandIds.length > 0)
    await tx.query("update pms_meter_command set batch_id = $1 where id = any($2::bigint[])", [
      jobId,
      commandIds,
    ]);
  await tx.query(
    `update pms_batch_job_item set state = $3, command_id = $4, update_time = now()
      where job_id = $1 and seq = $2`,
    [jobId, item.seq, commandIds.length > 0 ? "queued" : "success", commandIds[0] ?? null],
  );
}

/** A refusal names its reason to the operator; anything else is logged by the runner. */
const reasonOf = (error: unknown) =>
  error instanceof ApiError ? error.message.slice(0, 255) : "处理失败,请查看服务器日志";

/**
 * One step of an account job: up to `limit` meters, each in its own transaction. A meter that is
 * refused rolls back alone and its item records the reason. Answers how many meters it worked.
 */
export async function pumpAccountJob(
  db: Db,
  jobId: string,
  limit: number,
  timeZone: string,
): Promise<number> {
  let worked = 0;
  while (worked < limit) {
    let taken: TakenItem | undefined;
    try {
      const step = await db.transaction(async (tx) => {
        taken = await takeItem(tx, jobId);
        if (taken) await workItem(tx, jobId, taken, timeZone);
        return taken;
      });
      if (!step) return worked;
    } catch (error) {
      const failed = taken;
      if (!failed) throw error;
      // Only while still pending: a cancel that came in between wins.
      await db.query(
        `update pms_batch_job_item set state = 'fail', reason = $3, update_time = now()
          where job_id = $1 and seq = $2 and state = 'pending'`,
        [jobId, failed.seq, reasonOf(error)],
      );
      if (!(error instanceof ApiError)) throw error;
    }
    worked++;
  }
  return worked;
}

import type { BatchJobKind, BatchJobSummary, SwitchOutcome } from "@meterline/contracts";
import { badRequest, forbidden, notFound } from "../../../contract/errors.ts";
import { SqlParams } from "../../../crud/sql.ts";
import type { Queryable } from "../../../db/client.ts";
import type { CurrentUser } from "../../auth/current-user.ts";
import type { CommandSink, QueuedCommand } from "../../pms/command-queue.ts";
import type { ItemScope } from "./item-scope.ts";
import { followCommands } from "./item-states.ts";
import { isAccountJob } from "./job-kinds.ts";
import { pumpJob } from "./job-runner.ts";
import { findJob, insertJob, type PlannedItem } from "./job-store.ts";

/** A batch's answer: the fields it always had, and the job that carries it out. */
export type JobOutcome = SwitchOutcome & { jobId: string };

/**
 * Runs a batch as a job (inside the caller's transaction): `plan` is one of the batch functions
 * (queueSupplyCommands, queueSchemeWriteBatch, …) given a sink that keeps its commands instead of
 * queueing them; they become the job's items, one per meter, and the first window is queued at
 * once so the gateway starts while the request answers. Every check of `plan` (a value no meter
 * holds, an unknown meter) has answered 400 before anything is stored.
 */
export async function runAsJob(
  tx: Queryable,
  user: CurrentUser,
  tenantId: string,
  job: { kind: BatchJobKind; params: Record<string, unknown>; source: string; retryOf?: string },
  plan: (sink: CommandSink) => Promise<SwitchOutcome>,
): Promise<JobOutcome> {
  let planned: QueuedCommand[] = [];
  const keep: CommandSink = async (_db, _user, _tenant, commands) => {
    planned = commands;
    return { batchId: "", queued: commands.length };
  };
  const outcome = await plan(keep);
  const jobId = await insertJob(
    tx,
    { ...job, tenantId, createUser: user.userId || null, skipped: outcome.skipped },
    itemsOf(planned),
  );
  await pumpJob(tx, jobId);
  return {
    batchId: outcome.queued > 0 ? jobId : null,
    queued: outcome.queued,
    skipped: outcome.skipped,
    jobId,
  };
}

/** The commands grouped per meter, in the order they were planned. */
function itemsOf(commands: readonly QueuedCommand[]): PlannedItem[] {
  const items = new Map<string, PlannedItem>();
  for (const command of commands) {
    const key = `${command.energyType}:${command.meterId}`;
    let item = items.get(key);
    if (!item) {
      item = {
        energyType: command.energyType,
        meterId: command.meterId,
        productCode: command.productCode,
        commands: [],
      };
      items.set(key, item);
    }
    item.commands.push({ commandType: command.commandType, payload: command.payload });
  }
  return [...items.values()];
}

async function jobOf(
  q: Queryable,
  tenantId: string | null,
  id: string,
  scope?: ItemScope,
): Promise<BatchJobSummary> {
  const job = await findJob(q, tenantId, id, scope);
  // Another tenant's job, or one with no meter in the caller's data scope, reads as absent.
  if (!job) throw notFound("id: 任务不存在");
  return job;
}

/**
 * Cancels a running job: its meters not yet queued and its commands still queued (not on the wire:
 * no gateway claims a cancelled command, and one claimed cannot become sent) are cancelled; sent
 * ones settle as usual. The job row is locked first, so a runner step in progress finishes before.
 * An account job stops at the meters not yet worked. A job is cancelled whole, so a caller whose data scope misses some of its meters is refused.
 */
export async function cancelJob(
  tx: Queryable,
  tenantId: string | null,
  id: string,
  scope?: ItemScope,
): Promise<BatchJobSummary> {
  const job = await jobOf(tx, tenantId, id, scope);
  if (scope) {
    const sql = new SqlParams();
    const [hidden] = await tx.query(
      `select 1 from pms_batch_job_item i where i.job_id = ${sql.bind(job.id)} and not ${scope(sql, "i")} limit 1`,
      sql.values,
    );
    if (hidden) throw forbidden("id: 任务含有您的数据权限之外的表计，不能取消");
  }
  const [locked] = await tx.query<{ state: string }>(
    "select state from pms_batch_job where id = $1 for update",
    [job.id],
  );
  if (locked?.state !== "running") throw badRequest("id: 任务已结束");
  await tx.query("update pms_batch_job set state = 'cancelled', finish_time = now() where id = $1", [job.id]);
  await tx.query(
    `update pms_batch_job_item set state = 'cancelled', reason = '任务已取消', update_time = now()
      where job_id = $1 and state = 'pending'`,
    [job.id],
  );
  // An account job's meter writes are money writes with their own settlement: they go on.
  if (isAccountJob(job.kind)) return jobOf(tx, tenantId, job.id, scope);
  const cancelled = await tx.query<{ energy_type: number; meter_id: string }>(
    `update pms_meter_command
        set state = 'cancelled', done_time = now(), evidence = '{"detail":"batch job cancelled before sending"}'
      where batch_id = $1 and state = 'queued'
      returning energy_type, meter_id::text as meter_id`,
    [job.id],
  );
  await followCommands(
    tx,
    job.id,
    cancelled.map((row) => ({ energyType: row.energy_type, meterId: row.meter_id })),
  );
  return jobOf(tx, tenantId, job.id, scope);
}

/**
 * A new job for exactly the meters of `id` that failed, with the commands they were planned to
 * get. Timeouts are not retried: a write whose outcome is unknown is settled by reading it back.
 * With a data scope, only the failed meters inside it are retried.
 */
export async function retryFailed(
  tx: Queryable,
  user: CurrentUser,
  tenantId: string | null,
  id: string,
  scope?: ItemScope,
): Promise<{ jobId: string }> {
  const job = await jobOf(tx, tenantId, id, scope);
  const sql = new SqlParams();
  const failed = await tx.query<{
    energy_type: 1 | 2;
    meter_id: string;
    product_code: string;
    commands: string;
  }>(
    `select i.energy_type, i.meter_id::text as meter_id, i.product_code, i.commands from pms_batch_job_item i
      where i.job_id = ${sql.bind(job.id)} and i.state = 'fail' and ${scope ? scope(sql, "i") : "true"} order by i.seq`,
    sql.values,
  );
  if (failed.length === 0) throw badRequest("id: 没有失败的表计");
  const jobId = await insertJob(
    tx,
    {
      tenantId: job.tenantId,
      kind: job.kind,
      params: job.params,
      source: job.source,
      createUser: user.userId || null,
      retryOf: job.id,
      skipped: [],
    },
    failed.map((row) => ({
      energyType: row.energy_type,
      meterId: row.meter_id,
      productCode: row.product_code,
      commands: JSON.parse(row.commands) as PlannedItem["commands"],
    })),
  );
  await pumpJob(tx, jobId);
  return { jobId };
}

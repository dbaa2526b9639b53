import type { Logger } from "@meterline/gateway";
import type { Db, Queryable } from "../../../db/client.ts";
import { pumpAccountJob } from "../../money/account-jobs.ts";
import { enqueueCommands, type QueuedCommand } from "../../pms/command-queue.ts";
import { ACCOUNT_KINDS_SQL, isAccountJob } from "./job-kinds.ts";

export interface RunnerLimits {
  /** At most this many of a job's meters unsettled (queued or sent) at once: a cancel stops the rest. */
  window: number;
  /** Items taken per transaction. */
  chunk: number;
}

export const DEFAULT_LIMITS: RunnerLimits = { window: 500, chunk: 250 };

/** Account meters worked per job and pass: each is a transaction of its own, kept short. */
const ACCOUNT_CHUNK = 50;

export const DEFAULT_TIME_ZONE = "Asia/Shanghai";

interface JobRow {
  id: string;
  tenant_id: string;
  source: string;
  create_user: string | null;
}

interface ItemRow {
  seq: number;
  energy_type: 1 | 2;
  meter_id: string;
  product_code: string;
  commands: string;
}

/**
 * One step of one running job, inside the caller's transaction: takes the job (skipped when another
 * process holds it), queues the commands of as many pending items as its window allows and writes
 * each item's first command id in the same transaction, so a restart never queues a meter twice.
 * A job with nothing left to settle is done. Answers how many items it queued. Account jobs are
 * not planned commands: pumpAccountJob works them.
 */
export async function pumpJob(
  tx: Queryable,
  jobId: string,
  limits: RunnerLimits = DEFAULT_LIMITS,
): Promise<number> {
  const [job] = await tx.query<JobRow>(
    `select id::text as id, tenant_id, source, create_user::text as create_user from pms_batch_job
      where id = $1 and state = 'running' and kind not in (${ACCOUNT_KINDS_SQL}) for update skip locked`,
    [jobId],
  );
  if (!job) return 0;
  const [open] = await tx.query<{ pending: number; unsettled: number }>(
    `select count(*) filter (where state = 'pending')::int as pending,
            count(*) filter (where state in ('queued', 'sent'))::int as unsettled
       from pms_batch_job_item where job_id = $1 and state in ('pending', 'queued', 'sent')`,
    [jobId],
  );
  const { pending = 0, unsettled = 0 } = open ?? {};
  if (pending + unsettled === 0) {
    await tx.query("update pms_batch_job set state = 'done', finish_time = now() where id = $1", [jobId]);
    return 0;
  }
  const room = Math.min(limits.window - unsettled, limits.chunk);
  if (room <= 0 || pending === 0) return 0;
  const items = await tx.query<ItemRow>(
    `select seq, energy_type, meter_id::text as meter_id, product_code, commands from pms_batch_job_item
      where job_id = $1 and state = 'pending' order by seq limit $2 for update skip locked`,
    [jobId, room],
  );
  if (items.length === 0) return 0;
  const commands: QueuedCommand[] = [];
  const firstIndex: number[] = [];
  for (const item of items) {
    firstIndex.push(commands.length);
    for (const planned of JSON.parse(item.commands) as Pick<QueuedCommand, "commandType" | "payload">[])
      commands.push({
        energyType: item.energy_type,
        meterId: item.meter_id,
        productCode: item.product_code,
        commandType: planned.commandType,
        payload: planned.payload,
      });
  }
  const { ids } = await enqueueCommands(
    tx,
    { userId: job.create_user ?? "" },
    job.tenant_id,
    commands,
    job.source,
    { batchId: job.id },
  );
  await tx.query(
    `update pms_batch_job_item i set state = 'queued', command_id = u.command_id, update_time = now()
       from unnest($2::int[], $3::bigint[]) as u(seq, command_id)
      where i.job_id = $1 and i.seq = u.seq`,
    [jobId, items.map((item) => item.seq), firstIndex.map((index) => ids[index] ?? null)],
  );
  return items.length;
}

/**
 * The batch job runner of a server process: a small loop over the running jobs (the command table
 * is the queue; this only feeds it a window at a time). Several processes may run it at once: each
 * job is taken with SKIP LOCKED, so one process works a job at a time.
 */
export class BatchJobRunner {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
    private readonly options: { intervalMs: number; limits: RunnerLimits; timeZone: string } = {
      intervalMs: 500,
      limits: DEFAULT_LIMITS,
      timeZone: DEFAULT_TIME_ZONE,
    },
  ) {}

  start(): this {
    this.schedule(0);
    return this;
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.tick()
        .catch((error: unknown) =>
          this.logger.log("warn", "batch job runner step failed", { error: String(error) }),
        )
        .finally(() => {
          this.running = undefined;
          this.schedule(this.options.intervalMs);
        });
    }, delayMs);
  }

  /** One pass over the running jobs, oldest first. */
  async tick(): Promise<void> {
    const jobs = await this.db.query<{ id: string; kind: string }>(
      "select id::text as id, kind from pms_batch_job where state = 'running' order by create_time, id limit 100",
    );
    for (const { id, kind } of jobs) {
      if (this.stopped) return;
      if (isAccountJob(kind)) await pumpAccountJob(this.db, id, ACCOUNT_CHUNK, this.options.timeZone);
      else await this.db.transaction((tx) => pumpJob(tx, id, this.options.limits));
    }
  }

  /** Stops the loop after the step under way, whose transaction commits or rolls back whole. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }
}

import { PgBoss } from "pg-boss";
import type { FieldCipher } from "../../crud/field-cipher.ts";
import type { Db } from "../../db/client.ts";
import { MIGRATION_LOCK } from "../../db/migrate.ts";
import type { SmsProvider } from "../sms/sms-provider.ts";
import { markDispatched, undispatched } from "./owner-notice.repository.ts";
import { type Backoff, DEFAULT_BACKOFF, deliverNotice } from "./owner-notice.service.ts";

/** The pg-boss queue the owner SMS jobs run on; a job carries only the message id. */
export const OWNER_SMS_QUEUE = "owner-sms";
/** pg-boss keeps its tables in a schema of its own. */
const SCHEMA = "pgboss";

export interface NoticeQueueOptions {
  db: Db;
  cipher: FieldCipher;
  providers: Readonly<Record<number, SmsProvider>>;
  /** How often idle workers look for due jobs, and new messages are handed over (seconds). */
  pollSeconds?: number;
  backoff?: Backoff;
  log?: (message: string, error: unknown) => void;
}

export interface NoticeQueue {
  /** Hands queued messages to the job queue now rather than at the next poll. */
  dispatch(): Promise<number>;
  /** Stops polling and waits for the running send; jobs left are picked up by the next start. */
  stop(): Promise<void>;
}

interface OwnerSmsJob {
  messageId: string;
  tenantId: string;
}

/**
 * pg-boss over the server's own database handle: PGlite (in its worker thread) or the PostgreSQL
 * pool. Parameterised statements go through `query`; pg-boss's unparameterised ones may be whole
 * scripts (its schema, `begin … commit` blocks) and go through `script`, in one call each.
 */
function bossDatabase(db: Db) {
  return {
    async executeSql(text: string, values?: unknown[]) {
      return { rows: values?.length ? await db.query(text, values) : await db.script(text) };
    },
  };
}

/**
 * Runs pg-boss's start, which creates its schema on a new database, while holding the migrations'
 * lock: servers started together on one PostgreSQL otherwise race to create it and all but one fail
 * ("pg_namespace_nspname_index"). The lock is held by a transaction of its own while pg-boss uses
 * other connections of the pool. PGlite has one process and one connection: nothing to race.
 */
async function startInTurn(db: Db, start: () => Promise<unknown>): Promise<void> {
  if (db.kind === "pglite") {
    await start();
    return;
  }
  await db.transaction(async (tx) => {
    await tx.query("select pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
    await start();
  });
}

/**
 * The owner notification sender. Messages are queued in pms_message_queue by the transaction that
 * raises a balance alarm (wherever readings are stored: this process or the gateway's), so
 * nothing is lost between the alarm and the queue; the dispatcher hands each to pg-boss under the
 * job id the message already names, so handing it twice (two servers, a crash in between) makes
 * one job. pg-boss then runs the send when due, one at a time, off the request and reading paths.
 */
export async function startNoticeQueue(options: NoticeQueueOptions): Promise<NoticeQueue> {
  const { db } = options;
  const pollSeconds = options.pollSeconds ?? 10;
  const log = options.log ?? (() => undefined);
  const boss = new PgBoss({
    db: bossDatabase(db),
    backend: db.kind === "pglite" ? "pglite" : "postgres",
    schema: SCHEMA,
    // No cron schedules here; maintenance (expiring a job whose worker died, dropping old jobs) stays on.
    schedule: false,
    superviseIntervalSeconds: Math.max(60, pollSeconds),
  });
  boss.on("error", (error) => log("job queue error", error));
  await startInTurn(db, () => boss.start());
  // Retries of the job itself only cover a worker that died or a database error mid-send; the
  // provider's failures are retried by the message's own schedule (deliverNotice).
  await boss.createQueue(OWNER_SMS_QUEUE, {
    retryLimit: 10,
    retryDelay: 60,
    retryBackoff: true,
    expireInSeconds: 300,
  });
  const delivery = { ...options, backoff: options.backoff ?? DEFAULT_BACKOFF };

  let stopped = false;
  let dispatching: Promise<number> | undefined;
  const dispatch = (): Promise<number> => {
    if (stopped) return Promise.resolve(0);
    dispatching ??= (async () => {
      let handed = 0;
      try {
        for (const message of await undispatched(db, 100)) {
          await boss.send(
            OWNER_SMS_QUEUE,
            { messageId: message.id, tenantId: message.tenant_id } satisfies OwnerSmsJob,
            {
              id: message.job_id,
              ...(message.next_attempt_time ? { startAfter: new Date(message.next_attempt_time) } : {}),
            },
          );
          await markDispatched(db, message.id, message.job_id);
          handed++;
        }
      } finally {
        dispatching = undefined;
      }
      return handed;
    })();
    return dispatching;
  };

  await boss.work<OwnerSmsJob>(
    OWNER_SMS_QUEUE,
    // Ten at a time, fetching again at once while batches come back full (an alarm storm), else
    // one look every poll.
    { pollingIntervalSeconds: pollSeconds, batchSize: 10, burstWhenBatchFull: true },
    async (jobs) => {
      let failure: unknown;
      let retries = 0;
      for (const job of jobs) {
        try {
          const end = await deliverNotice(delivery, job.data.messageId, job.id);
          if (end?.kind === "retry") retries++;
        } catch (error) {
          // Left to pg-boss's own retry of the batch; a job already done finds nothing to do again.
          failure ??= error;
        }
      }
      // A retry is a new job: hand it over now instead of at the next poll.
      if (retries > 0) void dispatch().catch((error: unknown) => log("notice dispatch failed", error));
      if (failure) throw failure;
    },
  );

  const timer = setInterval(() => {
    dispatch().catch((error: unknown) => log("notice dispatch failed", error));
  }, pollSeconds * 1000);
  timer.unref();
  void dispatch().catch((error: unknown) => log("notice dispatch failed", error));

  return {
    dispatch,
    async stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      await dispatching?.catch(() => undefined);
      // Graceful: the send under way finishes and records its outcome before the database closes.
      await boss.stop({ graceful: true, timeout: 15_000 });
    },
  };
}

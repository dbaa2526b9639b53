/**
 * Batch jobs: every batch on meters (switching, price and alarm writes, valve status, account
 * opening/closing) runs as one durable job of up to BATCH_JOB_MAX_METERS meters. The server's
 * runner and the console's job list both read these shapes.
 */
export const BATCH_JOB_KINDS = [
  "switch",
  "valve",
  "writePrice",
  "writeAlarm",
  "waterPrice",
  "waterAlarm",
  "valveStatus",
  "openAccount",
  "closeAccount",
] as const;
export type BatchJobKind = (typeof BATCH_JOB_KINDS)[number];

export const BATCH_JOB_STATES = ["running", "cancelled", "done"] as const;
export type BatchJobState = (typeof BATCH_JOB_STATES)[number];

export const BATCH_ITEM_STATES = [
  "pending",
  "queued",
  "sent",
  "success",
  "fail",
  "timeout",
  "cancelled",
  "skipped",
] as const;
export type BatchItemState = (typeof BATCH_ITEM_STATES)[number];

/** The item filter of batchjob/items: "remaining" stands for pending + queued + sent. */
export const BATCH_ITEM_FILTERS = [
  "success",
  "fail",
  "timeout",
  "remaining",
  "cancelled",
  "skipped",
] as const;
export type BatchItemFilter = (typeof BATCH_ITEM_FILTERS)[number];

/** The most meters one job may hold. */
export const BATCH_JOB_MAX_METERS = 10_000;

export interface BatchJobSummary {
  id: string;
  tenantId: string;
  kind: BatchJobKind;
  state: BatchJobState;
  /** What is done, as JSON of the deciding parameters, e.g. '{"switchType":2}'. */
  action: string;
  params: Record<string, unknown>;
  /** Meters in the job (skipped excluded). */
  total: number;
  success: number;
  fail: number;
  /** "To be confirmed": no reply and the read-back could not decide. */
  timeout: number;
  /** pending + queued + sent: not settled yet. */
  remaining: number;
  /** Of the remaining, those whose meter's collector is offline: waiting for it, not stuck. */
  waitingOffline: number;
  cancelled: number;
  skipped: number;
  /** The job whose failed meters this one retries. */
  retryOf: string | null;
  createUser: string;
  createUserName: string;
  createTime: string;
  finishTime: string | null;
  /** The screen/path that started the job. */
  source: string;
}

export interface BatchJobItem {
  meterId: string;
  productCode: string;
  energyType: 1 | 2;
  roomName: string;
  state: BatchItemState;
  reason: string;
  /** A remaining item whose meter's collector is offline: the collector it waits for. */
  waitingFor: { collectorName: string; collectorCode: string } | null;
  commandId: string | null;
  updateTime: string;
}

/** What every batch endpoint answers: the meters accepted into the job and the ones left out. */
export interface BatchJobSkip {
  meterId: string;
  productCode: string;
  reason: string;
}

/** The answer of a batch endpoint: the commands queued, the meters left out, and the job. */
export interface BatchJobOutcome {
  batchId: string | null;
  queued: number;
  skipped: BatchJobSkip[];
  jobId: string;
}

/** The job screen's menu (运行控制 → 批量任务) and its buttons (seed 029). */
export const BATCH_JOB_MENU = "batch_job";
export const BATCH_JOB_BUTTONS = {
  view: "batch_job_view",
  cancel: "batch_job_cancel",
  retry: "batch_job_retry",
} as const;

/**
 * Batches on meters as durable jobs (pms batchjob): one job of up to 10,000 meters per batch call,
 * followed, cancelled and retried from 批量任务.
 */
export type BatchJobKind =
  | "switch"
  | "valve"
  | "writePrice"
  | "writeAlarm"
  | "waterPrice"
  | "waterAlarm"
  | "valveStatus"
  | "openAccount"
  | "closeAccount";

export type BatchJobState = "running" | "cancelled" | "done";

export type BatchItemState =
  | "pending"
  | "queued"
  | "sent"
  | "success"
  | "fail"
  | "timeout"
  | "cancelled"
  | "skipped";

export interface BatchJobSummary {
  id: string;
  tenantId: string;
  kind: BatchJobKind;
  state: BatchJobState;
  /** What is done, e.g. '{"switchType":2}'; the console words it from kind and params. */
  action: string;
  params: Record<string, unknown>;
  /** Meters in the job (skipped excluded). */
  total: number;
  success: number;
  fail: number;
  /** "To be confirmed": no reply, read-back undecided. */
  timeout: number;
  /** Pending + queued + sent (not settled yet). */
  remaining: number;
  cancelled: number;
  skipped: number;
  /** The job whose failed meters this one retries. */
  retryOf: string | null;
  createUser: string;
  createUserName: string;
  createTime: string;
  finishTime: string | null;
  /** Screen/path that started it. */
  source: string;
}

export interface BatchJobItem {
  meterId: string;
  productCode: string;
  energyType: 1 | 2;
  roomName: string;
  state: BatchItemState;
  reason: string;
  commandId: string | null;
  updateTime: string;
}

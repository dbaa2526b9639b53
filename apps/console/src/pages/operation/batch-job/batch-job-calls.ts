import type {
  BatchItemFilter,
  BatchJobItem,
  BatchJobKind,
  BatchJobState,
  BatchJobSummary,
  Page,
} from "@meterline/contracts";
import { api } from "../../../app/api.ts";

const base = "/api/blade-pms/batchjob";

/** Where the console shows a job: 批量任务, opened on that job's detail. */
export const BATCH_JOB_PATH = "/operation/batchjob";
export const batchJobHref = (id: string, tenantId?: string) =>
  `${BATCH_JOB_PATH}?${new URLSearchParams({ id, ...(tenantId ? { tenantId } : {}) })}`;

/** The items filters of the detail, the ones needing attention first. */
export const ITEM_FILTERS: readonly BatchItemFilter[] = [
  "fail",
  "timeout",
  "remaining",
  "success",
  "cancelled",
  "skipped",
];

export interface JobFilters {
  kind?: BatchJobKind;
  state?: BatchJobState;
}

/** `tenantId` is for the platform administrator following another tenant's job, as other PMS calls. */
const tenant = (tenantId?: string) => (tenantId ? { tenantId } : {});

export const loadJobPage = (filters: JobFilters, current: number, size: number) =>
  api.get<Page<BatchJobSummary>>(`${base}/page`, { ...filters, current, size });

/** Silent: a poll that fails is shown in the dialog or drawer, not toasted every second. */
export const loadJob = (id: string, tenantId?: string) =>
  api
    .request(`${base}/detail`, { query: { id, ...tenant(tenantId) }, silent: true })
    .then((answer) => (answer as { data: BatchJobSummary }).data);

export const loadJobItems = (
  id: string,
  state: BatchItemFilter | undefined,
  current: number,
  size: number,
  tenantId?: string,
) =>
  api.get<Page<BatchJobItem>>(`${base}/items`, {
    id,
    ...(state ? { state } : {}),
    current,
    size,
    ...tenant(tenantId),
  });

export const cancelJob = (id: string, tenantId?: string) =>
  api.post<BatchJobSummary>(`${base}/cancel`, undefined, { id, ...tenant(tenantId) });

export const retryFailed = (id: string, tenantId?: string) =>
  api.post<{ jobId: string }>(`${base}/retryFailed`, undefined, { id, ...tenant(tenantId) });

/** The share of a job settled (success, fail, to be confirmed, cancelled), 0–100. */
export const settledShare = (job: BatchJobSummary) =>
  job.total === 0 ? 100 : Math.floor(((job.total - job.remaining) * 100) / job.total);

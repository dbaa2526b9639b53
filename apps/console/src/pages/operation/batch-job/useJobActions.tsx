import { BATCH_JOB_BUTTONS, type BatchJobSummary } from "@meterline/contracts";
import { reportNetworkError } from "../../../app/api.ts";
import { useFeedback } from "../../../app/feedback.ts";
import { useT } from "../../../i18n/index.tsx";
import { findLeaf } from "../../../layout/menu-model.ts";
import { useConsole } from "../../../store/useConsole.ts";
import { BATCH_JOB_PATH, cancelJob, retryFailed } from "./batch-job-calls.ts";

export interface JobActions {
  /** The user may open 批量任务 (the menu), so a link to a job leads somewhere. */
  mayOpen: boolean;
  mayCancel: (job: BatchJobSummary) => boolean;
  mayRetry: (job: BatchJobSummary) => boolean;
  cancel: (job: BatchJobSummary) => void;
  retry: (job: BatchJobSummary) => void;
}

/**
 * Cancel and "retry the failed" of a job, each behind its button code and a confirmation. A cancel
 * stops what has not been sent; a retry creates a new job of exactly the failed meters (timeouts
 * are settled by read-back, never resent). `onCancelled` and `onRetried` let the caller follow.
 */
export function useJobActions(
  onCancelled: (job: BatchJobSummary) => void,
  onRetried: (newJobId: string) => void,
  tenantId?: string,
): JobActions {
  const t = useT();
  const { message, modal } = useFeedback();
  const permission = useConsole((state) => state.permission);
  const menus = useConsole((state) => state.menus);
  const menuAll = useConsole((state) => state.menuAll);
  const mayOpen = Boolean(findLeaf(menuAll, BATCH_JOB_PATH) ?? findLeaf(menus ?? [], BATCH_JOB_PATH));

  const confirmed = (title: string, call: () => Promise<void>) =>
    modal.confirm({
      title,
      okButtonProps: { "data-testid": "batch-job-confirm-ok" },
      onOk: async () => {
        try {
          await call();
        } catch (failure) {
          // Server refusals (e.g. "id: 任务已结束") were toasted by the API bridge.
          reportNetworkError(failure);
        }
      },
    });

  return {
    mayOpen,
    mayCancel: (job) => permission[BATCH_JOB_BUTTONS.cancel] === true && job.state === "running",
    mayRetry: (job) =>
      permission[BATCH_JOB_BUTTONS.retry] === true && job.state !== "running" && job.fail > 0,
    cancel: (job) =>
      confirmed(t("batchJob.cancelConfirm", { id: job.id }), async () => {
        const after = await cancelJob(job.id, tenantId);
        void message.success(t("batchJob.cancelled"));
        onCancelled(after);
      }),
    retry: (job) =>
      confirmed(t("batchJob.retryConfirm", { id: job.id, count: job.fail }), async () => {
        const { jobId } = await retryFailed(job.id, tenantId);
        void message.success(t("batchJob.retried", { id: jobId }));
        onRetried(jobId);
      }),
  };
}

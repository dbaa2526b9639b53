import type { SwitchOutcome } from "@meterline/contracts";
import { Alert, Button, List, Modal, Space, Spin, Typography } from "antd";
import { useState } from "react";
import { useNavigate } from "react-router";
import { useT } from "../../../i18n/index.tsx";
import { batchJobHref } from "./batch-job-calls.ts";
import { JobProgressBar } from "./JobProgressBar.tsx";
import { actionWords } from "./job-words.ts";
import { useJobActions } from "./useJobActions.tsx";
import { useJobProgress } from "./useJobProgress.ts";

/** A batch call's answer once the server runs it as a job (api: every batch adds its jobId). */
export type JobOutcome = SwitchOutcome & { jobId?: string | null };

interface Props {
  jobId: string;
  /** The server's own words about what it accepted. */
  said?: string;
  /** Meters the server left out of the job, named with why. */
  skipped?: SwitchOutcome["skipped"];
  tenantId?: string;
  onClose: () => void;
}

/**
 * The live progress of a batch after it was submitted from a meter screen: the counts as they
 * settle, cancel, retry of the failed (which follows the new job), and a link to the job in
 * 批量任务. The job runs on the server: closing this or reloading the page loses nothing.
 */
export function JobProgressDialog({ jobId, said, skipped = [], tenantId, onClose }: Props) {
  const t = useT();
  const navigate = useNavigate();
  const [shownId, setShownId] = useState(jobId);
  const { job, error, refresh } = useJobProgress(shownId, tenantId);
  const actions = useJobActions(refresh, setShownId, tenantId);
  const running = !job || job.state === "running";

  const footer = (
    <Space wrap>
      {actions.mayOpen ? (
        <Button
          onClick={() => {
            onClose();
            navigate(batchJobHref(shownId, tenantId));
          }}
          data-testid="job-dialog-open"
        >
          {t("batchJob.openJob")}
        </Button>
      ) : null}
      {job && actions.mayCancel(job) ? (
        <Button danger onClick={() => actions.cancel(job)} data-testid="job-dialog-cancel">
          {t("batchJob.cancel")}
        </Button>
      ) : null}
      {job && actions.mayRetry(job) ? (
        <Button onClick={() => actions.retry(job)} data-testid="job-dialog-retry">
          {t("batchJob.retry")}
        </Button>
      ) : null}
      <Button type="primary" onClick={onClose} data-testid="job-dialog-close">
        {running ? t("batchJob.dialog.background") : t("batchJob.dialog.close")}
      </Button>
    </Space>
  );

  return (
    <Modal
      open
      title={job ? `${t("batchJob.dialog.title")}: ${actionWords(job, t)}` : t("batchJob.dialog.title")}
      onCancel={onClose}
      footer={footer}
      maskClosable={false}
      destroyOnHidden
      width={640}
    >
      <Space orientation="vertical" style={{ width: "100%" }} data-testid="job-dialog" data-job-id={shownId}>
        {said && shownId === jobId ? <Alert type="info" showIcon title={said} /> : null}
        <Typography.Text>
          {t("batchJob.id")}: <Typography.Text copyable>{shownId}</Typography.Text>
        </Typography.Text>
        {job ? (
          <JobProgressBar job={job} />
        ) : error ? (
          <Alert type="error" showIcon title={error} />
        ) : (
          <Spin tip={t("batchJob.loading")}>
            <div style={{ height: 40 }} />
          </Spin>
        )}
        {job && job.timeout > 0 ? (
          <Typography.Text type="secondary">{t("batchJob.timeoutHint")}</Typography.Text>
        ) : null}
        <Typography.Text type="secondary">{t("batchJob.dialog.hint")}</Typography.Text>
        {skipped.length > 0 && shownId === jobId ? (
          <List
            size="small"
            header={t("switch.skipped")}
            dataSource={skipped}
            renderItem={(s) => (
              <List.Item data-testid="job-dialog-skipped">
                {s.productCode || s.meterId}: {s.reason}
              </List.Item>
            )}
          />
        ) : null}
      </Space>
    </Modal>
  );
}

import type { BatchProgress } from "@meterline/contracts";
import { Alert, Button, List, Modal, Progress, Radio, Space, Statistic, Typography } from "antd";
import { useEffect, useState } from "react";
import { reportNetworkError } from "../../../app/api.ts";
import { useT } from "../../../i18n/index.tsx";
import { type JobOutcome, JobProgressDialog } from "../../operation/batch-job/JobProgressDialog.tsx";
import {
  type Energy,
  loadBatchProgress,
  type SupplyChoice,
  settledPercent,
  switchSupply,
} from "./switch-calls.ts";

const POLL_MS = 1000;

interface Props {
  energy: Energy;
  /** The meters to switch, by id, with their addresses for the confirmation. */
  meters: { id: string; productCode: string }[];
  /** The tenant of the meters, when the platform administrator switches another tenant's. */
  tenantId?: string;
  onClose: () => void;
}

/** Follows a batch until every command has settled (the gateway answers within seconds per meter). */
function useBatchProgress(batchId: string | null, tenantId?: string) {
  const [progress, setProgress] = useState<BatchProgress>();
  useEffect(() => {
    if (!batchId) return;
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = () =>
      loadBatchProgress(batchId, tenantId).then(
        (next) => {
          if (!live) return;
          setProgress(next);
          if (!next.done) timer = setTimeout(poll, POLL_MS);
        },
        (error: unknown) => reportNetworkError(error),
      );
    void poll();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [batchId, tenantId]);
  return progress;
}

/**
 * Remote switching of the chosen meters: pick what to do, confirm, then watch the batch settle
 * (sent, succeeded, failed, timed out to be confirmed by a read-back). A batch the server runs as a
 * job is followed in the shared job dialog (cancel, retry the failed, link to 批量任务); closing
 * early leaves the commands running and the job keeps their outcome.
 */
export function SupplySwitchDialog({ energy, meters, tenantId, onClose }: Props) {
  const t = useT();
  const [choice, setChoice] = useState<SupplyChoice>(2);
  const [sending, setSending] = useState(false);
  const [result, setResult] = useState<{ outcome: JobOutcome; said: string }>();
  // A job is followed by its own dialog; the command batch only when the server made no job.
  const progress = useBatchProgress(
    result?.outcome.jobId ? null : (result?.outcome.batchId ?? null),
    tenantId,
  );
  const choices: SupplyChoice[] = energy === "electric" ? [1, 2, 3] : [1, 2];

  const send = async () => {
    setSending(true);
    try {
      setResult(
        await switchSupply(
          energy,
          meters.map((m) => m.id),
          choice,
          tenantId,
        ),
      );
    } catch (error) {
      reportNetworkError(error);
    } finally {
      setSending(false);
    }
  };

  // Nothing queued, nothing to follow: the answer and the meters left out stay in this dialog.
  const jobId = result && result.outcome.queued > 0 ? result.outcome.jobId : null;
  if (result && jobId)
    return (
      <JobProgressDialog
        jobId={jobId}
        said={result.said}
        skipped={result.outcome.skipped}
        tenantId={tenantId}
        onClose={onClose}
      />
    );

  const footer = result ? (
    <Button type="primary" onClick={onClose} data-testid="switch-close">
      {progress?.done || !result.outcome.batchId ? t("switch.close") : t("switch.closeRunning")}
    </Button>
  ) : (
    <Space>
      <Button onClick={onClose}>{t("common.cancel")}</Button>
      <Button
        type="primary"
        danger={choice === 2}
        loading={sending}
        onClick={() => void send()}
        data-testid="switch-ok"
      >
        {t(`switch.${energy}.${choice}`)}
      </Button>
    </Space>
  );

  return (
    <Modal
      open
      title={t(`switch.${energy}.title`)}
      onCancel={onClose}
      footer={footer}
      maskClosable={false}
      destroyOnHidden
    >
      <div data-testid="switch-dialog">
        {!result ? (
          <Space orientation="vertical" style={{ width: "100%" }}>
            <Typography.Text>
              {t(meters.length === 1 ? "switch.oneMeter" : "switch.meters", {
                count: meters.length,
                first: meters[0]?.productCode ?? "",
              })}
            </Typography.Text>
            <Radio.Group value={choice} onChange={(e) => setChoice(e.target.value as SupplyChoice)}>
              {choices.map((c) => (
                <Radio key={c} value={c} data-testid={`switch-choice-${c}`}>
                  {t(`switch.${energy}.${c}`)}
                </Radio>
              ))}
            </Radio.Group>
            {choice === 2 ? <Alert type="warning" showIcon title={t(`switch.${energy}.cutWarning`)} /> : null}
          </Space>
        ) : (
          <Space orientation="vertical" style={{ width: "100%" }}>
            <Alert type={result.outcome.queued > 0 ? "info" : "warning"} showIcon title={result.said} />
            {progress ? (
              <>
                <Progress
                  percent={settledPercent(progress)}
                  // The share in numbers also when complete (antd would show only a tick).
                  format={(percent) => `${percent ?? 0}%`}
                  status={progress.done && progress.fail + progress.timeout > 0 ? "exception" : undefined}
                  data-testid="switch-progress"
                />
                <Space size="large" data-testid="switch-counts">
                  <Statistic title={t("switch.waiting")} value={progress.queued + progress.sent} />
                  <Statistic title={t("switch.success")} value={progress.success} />
                  <Statistic title={t("switch.fail")} value={progress.fail} />
                  <Statistic title={t("switch.timeout")} value={progress.timeout} />
                </Space>
              </>
            ) : null}
            {result.outcome.skipped.length > 0 ? (
              <List
                size="small"
                header={t("switch.skipped")}
                dataSource={result.outcome.skipped}
                renderItem={(s) => (
                  <List.Item data-testid="switch-skipped">
                    {s.productCode}: {s.reason}
                  </List.Item>
                )}
              />
            ) : null}
          </Space>
        )}
      </div>
    </Modal>
  );
}

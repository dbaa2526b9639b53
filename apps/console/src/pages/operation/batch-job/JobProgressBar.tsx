import type { BatchJobSummary } from "@meterline/contracts";
import { Space, Typography, theme } from "antd";
import type { MessageKey } from "../../../i18n/index.tsx";
import { useT } from "../../../i18n/index.tsx";
import { settledShare } from "./batch-job-calls.ts";

type Counted = "success" | "fail" | "timeout" | "cancelled" | "remaining";
const PARTS: readonly Counted[] = ["success", "fail", "timeout", "cancelled", "remaining"];

/**
 * A job's progress as one bar in parts (succeeded, failed, to be confirmed, cancelled, remaining)
 * with the counts in words beside it, so that no part hides behind a single percentage. The bar
 * is a progressbar to assistive technology, its counts its text.
 */
export function JobProgressBar({ job, compact = false }: { job: BatchJobSummary; compact?: boolean }) {
  const t = useT();
  const { token } = theme.useToken();
  const colors: Record<Counted, string> = {
    success: token.colorSuccess,
    fail: token.colorError,
    timeout: token.colorWarning,
    cancelled: token.colorTextQuaternary,
    remaining: token.colorBorder,
  };
  const whole = Math.max(job.total, 1);
  const label = t("batchJob.countsLabel", {
    success: job.success,
    fail: job.fail,
    timeout: job.timeout,
    remaining: job.remaining,
    cancelled: job.cancelled,
  });
  const share = settledShare(job);
  return (
    <Space orientation="vertical" size={2} style={{ width: "100%", minWidth: compact ? 220 : undefined }}>
      <div
        role="progressbar"
        aria-label={t("batchJob.progress")}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={share}
        aria-valuetext={label}
        data-testid="job-progress"
        data-settled={job.total - job.remaining}
        data-total={job.total}
        style={{
          display: "flex",
          height: compact ? 8 : 12,
          borderRadius: 6,
          overflow: "hidden",
          background: colors.remaining,
        }}
      >
        {PARTS.filter((part) => part !== "remaining" && job[part] > 0).map((part) => (
          <div key={part} style={{ width: `${(job[part] * 100) / whole}%`, background: colors[part] }} />
        ))}
      </div>
      <Space size={compact ? 8 : 16} wrap data-testid="job-counts">
        {PARTS.map((part) => (
          <Typography.Text
            key={part}
            type={compact ? "secondary" : undefined}
            data-testid={`job-count-${part}`}
          >
            <span
              aria-hidden
              style={{
                display: "inline-block",
                width: 8,
                height: 8,
                marginInlineEnd: 4,
                borderRadius: 4,
                background: colors[part],
              }}
            />
            {t(`batchJob.count.${part}` as MessageKey)} <strong>{job[part]}</strong>
          </Typography.Text>
        ))}
        {job.waitingOffline > 0 ? (
          <Typography.Text type="warning" data-testid="job-count-waitingOffline">
            {t("batchJob.count.waitingOffline")} <strong>{job.waitingOffline}</strong>
          </Typography.Text>
        ) : null}
        <Typography.Text type="secondary">{`${share}%`}</Typography.Text>
      </Space>
    </Space>
  );
}

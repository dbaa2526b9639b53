import { Progress, Typography } from "antd";
import { useT } from "../../i18n/index.tsx";

/**
 * The progress of an upload: the share of the file sent, then a note that the server is working
 * through the sheet (it answers only when it has read every row).
 */
export function ImportProgress({ percent, testId }: { percent: number; testId: string }) {
  const t = useT();
  return (
    <div data-testid={`${testId}-progress`} role="status" aria-live="polite">
      <Progress percent={percent} status="active" />
      <Typography.Text type="secondary">
        {percent < 100 ? t("import.uploading") : t("import.processing")}
      </Typography.Text>
    </div>
  );
}

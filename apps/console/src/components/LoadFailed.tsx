import { Button } from "antd";
import { useT } from "../i18n/index.tsx";
import { Result } from "./LazyResult.tsx";

/** What a screen or card shows when its data could not be loaded, with a retry when it can. */
export function LoadFailed({
  error,
  onRetry,
  testId,
}: {
  error: string;
  onRetry?: () => void;
  testId?: string;
}) {
  const t = useT();
  return (
    <Result
      status="warning"
      title={t("crud.loadFailed")}
      subTitle={error}
      extra={onRetry ? <Button onClick={onRetry}>{t("common.retry")}</Button> : undefined}
      data-testid={testId}
    />
  );
}

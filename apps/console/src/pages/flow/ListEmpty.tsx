import { Button, Empty, Space, Typography } from "antd";
import { useT } from "../../i18n/index.tsx";

/** A table's empty state: what is missing, or that the list could not be read, with a retry. */
export function ListEmpty({
  failed,
  description,
  retry,
}: {
  failed: boolean;
  description: string;
  retry: () => void;
}) {
  const t = useT();
  if (!failed) return <Empty description={description} />;
  return (
    <Space orientation="vertical">
      <Typography.Text type="danger">{t("network.error")}</Typography.Text>
      <Button onClick={retry}>{t("common.retry")}</Button>
    </Space>
  );
}

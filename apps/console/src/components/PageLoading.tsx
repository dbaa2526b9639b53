import { Spin } from "antd";
import { useT } from "../i18n/index.tsx";

export function PageLoading() {
  const t = useT();
  return (
    <div className="ml-page-loading" data-testid="page-loading">
      <Spin description={t("common.loading")} />
    </div>
  );
}

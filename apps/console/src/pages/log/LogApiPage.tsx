import type { Row } from "@meterline/api-client";
import { resources } from "@meterline/contracts";
import type { TableColumnsType } from "antd";
import { useMemo } from "react";
import { ResourcePage } from "../../crud/ResourcePage.tsx";
import { useI18n } from "../../i18n/index.tsx";
import { apiTitle } from "./api-title.ts";

/** 接口日志: the generic log table, each call titled in the reader's language (api-title.ts). */
export default function LogApiPage() {
  const { t, language } = useI18n();
  const columns = useMemo(
    () => (generated: TableColumnsType<Row>) =>
      generated.map((column) =>
        column.key === "title"
          ? { ...column, render: (_: unknown, row: Row) => apiTitle(row, language, t) }
          : column,
      ),
    [t, language],
  );
  return <ResourcePage def={resources.logApi} columns={columns} />;
}

import { Alert, Descriptions, Space, Table, Typography } from "antd";
import { useT } from "../../../i18n/index.tsx";
import { CreatesView } from "./CreatesView.tsx";
import type { RegistryImportPreview } from "./registry-import-calls.ts";

/** How many rows of a preview are good and bad, what the good ones would create, and why others fail. */
export function ImportPreviewView({ preview }: { preview: RegistryImportPreview }) {
  const t = useT();
  const count = (key: "total" | "valid" | "rejected") => (
    <span data-testid={`room-import-preview-${key}`}>{preview[key]}</span>
  );
  return (
    <Space
      orientation="vertical"
      size="middle"
      style={{ width: "100%" }}
      data-testid="room-import-preview-result"
    >
      <Alert
        type={preview.valid === 0 ? "error" : preview.rejected > 0 ? "warning" : "success"}
        showIcon
        title={
          preview.valid === 0
            ? t("pms.import.nothingValid")
            : preview.rejected > 0
              ? t("pms.import.someRejected")
              : t("pms.import.allValid")
        }
      />
      <Descriptions
        bordered
        size="small"
        column={3}
        items={[
          { key: "total", label: t("pms.import.total"), children: count("total") },
          { key: "valid", label: t("pms.import.valid"), children: count("valid") },
          { key: "rejected", label: t("import.rejected"), children: count("rejected") },
        ]}
      />
      <CreatesView
        creates={preview.creates}
        title={t("pms.import.willCreate")}
        existingCollectors={preview.existingCollectors}
      />
      {preview.problems.length > 0 && (
        <div>
          <Typography.Title level={5}>{t("pms.import.problems")}</Typography.Title>
          <Table
            size="small"
            rowKey={(problem) => `${problem.sheet ?? ""}:${problem.row}:${problem.reason}`}
            dataSource={preview.problems}
            pagination={preview.problems.length > 5 ? { pageSize: 5, size: "small" } : false}
            columns={[
              { key: "row", dataIndex: "row", title: t("pms.import.row"), width: 80 },
              // Only a file with topology sheets says which sheet a row is on.
              ...(preview.problems.some((p) => p.sheet)
                ? [
                    {
                      key: "sheet",
                      title: t("pms.import.sheet"),
                      width: 110,
                      className: "ml-nowrap",
                      render: (_: unknown, p: { sheet?: string }) => p.sheet ?? t("pms.import.roomSheet"),
                    },
                  ]
                : []),
              { key: "reason", dataIndex: "reason", title: t("pms.import.reason") },
            ]}
            data-testid="room-import-problems"
          />
          {preview.rejected > preview.problems.length && (
            <Typography.Text type="secondary">
              {t("pms.import.moreProblems", { shown: preview.problems.length, total: preview.rejected })}
            </Typography.Text>
          )}
        </div>
      )}
    </Space>
  );
}

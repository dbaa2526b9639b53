import { DownloadOutlined } from "@ant-design/icons";
import { Button, List, Space } from "antd";
import { useState } from "react";
import { startDownload } from "../../app/download.ts";
import { ImportDropZone } from "../../components/import/ImportDropZone.tsx";
import { ImportModal } from "../../components/import/ImportModal.tsx";
import { ImportProgress } from "../../components/import/ImportProgress.tsx";
import { ImportResultView } from "../../components/import/ImportResultView.tsx";
import { useImportUpload } from "../../components/import/useImportUpload.ts";
import { useT } from "../../i18n/index.tsx";
import { importRegions, type RegionImportResult, regionTemplateUrl } from "./region-calls.ts";

const TEST_ID = "region-import";
/** The server refuses files over 5 MB. */
const MAX_BYTES = 5 * 1024 * 1024;

/** Regions from an Excel sheet: the template, the upload with its progress, the counts and refusals. */
export function RegionImportDialog({ onClose, onImported }: { onClose: () => void; onImported: () => void }) {
  const t = useT();
  const [file, setFile] = useState<File | null>(null);
  const [result, setResult] = useState<RegionImportResult | null>(null);
  const { progress, busy, run } = useImportUpload(file);

  const submit = () =>
    run(importRegions, (answer) => {
      setResult(answer);
      onImported();
    });

  return (
    <ImportModal
      title={t("region.importTitle")}
      width={560}
      testId={TEST_ID}
      busy={busy}
      finished={result !== null}
      onAgain={() => {
        setResult(null);
        setFile(null);
      }}
      onClose={onClose}
      actions={[
        <Button
          key="submit"
          type="primary"
          onClick={() => void submit()}
          disabled={!file}
          loading={busy}
          data-testid="region-import-submit"
        >
          {t("region.importSubmit")}
        </Button>,
      ]}
    >
      {result ? (
        <ImportResultView
          testId={TEST_ID}
          rejected={result.rejected}
          rejectedFile=""
          counts={[
            { key: "created", label: t("region.importCreated"), value: result.created },
            { key: "updated", label: t("region.importUpdated"), value: result.updated },
            { key: "rejected", label: t("import.rejected"), value: result.rejected },
          ]}
        >
          {result.errors.length > 0 && (
            <List
              size="small"
              bordered
              dataSource={result.errors.slice(0, 50)}
              renderItem={(line) => <List.Item>{line}</List.Item>}
            />
          )}
        </ImportResultView>
      ) : (
        <Space orientation="vertical" size="middle" style={{ width: "100%" }}>
          <ImportDropZone
            file={file}
            onFile={setFile}
            maxBytes={MAX_BYTES}
            hint={t("region.importHint")}
            disabled={busy}
            testId={TEST_ID}
          />
          <Button
            type="link"
            icon={<DownloadOutlined />}
            onClick={() => startDownload(regionTemplateUrl())}
            data-testid="region-import-template"
          >
            {t("import.template")}
          </Button>
          {progress !== null && <ImportProgress percent={progress} testId={TEST_ID} />}
        </Space>
      )}
    </ImportModal>
  );
}

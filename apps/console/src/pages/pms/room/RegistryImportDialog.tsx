import { DownloadOutlined } from "@ant-design/icons";
import { Button, Space } from "antd";
import { useState } from "react";
import { startDownload } from "../../../app/download.ts";
import { ImportDropZone } from "../../../components/import/ImportDropZone.tsx";
import { ImportModal } from "../../../components/import/ImportModal.tsx";
import { ImportProgress } from "../../../components/import/ImportProgress.tsx";
import { ImportResultView } from "../../../components/import/ImportResultView.tsx";
import { useImportUpload } from "../../../components/import/useImportUpload.ts";
import { useT } from "../../../i18n/index.tsx";
import { CreatesView } from "./CreatesView.tsx";
import { ImportPreviewView } from "./ImportPreviewView.tsx";
import {
  previewRegistryImport,
  REGISTRY_IMPORT_MAX_BYTES,
  type RegistryImportPreview,
  type RegistryImportResult,
  registryTemplateUrl,
  runRegistryImport,
} from "./registry-import-calls.ts";

interface Props {
  onClose: () => void;
  /** Called after an import that wrote something, so the page can reload its table and tree. */
  onImported: (result: RegistryImportResult) => void;
}

const TEST_ID = "room-import";

/**
 * The registry import (areas, rooms, owners, meters and their links from one sheet): pick a
 * checked .xlsx, preview what it would do and why rows fail, then import with progress and get
 * the counts and the sheet of rejected rows.
 */
export function RegistryImportDialog({ onClose, onImported }: Props) {
  const t = useT();
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<RegistryImportPreview | null>(null);
  const [result, setResult] = useState<RegistryImportResult | null>(null);
  const { progress, busy, run } = useImportUpload(file);

  const choose = (picked: File | null) => {
    setFile(picked);
    // A preview speaks of the file it was made for.
    setPreview(null);
  };

  const runPreview = () => run(previewRegistryImport, setPreview);
  const runImport = () =>
    run(runRegistryImport, (answer) => {
      setResult(answer);
      if (answer.imported > 0) onImported(answer);
    });

  const again = () => {
    setResult(null);
    choose(null);
  };

  return (
    <ImportModal
      title={t("pms.import.title")}
      width={760}
      testId={TEST_ID}
      busy={busy}
      finished={result !== null}
      onAgain={again}
      onClose={onClose}
      actions={[
        <Button
          key="preview"
          type={preview ? "default" : "primary"}
          onClick={() => void runPreview()}
          disabled={!file || (busy && preview !== null)}
          loading={busy && preview === null}
          data-testid="room-import-preview"
        >
          {t("pms.import.preview")}
        </Button>,
        <Button
          key="submit"
          type="primary"
          onClick={() => void runImport()}
          disabled={!preview || preview.valid === 0}
          loading={busy && preview !== null}
          data-testid="room-import-submit"
        >
          {t("pms.import.submit")}
        </Button>,
      ]}
    >
      {result ? (
        <ImportResultView
          testId={TEST_ID}
          rejected={result.rejected}
          rejectedFile={result.rejectedFile}
          counts={[
            { key: "total", label: t("pms.import.total"), value: result.total },
            { key: "imported", label: t("pms.import.imported"), value: result.imported },
            { key: "unchanged", label: t("pms.import.unchanged"), value: result.unchanged ?? 0 },
            { key: "rejected", label: t("import.rejected"), value: result.rejected },
          ]}
        >
          <CreatesView creates={result.creates} title={t("pms.import.created")} />
        </ImportResultView>
      ) : (
        <Space orientation="vertical" size="middle" style={{ width: "100%" }}>
          <ImportDropZone
            file={file}
            onFile={choose}
            maxBytes={REGISTRY_IMPORT_MAX_BYTES}
            hint={t("pms.import.hint")}
            disabled={busy}
            testId={TEST_ID}
          />
          <Button
            type="link"
            icon={<DownloadOutlined />}
            onClick={() => startDownload(registryTemplateUrl())}
            data-testid="room-import-template"
            style={{ paddingInline: 0 }}
          >
            {t("import.template")}
          </Button>
          {progress !== null && <ImportProgress percent={progress} testId={TEST_ID} />}
          {preview && !busy && <ImportPreviewView preview={preview} />}
        </Space>
      )}
    </ImportModal>
  );
}

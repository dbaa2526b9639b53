import { DownloadOutlined } from "@ant-design/icons";
import { Button, Space, Switch, Typography } from "antd";
import { useState } from "react";
import { startDownload } from "../../app/download.ts";
import { ImportDropZone } from "../../components/import/ImportDropZone.tsx";
import { ImportModal } from "../../components/import/ImportModal.tsx";
import { ImportProgress } from "../../components/import/ImportProgress.tsx";
import { ImportResultView } from "../../components/import/ImportResultView.tsx";
import { useImportUpload } from "../../components/import/useImportUpload.ts";
import { useT } from "../../i18n/index.tsx";
import { type ImportResult, importTemplateUrl, importUsers } from "./user-calls.ts";
import { USER_IMPORT_MAX_BYTES } from "./user-rules.ts";

interface Props {
  onClose: () => void;
  /** Called with every finished import, so the page can reload its table. */
  onImported: (result: ImportResult) => void;
}

const TEST_ID = "user-import";

/**
 * The user import dialog: one checked .xlsx, whether existing accounts are overwritten, the
 * template, the upload with its progress, then the counts and the sheet of refused rows.
 */
export function UserImportDialog({ onClose, onImported }: Props) {
  const t = useT();
  const [file, setFile] = useState<File | null>(null);
  const [covered, setCovered] = useState(false);
  const [result, setResult] = useState<ImportResult | null>(null);
  const { progress, busy, run } = useImportUpload(file);

  const submit = () =>
    run(
      (picked, onProgress) => importUsers(picked, covered, onProgress),
      (answer) => {
        setResult(answer);
        onImported(answer);
      },
    );

  const again = () => {
    setResult(null);
    setFile(null);
  };

  return (
    <ImportModal
      title={t("user.importTitle")}
      width={560}
      testId={TEST_ID}
      busy={busy}
      finished={result !== null}
      onAgain={again}
      onClose={onClose}
      actions={[
        <Button
          key="submit"
          type="primary"
          onClick={() => void submit()}
          disabled={!file}
          loading={busy}
          data-testid="user-import-submit"
        >
          {t("user.importSubmit")}
        </Button>,
      ]}
    >
      {result ? (
        <ImportResultView
          testId={TEST_ID}
          rejected={result.rejected}
          rejectedFile={result.rejectedFile}
          counts={[
            { key: "created", label: t("user.importCreated"), value: result.created },
            { key: "updated", label: t("user.importUpdated"), value: result.updated },
            { key: "rejected", label: t("import.rejected"), value: result.rejected },
          ]}
        />
      ) : (
        <Space orientation="vertical" size="middle" style={{ width: "100%" }}>
          <ImportDropZone
            file={file}
            onFile={setFile}
            maxBytes={USER_IMPORT_MAX_BYTES}
            hint={t("user.importHint")}
            disabled={busy}
            testId={TEST_ID}
          />
          <Space wrap style={{ width: "100%", justifyContent: "space-between" }}>
            <Space>
              <Switch
                checked={covered}
                onChange={setCovered}
                disabled={busy}
                data-testid="user-import-covered"
              />
              <span>{t("user.importCovered")}</span>
            </Space>
            <Button
              type="link"
              icon={<DownloadOutlined />}
              onClick={() => startDownload(importTemplateUrl())}
              data-testid="user-import-template"
            >
              {t("import.template")}
            </Button>
          </Space>
          <Typography.Text type="secondary">{t("user.importCoveredHint")}</Typography.Text>
          {progress !== null && <ImportProgress percent={progress} testId={TEST_ID} />}
        </Space>
      )}
    </ImportModal>
  );
}

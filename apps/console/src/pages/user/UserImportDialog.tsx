import { Space, Switch, Typography } from "antd";
import { useState } from "react";
import { ImportDialog } from "../../components/import/ImportDialog.tsx";
import { useT } from "../../i18n/index.tsx";
import { type ImportResult, importTemplateUrl, importUsers } from "./user-calls.ts";
import { USER_IMPORT_MAX_BYTES } from "./user-rules.ts";

interface Props {
  onClose: () => void;
  /** Called with every finished import, so the page can reload its table. */
  onImported: (result: ImportResult) => void;
}

/** The user import: whether existing accounts are overwritten, then created, updated and refused. */
export function UserImportDialog({ onClose, onImported }: Props) {
  const t = useT();
  const [covered, setCovered] = useState(false);
  return (
    <ImportDialog
      testId="user-import"
      title={t("user.importTitle")}
      hint={t("user.importHint")}
      maxBytes={USER_IMPORT_MAX_BYTES}
      templateUrl={importTemplateUrl}
      submitLabel={t("user.importSubmit")}
      send={(file, onProgress) => importUsers(file, covered, onProgress)}
      report={(result) => ({
        rejected: result.rejected,
        rejectedFile: result.rejectedFile,
        counts: [
          { key: "created", label: t("user.importCreated"), value: result.created },
          { key: "updated", label: t("user.importUpdated"), value: result.updated },
          { key: "rejected", label: t("import.rejected"), value: result.rejected },
        ],
      })}
      onImported={onImported}
      onClose={onClose}
      options={(busy) => (
        <Space>
          <Switch checked={covered} onChange={setCovered} disabled={busy} data-testid="user-import-covered" />
          <span>{t("user.importCovered")}</span>
        </Space>
      )}
      optionsHint={<Typography.Text type="secondary">{t("user.importCoveredHint")}</Typography.Text>}
    />
  );
}

import { ImportDialog } from "../../components/import/ImportDialog.tsx";
import { useT } from "../../i18n/index.tsx";
import { importManualReads, manualReadTemplateUrl, type ReadingKind } from "./reading-fix-calls.ts";

/** The server refuses sheets over 4 MB (a few thousand reads are far less). */
const MAX_BYTES = 4 * 1024 * 1024;

/**
 * Import reads taken on site from a sheet: each good row is entered as a manual read; refused rows
 * (unknown meter, lower than before, in the future, already imported) come back as a sheet with reasons.
 */
export function ManualReadImportDialog({
  kind,
  onClose,
  onImported,
}: {
  kind: ReadingKind;
  onClose: () => void;
  onImported: () => void;
}) {
  const t = useT();
  return (
    <ImportDialog
      testId="manual-read-import"
      title={t("readingFix.importTitle")}
      hint={t("readingFix.importHint")}
      maxBytes={MAX_BYTES}
      templateUrl={() => manualReadTemplateUrl(kind)}
      submitLabel={t("readingFix.import")}
      send={importManualReads(kind)}
      report={(result) => ({
        rejected: result.rejected,
        rejectedFile: result.rejectedFile,
        counts: [
          { key: "imported", label: t("readingFix.imported"), value: result.imported },
          { key: "rejected", label: t("import.rejected"), value: result.rejected },
        ],
      })}
      onImported={onImported}
      onClose={onClose}
    />
  );
}

import { ImportDialog } from "../../../components/import/ImportDialog.tsx";
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

/**
 * The registry import (areas, rooms, owners, meters and their links from one sheet): a preview of
 * what it would do and why rows fail comes first, then the import and what it created.
 */
export function RegistryImportDialog({ onClose, onImported }: Props) {
  const t = useT();
  return (
    <ImportDialog<RegistryImportResult, RegistryImportPreview>
      testId="room-import"
      title={t("pms.import.title")}
      width={760}
      hint={t("pms.import.hint")}
      maxBytes={REGISTRY_IMPORT_MAX_BYTES}
      templateUrl={registryTemplateUrl}
      submitLabel={t("pms.import.submit")}
      preview={{
        label: t("pms.import.preview"),
        send: previewRegistryImport,
        view: (preview) => <ImportPreviewView preview={preview} />,
        importable: (preview) => preview.valid > 0,
      }}
      send={runRegistryImport}
      report={(result) => ({
        rejected: result.rejected,
        rejectedFile: result.rejectedFile,
        counts: [
          { key: "total", label: t("pms.import.total"), value: result.total },
          { key: "imported", label: t("pms.import.imported"), value: result.imported },
          { key: "unchanged", label: t("pms.import.unchanged"), value: result.unchanged ?? 0 },
          { key: "rejected", label: t("import.rejected"), value: result.rejected },
        ],
        details: (
          <CreatesView
            creates={result.creates}
            title={t("pms.import.created")}
            existingCollectors={result.existingCollectors}
          />
        ),
      })}
      onImported={(result) => {
        if (result.imported > 0) onImported(result);
      }}
      onClose={onClose}
    />
  );
}

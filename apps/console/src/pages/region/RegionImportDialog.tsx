import { List } from "antd";
import { ImportDialog } from "../../components/import/ImportDialog.tsx";
import { useT } from "../../i18n/index.tsx";
import { importRegions, regionTemplateUrl } from "./region-calls.ts";

/** The server refuses files over 5 MB. */
const MAX_BYTES = 5 * 1024 * 1024;

/** The region import: regions added and updated, and the first lines saying why rows were refused. */
export function RegionImportDialog({ onClose, onImported }: { onClose: () => void; onImported: () => void }) {
  const t = useT();
  return (
    <ImportDialog
      testId="region-import"
      title={t("region.importTitle")}
      hint={t("region.importHint")}
      maxBytes={MAX_BYTES}
      templateUrl={regionTemplateUrl}
      submitLabel={t("region.importSubmit")}
      send={importRegions}
      report={(result) => ({
        rejected: result.rejected,
        rejectedFile: "",
        counts: [
          { key: "created", label: t("region.importCreated"), value: result.created },
          { key: "updated", label: t("region.importUpdated"), value: result.updated },
          { key: "rejected", label: t("import.rejected"), value: result.rejected },
        ],
        details: result.errors.length > 0 && (
          <List
            size="small"
            bordered
            dataSource={result.errors.slice(0, 50)}
            renderItem={(line) => <List.Item>{line}</List.Item>}
          />
        ),
      })}
      onImported={onImported}
      onClose={onClose}
    />
  );
}

import { resources } from "@meterline/contracts";
import { Button } from "antd";
import { useCallback, useState } from "react";
import { useT } from "../../../i18n/index.tsx";
import { useConsole } from "../../../store/useConsole.ts";
import { AreaScopedPage } from "../area/AreaScopedPage.tsx";
import { AreaTreeLayout } from "../area/AreaTreeLayout.tsx";
import { RegistryImportDialog } from "./RegistryImportDialog.tsx";

type Reload = () => Promise<void>;

/**
 * The room screen: areas on the left, the rooms of the chosen area (and below) on the right, and
 * the registry import of `room_import`, after which both the table and the tree reload (an import
 * may create areas).
 */
export default function RoomPage() {
  const t = useT();
  const canImport = useConsole((state) => state.permission.room_import === true);
  const [importing, setImporting] = useState<{ reload: Reload; reloadTree: Reload } | null>(null);
  const close = useCallback(() => setImporting(null), []);
  return (
    <AreaTreeLayout>
      {({ areaId, reloadTree }) => (
        <>
          <AreaScopedPage
            def={resources.room}
            areaId={areaId}
            toolbar={(reload) =>
              canImport && (
                <Button onClick={() => setImporting({ reload, reloadTree })} data-testid="room-import">
                  {t("pms.import.open")}
                </Button>
              )
            }
          />
          {importing && (
            <RegistryImportDialog
              onClose={close}
              onImported={() => {
                void importing.reload();
                void importing.reloadTree();
              }}
            />
          )}
        </>
      )}
    </AreaTreeLayout>
  );
}

import type { Row } from "@meterline/api-client";
import { permissionCodes, type ResourceDef } from "@meterline/contracts";
import { Button, type TableColumnsType, Tag, Tooltip } from "antd";
import { useCallback, useRef, useState } from "react";
import { useT } from "../../i18n/index.tsx";
import { useConsole } from "../../store/useConsole.ts";
import { AreaScopedPage } from "../pms/area/AreaScopedPage.tsx";
import { AreaTreeLayout } from "../pms/area/AreaTreeLayout.tsx";
import { ManualReadDialog } from "./ManualReadDialog.tsx";
import { ManualReadImportDialog } from "./ManualReadImportDialog.tsx";
import type { ReadingKind } from "./reading-fix-calls.ts";
import { VoidReadDialog } from "./VoidReadDialog.tsx";

interface Props {
  def: ResourceDef;
  kind: ReadingKind;
}

/**
 * A live reading log the operator corrects: "enter a read" above the table and "void" on each read
 * not voided yet, behind the screen's own add / delete buttons. Voided reads stay listed, tagged,
 * with who voided them, when and why on the tag (and in the detail view).
 */
export function CorrectableLogPage({ def, kind }: Props) {
  const t = useT();
  const codes = permissionCodes(def);
  const canAdd = useConsole((state) => state.permission[codes.add] === true);
  const canVoid = useConsole((state) => state.permission[codes.remove] === true);
  // The import button of the screen (seeded as `<menu>_import`), as the registry's and users' are.
  const canImport = useConsole((state) => state.permission[`${def.name}_import`] === true);
  const [adding, setAdding] = useState(false);
  const [importing, setImporting] = useState(false);
  const [voiding, setVoiding] = useState<Row | null>(null);
  const reloadTable = useRef<() => Promise<void>>(async () => undefined);
  const closed = (saved: boolean) => {
    setAdding(false);
    setImporting(false);
    setVoiding(null);
    if (saved) void reloadTable.current();
  };

  const columns = useCallback(
    (generated: TableColumnsType<Row>) =>
      generated.map((column) =>
        column.key === "voided"
          ? {
              ...column,
              render: (_: unknown, row: Row) =>
                row.voided === 1 ? (
                  <Tooltip
                    title={t("readingFix.voidedBy", {
                      user: String(row.voidUser ?? ""),
                      time: String(row.voidTime ?? ""),
                      reason: String(row.voidReason ?? ""),
                    })}
                  >
                    <Tag color="red" data-testid="read-voided">
                      {t("readingFix.voidedTag")}
                    </Tag>
                  </Tooltip>
                ) : null,
            }
          : column,
      ),
    [t],
  );

  return (
    <>
      <AreaTreeLayout>
        {({ areaId }) => (
          <AreaScopedPage
            def={def}
            areaId={areaId}
            columns={columns}
            toolbar={(reload) => (
              <>
                {canAdd && (
                  <Button
                    type="primary"
                    data-testid="manual-read-add"
                    onClick={() => {
                      reloadTable.current = reload;
                      setAdding(true);
                    }}
                  >
                    {t("readingFix.add")}
                  </Button>
                )}
                {canImport && (
                  <Button
                    data-testid="manual-read-import"
                    onClick={() => {
                      reloadTable.current = reload;
                      setImporting(true);
                    }}
                  >
                    {t("readingFix.import")}
                  </Button>
                )}
              </>
            )}
            rowActions={(row, reload) =>
              canVoid &&
              row.voided !== 1 && (
                <Button
                  type="link"
                  danger
                  data-testid="read-void"
                  onClick={() => {
                    reloadTable.current = reload;
                    setVoiding(row);
                  }}
                >
                  {t("readingFix.void")}
                </Button>
              )
            }
          />
        )}
      </AreaTreeLayout>
      {adding && <ManualReadDialog def={def} kind={kind} onClose={closed} />}
      {importing && (
        <ManualReadImportDialog
          kind={kind}
          onClose={() => closed(false)}
          onImported={() => void reloadTable.current()}
        />
      )}
      {voiding && <VoidReadDialog kind={kind} row={voiding} onClose={closed} />}
    </>
  );
}

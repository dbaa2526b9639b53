import type { Row } from "@meterline/api-client";
import { resources } from "@meterline/contracts";
import { Button } from "antd";
import { useCallback, useState } from "react";
import { reportNetworkError } from "../../../app/api.ts";
import { useFeedback } from "../../../app/feedback.ts";
import { ResourcePage } from "../../../crud/ResourcePage.tsx";
import { useT } from "../../../i18n/index.tsx";
import { useConsole } from "../../../store/useConsole.ts";
import { OwnerGroupBindDialog } from "./OwnerGroupBindDialog.tsx";
import { cutGroupSupply } from "./owner-group-calls.ts";

/**
 * The owner group screen: the generic group table plus binding owners (`ownerGroup_bind`) and a
 * supply cut for every meter of the group's owners (`ownerGroup_close`), which asks first.
 */
export default function OwnerGroupPage() {
  const t = useT();
  const { message, modal } = useFeedback();
  const canBind = useConsole((state) => state.permission.ownerGroup_bind === true);
  const canClose = useConsole((state) => state.permission.ownerGroup_close === true);
  const [binding, setBinding] = useState<{ id: string; name: string; reload: () => Promise<void> } | null>(
    null,
  );
  const closeBinding = useCallback(() => {
    void binding?.reload();
    setBinding(null);
  }, [binding]);

  const cut = (row: Row) =>
    modal.confirm({
      title: t("pms.group.cutTitle"),
      content: t("pms.group.cutConfirm", { name: String(row.groupName ?? "") }),
      okText: t("pms.group.cut"),
      okButtonProps: { danger: true, "data-testid": "owner-group-cut-ok" },
      onOk: async () => {
        try {
          const { said, skipped } = await cutGroupSupply(String(row.id));
          // Meters left out (a command still open, no collector) are worth a second look.
          (skipped > 0 ? message.warning : message.success)(said || t("pms.group.cutDone"));
        } catch (error) {
          reportNetworkError(error);
        }
      },
    });

  return (
    <>
      <ResourcePage
        def={resources.ownerGroup}
        rowActions={(row, reload) => (
          <>
            {canBind && (
              <Button
                type="link"
                size="small"
                onClick={() => setBinding({ id: String(row.id), name: String(row.groupName ?? ""), reload })}
                data-testid="row-group-bind"
              >
                {t("pms.group.bind")}
              </Button>
            )}
            {canClose && (
              <Button type="link" size="small" danger onClick={() => cut(row)} data-testid="row-group-cut">
                {t("pms.group.cut")}
              </Button>
            )}
          </>
        )}
      />
      {binding && (
        <OwnerGroupBindDialog groupId={binding.id} groupName={binding.name} onClose={closeBinding} />
      )}
    </>
  );
}

import { resources } from "@meterline/contracts";
import { Button } from "antd";
import { useCallback, useState } from "react";
import { ResourcePage } from "../../crud/ResourcePage.tsx";
import { useT } from "../../i18n/index.tsx";
import { useConsole } from "../../store/useConsole.ts";
import { TopMenuGrantDialog } from "./TopMenuGrantDialog.tsx";

/** The top-menu screen: the generic table plus the screens each top menu holds (`topmenu_setting`). */
export default function TopMenuPage() {
  const t = useT();
  const canGrant = useConsole((state) => state.permission.topmenu_setting === true);
  const [granting, setGranting] = useState<{ id: string; name: string } | null>(null);
  const close = useCallback(() => setGranting(null), []);
  return (
    <>
      <ResourcePage
        def={resources.topMenu}
        rowActions={(row) =>
          canGrant && (
            <Button
              type="link"
              size="small"
              onClick={() => setGranting({ id: String(row.id), name: String(row.name ?? "") })}
              data-testid="row-topmenu-grant"
            >
              {t("topMenu.grant")}
            </Button>
          )
        }
      />
      {granting && <TopMenuGrantDialog topMenuId={granting.id} name={granting.name} onClose={close} />}
    </>
  );
}

import { resources } from "@meterline/contracts";
import { Button } from "antd";
import { useCallback, useState } from "react";
import { ResourcePage } from "../../crud/ResourcePage.tsx";
import { useT } from "../../i18n/index.tsx";
import { useConsole } from "../../store/useConsole.ts";
import { GrantDialog } from "./GrantDialog.tsx";

/** The role screen: the generic role table plus the grant action of `role_grant`. */
export default function RolePage() {
  const t = useT();
  const canGrant = useConsole((state) => state.permission.role_grant === true);
  const [granting, setGranting] = useState<string | null>(null);
  const close = useCallback(() => setGranting(null), []);
  return (
    <>
      <ResourcePage
        def={resources.role}
        rowActions={(row) =>
          canGrant && (
            <Button
              type="link"
              size="small"
              onClick={() => setGranting(String(row.id))}
              data-testid="row-grant"
            >
              {t("role.grant")}
            </Button>
          )
        }
      />
      {granting && <GrantDialog roleId={granting} onClose={close} />}
    </>
  );
}

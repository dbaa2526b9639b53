import type { Row } from "@meterline/api-client";
import { resources } from "@meterline/contracts";
import { Button, type TableColumnsType } from "antd";
import { useCallback, useMemo, useState } from "react";
import { ResourcePage } from "../../../crud/ResourcePage.tsx";
import { useT } from "../../../i18n/index.tsx";
import { OwnerLogDrawer } from "./OwnerLogDrawer.tsx";

/**
 * The owner screen: the generic owner table with each owner's rooms and group (owner/page joins
 * them in), and a row action showing the owner's change log.
 */
export default function OwnerPage() {
  const t = useT();
  const [logOf, setLogOf] = useState<{ id: string; name: string } | null>(null);
  const close = useCallback(() => setLogOf(null), []);
  const columns = useMemo(
    () => (generated: TableColumnsType<Row>) => [
      ...generated,
      {
        key: "roomNames",
        dataIndex: "roomNames",
        title: t("pms.owner.rooms"),
        ellipsis: true,
        render: (value: unknown) => String(value ?? ""),
      },
      {
        key: "ownerGroupName",
        dataIndex: "ownerGroupName",
        title: t("pms.owner.group"),
        ellipsis: true,
        render: (value: unknown) => String(value ?? ""),
      },
    ],
    [t],
  );
  return (
    <>
      <ResourcePage
        def={resources.owner}
        columns={columns}
        rowActions={(row) => (
          <Button
            type="link"
            size="small"
            onClick={() => setLogOf({ id: String(row.id), name: String(row.ownerName ?? "") })}
            data-testid="row-owner-log"
          >
            {t("pms.ownerLog.open")}
          </Button>
        )}
      />
      {logOf && <OwnerLogDrawer ownerId={logOf.id} ownerName={logOf.name} onClose={close} />}
    </>
  );
}

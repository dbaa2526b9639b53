import { resources } from "@meterline/contracts";
import { Button } from "antd";
import { useCallback, useState } from "react";
import { ResourcePage } from "../../../crud/ResourcePage.tsx";
import { useT } from "../../../i18n/index.tsx";
import { useConsole } from "../../../store/useConsole.ts";
import { TopologyDialog } from "./topology/TopologyDialog.tsx";

/**
 * The area screen: the generic area tree table plus the topology of `area_topology`, drawn for the
 * ticked area (the whole tenant when none is ticked; the dialog can change it).
 */
export default function AreaPage() {
  const t = useT();
  const canTopology = useConsole((state) => state.permission.area_topology === true);
  const [topology, setTopology] = useState<{ areaId?: string } | null>(null);
  const close = useCallback(() => setTopology(null), []);
  return (
    <>
      <ResourcePage
        def={resources.area}
        toolbar={(_reload, selected) =>
          canTopology && (
            <Button onClick={() => setTopology({ areaId: selected[0] })} data-testid="area-topology">
              {t("pms.topology.open")}
            </Button>
          )
        }
      />
      {topology && <TopologyDialog areaId={topology.areaId} onClose={close} />}
    </>
  );
}

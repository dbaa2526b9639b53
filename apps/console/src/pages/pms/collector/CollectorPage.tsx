import { resources } from "@meterline/contracts";
import { AreaScopedPage } from "../area/AreaScopedPage.tsx";
import { AreaTreeLayout } from "../area/AreaTreeLayout.tsx";

/** The collector screen: areas on the left, the collectors of the chosen area (and below) on the right. */
export default function CollectorPage() {
  return (
    <AreaTreeLayout>
      {({ areaId }) => <AreaScopedPage def={resources.collector} areaId={areaId} />}
    </AreaTreeLayout>
  );
}

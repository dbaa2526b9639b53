import type { QueryParams } from "@meterline/api-client";
import { type ResourceDef, resources } from "@meterline/contracts";
import { useState } from "react";
import { AreaScopedPage } from "../pms/area/AreaScopedPage.tsx";
import { AreaTreeLayout } from "../pms/area/AreaTreeLayout.tsx";
import { CorrectableLogPage } from "./CorrectableLogPage.tsx";
import { UsageTrend } from "./UsageTrend.tsx";

/** A reading log: areas on the left, the reads of the chosen area's meters on the right. */
function ReadingLogPage({ def }: { def: ResourceDef }) {
  return <AreaTreeLayout>{({ areaId }) => <AreaScopedPage def={def} areaId={areaId} />}</AreaTreeLayout>;
}

/**
 * Daily usage: areas on the left; the chosen area's usage per day as a chart above its table,
 * following the table's search too (one meter searched, the chart is that meter's).
 */
function DailyUsagePage({ def, unit }: { def: ResourceDef; unit: string }) {
  const [search, setSearch] = useState<QueryParams>({});
  return (
    <AreaTreeLayout>
      {({ areaId }) => (
        <>
          <UsageTrend def={def} unit={unit} areaId={areaId} search={search} />
          <AreaScopedPage def={def} areaId={areaId} onSearch={setSearch} />
        </>
      )}
    </AreaTreeLayout>
  );
}

export const ElectricReadingsPage = () => <CorrectableLogPage def={resources.dataRead} kind="electric" />;
export const WaterReadingsPage = () => <CorrectableLogPage def={resources.waterDataRead} kind="water" />;
export const ElectricReadingHistoryPage = () => <ReadingLogPage def={resources.dataReadHistory} />;
export const WaterReadingHistoryPage = () => <ReadingLogPage def={resources.waterDataReadHistory} />;
export const ManualReadingsPage = () => <CorrectableLogPage def={resources.dataReadOther} kind="electric" />;
export const ManualReadingHistoryPage = () => <ReadingLogPage def={resources.dataReadOtherHis} />;
export const ElectricDailyPage = () => <DailyUsagePage def={resources.dataDaily} unit="kWh" />;
export const WaterDailyPage = () => <DailyUsagePage def={resources.waterDataDaily} unit="m³" />;

import { Empty, Spin, Typography, theme } from "antd";
import { lazy, Suspense, useCallback } from "react";
import { useLoaded } from "../../../components/useLoaded.ts";
import { useT } from "../../../i18n/index.tsx";
import { ownerUsage } from "./counter-calls.ts";
import { sumTwoPlaces } from "./money-text.ts";

const UsageBarsChart = lazy(() => import("../../../components/charts/UsageBarsChart.tsx"));
const DAYS = 30;

/**
 * The owner's usage per day over the last 30 days: electricity, and water when the owner has a
 * water account or used any. A failed load says so here without hiding the rest of the counter.
 */
export function OwnerUsage({
  ownerId,
  tenantId,
  hasWater,
}: {
  ownerId: string;
  tenantId?: string;
  hasWater: boolean;
}) {
  const t = useT();
  const { token } = theme.useToken();
  const load = useCallback(() => ownerUsage(ownerId, DAYS, tenantId), [ownerId, tenantId]);
  const state = useLoaded(load);
  if (state.loading && !state.data) return <Spin />;
  if (state.error)
    return (
      <Typography.Text type="danger" role="alert" data-testid="counter-usage-failed">
        {t("counter.usageFailed")}: {state.error}
      </Typography.Text>
    );
  const days = state.data ?? [];
  // Usage values are exact two-place decimals, summed like money.
  const electric = sumTwoPlaces(days.map((d) => d.electric));
  const water = sumTwoPlaces(days.map((d) => d.water));
  const series = [
    {
      key: "electric",
      total: electric,
      unit: "kWh",
      summary: t("counter.usageElectric", { total: electric }),
    },
    ...(hasWater || water !== "0.00"
      ? [{ key: "water", total: water, unit: "m³", summary: t("counter.usageWater", { total: water }) }]
      : []),
  ];
  if (series.every((s) => s.total === "0.00"))
    return <Empty description={t("counter.noUsage")} data-testid="counter-usage-empty" />;
  return (
    <Suspense fallback={<Spin />}>
      {series.map((s) => (
        <div key={s.key}>
          <Typography.Text type="secondary">{s.summary}</Typography.Text>
          <UsageBarsChart
            bars={days.map((d) => ({
              label: d.day.slice(5),
              value: s.key === "water" ? d.water : d.electric,
            }))}
            unit={s.unit}
            color={s.key === "water" ? token.colorInfo : token.colorPrimary}
            textColor={token.colorTextSecondary}
            summary={s.summary}
            testId={`counter-usage-${s.key}`}
            height={180}
          />
        </div>
      ))}
    </Suspense>
  );
}

import type { QueryParams } from "@meterline/api-client";
import type { ResourceDef } from "@meterline/contracts";
import { Card, Empty, Segmented, Spin, Typography, theme } from "antd";
import { lazy, type ReactNode, Suspense, useCallback, useState } from "react";
import { LoadFailed } from "../../components/LoadFailed.tsx";
import { useLoaded } from "../../components/useLoaded.ts";
import { useT } from "../../i18n/index.tsx";
import { loadTrend, trendTotal } from "./trend-calls.ts";

const UsageBarsChart = lazy(() => import("../../components/charts/UsageBarsChart.tsx"));
const RANGES = [7, 30, 90] as const;

/** Usage per day above a daily usage table, for the area chosen beside it and the table's search. */
export function UsageTrend({
  def,
  unit,
  areaId,
  search,
}: {
  def: ResourceDef;
  unit: string;
  areaId?: string;
  /** The table's last search: one meter selected, the chart is that meter's. */
  search?: QueryParams;
}) {
  const t = useT();
  const { token } = theme.useToken();
  const [days, setDays] = useState<(typeof RANGES)[number]>(30);
  const load = useCallback(() => loadTrend(def, days, areaId, search), [def, days, areaId, search]);
  const state = useLoaded(load);

  const trend = state.data ?? [];
  const total = trendTotal(trend);
  const summary = t("reading.trendSummary", { days, total, unit });
  let body: ReactNode;
  if (state.error) body = <LoadFailed error={state.error} />;
  else if (!state.loading && trend.every((d) => d.meters === 0))
    body = <Empty description={t("reading.noUsage")} data-testid="usage-trend-empty" />;
  else
    body = (
      <Suspense fallback={<Spin />}>
        <UsageBarsChart
          bars={trend.map((d) => ({ label: d.day.slice(5), value: d.usage }))}
          unit={unit}
          color={token.colorPrimary}
          textColor={token.colorTextSecondary}
          summary={summary}
          testId="usage-trend-chart"
        />
      </Suspense>
    );
  return (
    <Card
      size="small"
      data-testid="usage-trend"
      title={t("reading.trendTitle")}
      extra={
        <Segmented
          size="small"
          aria-label={t("chart.periodLabel")}
          value={days}
          onChange={(value) => setDays(value)}
          options={RANGES.map((n) => ({ value: n, label: t("reading.lastDays", { days: n }) }))}
        />
      }
      style={{ marginBottom: 12 }}
    >
      <Spin spinning={state.loading}>
        <Typography.Text type="secondary" data-testid="usage-trend-total">
          {summary}
        </Typography.Text>
        {body}
      </Spin>
    </Card>
  );
}

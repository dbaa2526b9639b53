import { BarChart } from "echarts/charts";
import { GridComponent, TooltipComponent } from "echarts/components";
import * as echarts from "echarts/core";
import { CanvasRenderer } from "echarts/renderers";
import { useCallback, useMemo, useRef } from "react";
import { useEChart } from "../../components/charts/useEChart.ts";
import type { TrendDay } from "./trend-calls.ts";

// Only the parts of ECharts a bar chart needs, in this lazily loaded chunk.
echarts.use([BarChart, GridComponent, TooltipComponent, CanvasRenderer]);

interface Props {
  days: TrendDay[];
  unit: string;
  color: string;
  textColor: string;
  /** Read by screen readers instead of the canvas. */
  summary: string;
}

/** Usage per day as bars; the drawn values are written to `data-usage` so tests can read them. */
export default function UsageTrendChart({ days, unit, color, textColor, summary }: Props) {
  const host = useRef<HTMLDivElement>(null);
  const option = useMemo(
    () => ({
      grid: { left: 48, right: 16, top: 24, bottom: 28 },
      tooltip: { trigger: "axis", valueFormatter: (v: unknown) => `${String(v)} ${unit}` },
      xAxis: { type: "category", data: days.map((d) => d.day.slice(5)), axisLabel: { color: textColor } },
      yAxis: {
        type: "value",
        name: unit,
        nameTextStyle: { color: textColor },
        axisLabel: { color: textColor },
      },
      // ECharts plots numbers; the exact text stays in the table and the total.
      series: [{ type: "bar", data: days.map((d) => Number(d.usage)), itemStyle: { color } }],
    }),
    [days, unit, color, textColor],
  );
  const noteUsage = useCallback(
    (_: unknown, element: HTMLDivElement) => {
      element.dataset.usage = JSON.stringify(days.map((d) => [d.day, d.usage]));
    },
    [days],
  );
  useEChart(host, option, noteUsage);

  return (
    <div ref={host} role="img" aria-label={summary} data-testid="usage-trend-chart" style={{ height: 220 }} />
  );
}

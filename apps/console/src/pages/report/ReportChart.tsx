import { BarChart, LineChart, PieChart } from "echarts/charts";
import { GridComponent, LegendComponent, TooltipComponent } from "echarts/components";
import * as echarts from "echarts/core";
import { CanvasRenderer } from "echarts/renderers";
import { useCallback, useMemo, useRef } from "react";
import { useEChart } from "../../components/charts/useEChart.ts";

// Only the chart kinds a report can choose; this file loads with the report screen.
echarts.use([
  BarChart,
  LineChart,
  PieChart,
  GridComponent,
  LegendComponent,
  TooltipComponent,
  CanvasRenderer,
]);

export interface ChartSeries {
  name: string;
  /** Exact decimal text per category. */
  values: (string | null)[];
}

interface Props {
  kind: "bar" | "line" | "pie";
  categories: string[];
  series: ChartSeries[];
  textColor: string;
  summary: string;
}

/**
 * A report's chart: bars or lines of every measure over the rows' group values, or a pie of the
 * first measure. What is drawn is written to `data-series` (the table below holds the figures).
 */
export default function ReportChart({ kind, categories, series, textColor, summary }: Props) {
  const host = useRef<HTMLDivElement>(null);
  const option = useMemo(() => {
    if (kind === "pie")
      return {
        tooltip: { trigger: "item" },
        series: [
          {
            type: "pie",
            radius: ["35%", "70%"],
            label: { color: textColor, formatter: "{b}: {d}%" },
            data: categories.map((name, i) => ({ name, value: Number(series[0]?.values[i] ?? 0) })),
          },
        ],
      };
    return {
      grid: { left: 56, right: 16, top: 36, bottom: 48 },
      legend: { top: 0, textStyle: { color: textColor } },
      tooltip: { trigger: "axis" },
      xAxis: { type: "category", data: categories, axisLabel: { color: textColor } },
      yAxis: { type: "value", axisLabel: { color: textColor } },
      series: series.map((s) => ({
        name: s.name,
        type: kind,
        data: s.values.map((v) => (v === null ? null : Number(v))),
      })),
    };
  }, [kind, categories, series, textColor]);
  const note = useCallback(
    (_: unknown, element: HTMLDivElement) => {
      element.dataset.series = JSON.stringify({ kind, categories, series });
    },
    [kind, categories, series],
  );
  useEChart(host, option, note);
  return (
    <div ref={host} role="img" aria-label={summary} data-testid="report-chart" style={{ height: 320 }} />
  );
}

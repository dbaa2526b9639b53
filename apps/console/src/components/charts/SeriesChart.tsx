import { BarChart, LineChart } from "echarts/charts";
import { GridComponent, LegendComponent, TooltipComponent } from "echarts/components";
import * as echarts from "echarts/core";
import { CanvasRenderer } from "echarts/renderers";
import { useCallback, useMemo, useRef } from "react";
import { useEChart } from "./useEChart.ts";

echarts.use([BarChart, LineChart, GridComponent, LegendComponent, TooltipComponent, CanvasRenderer]);

export interface Series {
  name: string;
  /** Exact decimal text per label; "" or "-" where the day has no figure (a gap, never a 0). */
  values: string[];
  color: string;
  kind: "bar" | "line";
}

interface Props {
  labels: string[];
  series: Series[];
  textColor: string;
  summary: string;
  testId: string;
  height?: number;
}

/** Several series over days, with a legend; what is drawn is written to `data-series`. */
export default function SeriesChart({ labels, series, textColor, summary, testId, height = 220 }: Props) {
  const host = useRef<HTMLDivElement>(null);
  const option = useMemo(
    () => ({
      grid: { left: 48, right: 16, top: 36, bottom: 28 },
      legend: { top: 0, textStyle: { color: textColor } },
      tooltip: { trigger: "axis" },
      xAxis: { type: "category", data: labels, axisLabel: { color: textColor } },
      yAxis: { type: "value", axisLabel: { color: textColor } },
      series: series.map((s) => {
        const data = s.values.map((value) => (/^-?\d/.test(value.trim()) ? Number(value) : null));
        // A day with no figure on either side would vanish from a line without its dot.
        const alone = (index: number) =>
          data[index] !== null && (data[index - 1] ?? null) === null && (data[index + 1] ?? null) === null;
        return {
          name: s.name,
          type: s.kind,
          data,
          itemStyle: { color: s.color },
          ...(s.kind === "line"
            ? {
                smooth: true,
                symbol: "circle",
                symbolSize: (_: unknown, params: { dataIndex: number }) => (alone(params.dataIndex) ? 6 : 0),
              }
            : {}),
        };
      }),
    }),
    [labels, series, textColor],
  );
  const note = useCallback(
    (_: unknown, element: HTMLDivElement) => {
      element.dataset.series = JSON.stringify(Object.fromEntries(series.map((s) => [s.name, s.values])));
    },
    [series],
  );
  useEChart(host, option, note);
  return <div ref={host} role="img" aria-label={summary} data-testid={testId} style={{ height }} />;
}

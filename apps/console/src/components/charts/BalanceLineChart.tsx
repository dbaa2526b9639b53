import { LineChart } from "echarts/charts";
import { GridComponent, TooltipComponent } from "echarts/components";
import * as echarts from "echarts/core";
import { CanvasRenderer } from "echarts/renderers";
import { useCallback, useMemo, useRef } from "react";
import { useEChart } from "./useEChart.ts";

// Only the parts of ECharts a line needs; this file loads lazily with the chart.
echarts.use([LineChart, GridComponent, TooltipComponent, CanvasRenderer]);

export interface Point {
  label: string;
  /** Exact decimal text; ECharts plots its number. */
  value: string;
}

interface Props {
  points: Point[];
  unit: string;
  color: string;
  textColor: string;
  summary: string;
  testId: string;
  height?: number;
}

/** A line of values over days (a balance); what is drawn is written to `data-points`. */
export default function BalanceLineChart({
  points,
  unit,
  color,
  textColor,
  summary,
  testId,
  height = 200,
}: Props) {
  const host = useRef<HTMLDivElement>(null);
  const option = useMemo(
    () => ({
      // Printed statements show the line whole: no animation to be caught half drawn.
      animation: false,
      grid: { left: 56, right: 16, top: 24, bottom: 28 },
      tooltip: { trigger: "axis", valueFormatter: (v: unknown) => `${String(v)} ${unit}` },
      xAxis: { type: "category", data: points.map((p) => p.label), axisLabel: { color: textColor } },
      yAxis: {
        type: "value",
        name: unit,
        scale: true,
        nameTextStyle: { color: textColor },
        axisLabel: { color: textColor },
      },
      series: [
        {
          type: "line",
          data: points.map((p) => Number(p.value)),
          itemStyle: { color },
          lineStyle: { color },
        },
      ],
    }),
    [points, unit, color, textColor],
  );
  const note = useCallback(
    (_: unknown, element: HTMLDivElement) => {
      element.dataset.points = JSON.stringify(points.map((p) => [p.label, p.value]));
    },
    [points],
  );
  useEChart(host, option, note);
  return <div ref={host} role="img" aria-label={summary} data-testid={testId} style={{ height }} />;
}

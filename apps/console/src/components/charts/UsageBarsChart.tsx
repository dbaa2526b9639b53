import { BarChart } from "echarts/charts";
import { GridComponent, TooltipComponent } from "echarts/components";
import * as echarts from "echarts/core";
import { CanvasRenderer } from "echarts/renderers";
import { useCallback, useMemo, useRef } from "react";
import { useEChart } from "./useEChart.ts";

// Only the parts of ECharts a bar chart needs; this file loads lazily with the chart.
echarts.use([BarChart, GridComponent, TooltipComponent, CanvasRenderer]);

export interface Bar {
  label: string;
  /** Exact decimal text; ECharts plots its number. */
  value: string;
}

interface Props {
  bars: Bar[];
  unit: string;
  color: string;
  textColor: string;
  summary: string;
  testId: string;
  height?: number;
}

/** Bars of usage; what is drawn is written to `data-bars` so it can be checked. */
export default function UsageBarsChart({
  bars,
  unit,
  color,
  textColor,
  summary,
  testId,
  height = 220,
}: Props) {
  const host = useRef<HTMLDivElement>(null);
  const option = useMemo(
    () => ({
      grid: { left: 48, right: 16, top: 24, bottom: 28 },
      tooltip: { trigger: "axis", valueFormatter: (v: unknown) => `${String(v)} ${unit}` },
      xAxis: { type: "category", data: bars.map((b) => b.label), axisLabel: { color: textColor } },
      yAxis: {
        type: "value",
        name: unit,
        nameTextStyle: { color: textColor },
        axisLabel: { color: textColor },
      },
      series: [{ type: "bar", data: bars.map((b) => Number(b.value)), itemStyle: { color } }],
    }),
    [bars, unit, color, textColor],
  );
  const note = useCallback(
    (_: unknown, element: HTMLDivElement) => {
      element.dataset.bars = JSON.stringify(bars.map((b) => [b.label, b.value]));
    },
    [bars],
  );
  useEChart(host, option, note);
  return <div ref={host} role="img" aria-label={summary} data-testid={testId} style={{ height }} />;
}

import { PieChart } from "echarts/charts";
import { TooltipComponent } from "echarts/components";
import * as echarts from "echarts/core";
import { CanvasRenderer } from "echarts/renderers";
import { useCallback, useMemo, useRef } from "react";
import { useEChart } from "./useEChart.ts";

// Only the parts of ECharts a pie needs; this file loads lazily with the chart.
echarts.use([PieChart, TooltipComponent, CanvasRenderer]);

export interface Slice {
  label: string;
  /** Exact decimal text; ECharts draws its number. */
  value: string;
}

interface Props {
  slices: Slice[];
  unit: string;
  textColor: string;
  /** What the pie shows, for screen readers (the figures are in the table beside it). */
  summary: string;
  testId: string;
  height?: number;
}

/**
 * A ring of shares (money per payment method, per recharge type). The legend is the table the
 * page draws beside it, so the chart has none; what is drawn is written to `data-slices`.
 */
export default function RatioPieChart({ slices, unit, textColor, summary, testId, height = 220 }: Props) {
  const host = useRef<HTMLDivElement>(null);
  const option = useMemo(
    () => ({
      tooltip: { trigger: "item", valueFormatter: (v: unknown) => `${String(v)} ${unit}` },
      series: [
        {
          type: "pie",
          radius: ["40%", "70%"],
          label: { color: textColor, formatter: "{b}: {d}%" },
          data: slices.map((s) => ({ name: s.label, value: Number(s.value) })),
        },
      ],
    }),
    [slices, unit, textColor],
  );
  const note = useCallback(
    (_: unknown, element: HTMLDivElement) => {
      element.dataset.slices = JSON.stringify(slices.map((s) => [s.label, s.value]));
    },
    [slices],
  );
  useEChart(host, option, note);
  return <div ref={host} role="img" aria-label={summary} data-testid={testId} style={{ height }} />;
}

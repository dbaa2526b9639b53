import { GraphChart } from "echarts/charts";
import { LegendComponent, TooltipComponent } from "echarts/components";
import * as echarts from "echarts/core";
import { CanvasRenderer } from "echarts/renderers";
import { useMemo, useRef } from "react";
import { useEChart } from "../../../../components/charts/useEChart.ts";
import type { Topology } from "./topology-calls.ts";
import { type DrawnNode, type TopologyLook, topologyOption } from "./topology-option.ts";

// Only the parts of ECharts a graph needs, so its chunk stays as small as it can.
echarts.use([GraphChart, LegendComponent, TooltipComponent, CanvasRenderer]);

interface Props {
  topology: Topology;
  look: TopologyLook;
  /** Read by screen readers instead of the canvas. */
  summary: string;
  height: number | string;
}

/** Writes the nodes the chart holds to `data-nodes`. */
function noteNodes(chart: echarts.ECharts, element: HTMLDivElement) {
  const held = chart.getOption() as {
    series?: { data?: DrawnNode[]; categories?: { name: string }[] }[];
  };
  const [series] = held.series ?? [];
  const categories = series?.categories ?? [];
  element.dataset.nodes = JSON.stringify(
    (series?.data ?? []).map((node) => ({
      name: node.name,
      category: categories[node.category]?.name ?? "",
      offline: node.offline,
    })),
  );
}

/**
 * The topology drawn by ECharts (loaded with this chunk only when a topology is opened). What the
 * chart holds after drawing is written to `data-nodes`, so what is on screen can be checked.
 */
export default function TopologyChart({ topology, look, summary, height }: Props) {
  const host = useRef<HTMLDivElement>(null);
  const option = useMemo(() => topologyOption(topology, look), [topology, look]);
  useEChart(host, option, noteNodes);

  return (
    <div
      ref={host}
      role="img"
      aria-label={summary}
      data-testid="topology-chart"
      style={{ width: "100%", height }}
    />
  );
}

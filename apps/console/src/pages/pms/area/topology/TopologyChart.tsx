import { GraphChart } from "echarts/charts";
import { LegendComponent, TooltipComponent } from "echarts/components";
import * as echarts from "echarts/core";
import { CanvasRenderer } from "echarts/renderers";
import { useEffect, useRef } from "react";
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

/**
 * The topology drawn by ECharts (loaded with this chunk only when a topology is opened). What the
 * chart holds after drawing is written to `data-nodes`, so what is on screen can be checked.
 */
export default function TopologyChart({ topology, look, summary, height }: Props) {
  const host = useRef<HTMLDivElement>(null);
  const chart = useEChart(host);

  useEffect(() => {
    const instance = chart.current;
    const element = host.current;
    if (!instance || !element) return;
    instance.setOption(topologyOption(topology, look), { notMerge: true });
    const held = instance.getOption() as {
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
  }, [topology, look]);

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

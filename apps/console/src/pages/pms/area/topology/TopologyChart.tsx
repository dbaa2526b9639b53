import { TreeChart } from "echarts/charts";
import { TooltipComponent } from "echarts/components";
import * as echarts from "echarts/core";
import { CanvasRenderer } from "echarts/renderers";
import { useCallback, useMemo, useRef } from "react";
import { useEChart } from "../../../../components/charts/useEChart.ts";
import type { TopologyBranch } from "./topology-calls.ts";
import {
  type DrawnNode,
  drawnSize,
  ROW_HEIGHT,
  type TopologyLook,
  topologyOption,
  treeWidth,
} from "./topology-option.ts";
import type { TopologyView } from "./topology-view.ts";

// Only the parts of ECharts a tree needs, so its chunk stays as small as it can.
echarts.use([TreeChart, TooltipComponent, CanvasRenderer]);

interface Props {
  roots: TopologyBranch[];
  view: TopologyView;
  look: TopologyLook;
  /** Read by screen readers instead of the canvas. */
  summary: string;
  /** The smallest height of the drawing (the dialog's view); it grows with the rows shown. */
  minHeight: number;
  /** Bumped to redraw at the fitted position after the operator panned or zoomed. */
  fitKey: number;
  /** A click on a node: areas and collectors open or close, meters open their page. */
  onToggle: (id: string, kind: DrawnNode["kind"]) => void;
}

/** The drawn nodes, flattened, for `data-nodes`: what is on screen can be checked. */
function flatten(nodes: DrawnNode[]): { name: string; kind: string; offline: boolean; match: boolean }[] {
  return nodes.flatMap((node) => [
    ...(node.value === "root"
      ? []
      : [{ name: node.name, kind: node.kind, offline: node.offline, match: node.match }]),
    ...flatten(node.children ?? []),
  ]);
}

/**
 * The topology drawn by ECharts (loaded with this chunk only when a topology is opened), sized to
 * its shown rows and levels so labels never overlap: the dialog scrolls when it is larger.
 */
export default function TopologyChart({ roots, view, look, summary, minHeight, fitKey, onToggle }: Props) {
  const host = useRef<HTMLDivElement>(null);
  const toggle = useRef(onToggle);
  toggle.current = onToggle;
  // fitKey is part of the option's identity: a new object redraws it from the fitted position.
  // biome-ignore lint/correctness/useExhaustiveDependencies: fitKey only forces a fresh option
  const option = useMemo(() => topologyOption(roots, view, look), [roots, view, look, fitKey]);
  const data = option.series[0]?.data as DrawnNode[];
  const { leaves, depth } = drawnSize(data);
  const drawn = useCallback((chart: echarts.ECharts, element: HTMLDivElement) => {
    element.dataset.nodes = JSON.stringify(
      flatten((chart.getOption() as { series: { data: DrawnNode[] }[] }).series[0]?.data ?? []),
    );
    chart.off("click");
    chart.on("click", (params) => {
      const node = params.data as DrawnNode | undefined;
      const id = String(node?.value ?? "");
      if (node && id && id !== "root" && node.kind !== "more") toggle.current(id, node.kind);
    });
  }, []);
  useEChart(host, option, drawn);

  return (
    <div
      ref={host}
      role="img"
      aria-label={summary}
      data-testid="topology-chart"
      style={{
        width: `max(100%, ${treeWidth(depth)}px)`,
        height: Math.max(minHeight, (leaves + 2) * ROW_HEIGHT),
      }}
    />
  );
}

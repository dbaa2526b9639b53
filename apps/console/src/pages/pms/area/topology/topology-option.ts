import type { TopologyBranch, TopologyCategory } from "./topology-calls.ts";
import { shownChildren, type TopologyView } from "./topology-view.ts";

/** Colours and words of the drawing, from the console's theme and language. */
export interface TopologyLook {
  names: Record<TopologyCategory, string>;
  colours: Record<TopologyCategory, string>;
  text: string;
  line: string;
  offlineFill: string;
  offlineBorder: string;
  matchBackground: string;
  offlineWord: string;
  onlineWord: string;
  areaLabel: (node: TopologyBranch) => string;
  collectorLabel: (node: TopologyBranch) => string;
  more: (count: number) => string;
}

/** One drawn node as ECharts keeps it; `value` is the node's id, `kind` its category. */
export interface DrawnNode {
  name: string;
  value: string;
  kind: TopologyCategory | "more";
  offline: boolean;
  match: boolean;
  open: boolean;
  symbolSize: number;
  itemStyle: Record<string, unknown>;
  label?: Record<string, unknown>;
  tooltip?: Record<string, unknown>;
  children?: DrawnNode[];
}

const sizes: Record<TopologyCategory, number> = { area: 14, collector: 12, direct: 10, meter: 8, water: 8 };
const isOffline = (node: TopologyBranch) => node.online !== undefined && Number(node.online) !== 1;
/** Row height of the drawing: each shown leaf gets one line, so labels never overlap. */
export const ROW_HEIGHT = 22;
/** Room at either side of the tree for the labels of its first and last levels. */
export const LABEL_MARGIN = 230;
/** The least distance between two levels of the tree, for the label of the deeper one. */
export const LEVEL_GAP = 200;

/** The width a tree of `depth` levels needs so that no label runs into the next level. */
export const treeWidth = (depth: number) => 2 * LABEL_MARGIN + Math.max(0, depth - 1) * LEVEL_GAP;

function label(node: TopologyBranch, look: TopologyLook): string {
  if (node.category === "area") return look.areaLabel(node);
  if (node.category === "collector") return look.collectorLabel(node);
  if (node.category === "direct") return look.collectorLabel({ ...node, name: look.names.direct });
  return node.room ? `${node.room} · ${node.name}` : node.name;
}

function drawn(node: TopologyBranch, view: TopologyView, look: TopologyLook): DrawnNode {
  const offline = isOffline(node);
  const match = view.matches.has(node.id);
  const open = view.expanded.has(node.id);
  const closed = !open && node.children.length > 0;
  const state = node.online === undefined ? "" : ` · ${offline ? look.offlineWord : look.onlineWord}`;
  const colour = look.colours[node.category];
  const result: DrawnNode = {
    // A closed node says so: "+" before its name, the way file trees do.
    name: `${closed ? "+ " : ""}${label(node, look)}`,
    value: node.id,
    kind: node.category,
    offline,
    match,
    open,
    symbolSize: sizes[node.category],
    // Offline equipment is drawn hollow with a dashed red ring, so it stands out at a glance.
    itemStyle: offline
      ? { color: look.offlineFill, borderColor: look.offlineBorder, borderWidth: 2, borderType: "dashed" }
      : { color: colour, borderColor: colour },
    tooltip: { formatter: `${look.names[node.category]}: ${label(node, look)}${state}` },
    label: {
      ...(offline ? { color: look.offlineBorder } : {}),
      ...(match
        ? { fontWeight: "bold", backgroundColor: look.matchBackground, padding: [2, 4], borderRadius: 2 }
        : {}),
    },
  };
  if (open) {
    const children = shownChildren(node, view.matches).map((child) => drawn(child, view, look));
    const hidden = node.children.length - children.length;
    if (hidden > 0)
      children.push({
        name: look.more(hidden),
        value: `${node.id}-more`,
        kind: "more",
        offline: false,
        match: false,
        open: false,
        symbolSize: 6,
        itemStyle: { color: look.line, borderColor: look.line },
      });
    result.children = children;
  }
  return result;
}

/** How many leaves and levels a drawn tree has, to size the drawing so nothing overlaps. */
export function drawnSize(nodes: DrawnNode[]): { leaves: number; depth: number } {
  let leaves = 0;
  let depth = 0;
  const walk = (list: DrawnNode[], level: number) => {
    for (const node of list) {
      depth = Math.max(depth, level);
      if (node.children?.length) walk(node.children, level + 1);
      else leaves += 1;
    }
  };
  walk(nodes, 1);
  return { leaves, depth };
}

/**
 * The ECharts option of a topology: a tree laid out left to right, one row per shown leaf, nodes
 * opened and closed by the console (not by ECharts) so only what is open is ever sent to the chart.
 * Several top areas hang under one unnamed root, since a tree series has a single root.
 */
export function topologyOption(roots: TopologyBranch[], view: TopologyView, look: TopologyLook) {
  const top = roots.map((root) => drawn(root, view, look));
  const data =
    top.length === 1
      ? top
      : [
          {
            name: "",
            value: "root",
            kind: "more",
            symbolSize: 1,
            itemStyle: { color: "transparent", borderColor: "transparent" },
            children: top,
          },
        ];
  return {
    backgroundColor: "transparent",
    // Redrawn whole on every open, close and search (notMerge): animating between two layouts
    // leaves links of the old one on the way, so the tree is drawn at once.
    animation: false,
    tooltip: { trigger: "item", confine: true },
    series: [
      {
        type: "tree",
        data,
        orient: "LR",
        // Open nodes carry their label on the left, leaves on the right: room for both.
        left: LABEL_MARGIN,
        right: LABEL_MARGIN,
        top: ROW_HEIGHT,
        bottom: ROW_HEIGHT,
        roam: true,
        expandAndCollapse: false,
        initialTreeDepth: -1,
        label: { position: "left", verticalAlign: "middle", align: "right", color: look.text, fontSize: 12 },
        leaves: { label: { position: "right", verticalAlign: "middle", align: "left" } },
        lineStyle: { color: look.line, width: 1, curveness: 0.5 },
        emphasis: { focus: "ancestor" },
      },
    ],
  };
}

import {
  TOPOLOGY_CATEGORIES,
  type Topology,
  type TopologyCategory,
  type TopologyNode,
} from "./topology-calls.ts";

/** Colours and words of the drawing, from the console's theme and language. */
export interface TopologyLook {
  names: Record<TopologyCategory, string>;
  colours: Record<TopologyCategory, string>;
  text: string;
  line: string;
  offlineFill: string;
  offlineBorder: string;
  offlineWord: string;
  onlineWord: string;
  animate: boolean;
}

/** One drawn node as the chart keeps it; `offline` marks meters and collectors that are not reporting. */
export interface DrawnNode {
  id: string;
  name: string;
  category: number;
  offline: boolean;
  symbolSize: number;
  itemStyle?: Record<string, unknown>;
  label?: Record<string, unknown>;
  tooltip?: Record<string, unknown>;
}

const sizes: Record<TopologyCategory, number> = { area: 34, room: 22, meter: 15, water: 15, collector: 26 };
const isOffline = (node: TopologyNode) => node.online !== undefined && Number(node.online) !== 1;

function drawn(node: TopologyNode, look: TopologyLook): DrawnNode {
  const offline = isOffline(node);
  const state = node.online === undefined ? "" : ` · ${offline ? look.offlineWord : look.onlineWord}`;
  return {
    id: node.id,
    name: node.name,
    category: TOPOLOGY_CATEGORIES.indexOf(node.category),
    offline,
    symbolSize: sizes[node.category],
    // Offline equipment is drawn hollow with a dashed warning ring, so it stands out at a glance.
    ...(offline
      ? {
          itemStyle: {
            color: look.offlineFill,
            borderColor: look.offlineBorder,
            borderWidth: 2,
            borderType: "dashed",
          },
          label: { color: look.offlineBorder },
        }
      : {}),
    tooltip: { formatter: `${look.names[node.category]}: ${node.name}${state}` },
  };
}

/**
 * The ECharts option of a topology: a force-directed graph that can be panned and zoomed, one
 * legend entry (and colour) per kind of node, offline meters and collectors marked.
 */
export function topologyOption(topology: Topology, look: TopologyLook) {
  const names = TOPOLOGY_CATEGORIES.map((c) => look.names[c]);
  return {
    backgroundColor: "transparent",
    animation: look.animate,
    tooltip: { trigger: "item", confine: true },
    legend: [{ data: names, top: 0, textStyle: { color: look.text } }],
    series: [
      {
        type: "graph",
        layout: "force",
        roam: true,
        draggable: true,
        data: topology.nodes.map((node) => drawn(node, look)),
        links: topology.links.map((link) => ({ source: link.source, target: link.target })),
        categories: TOPOLOGY_CATEGORIES.map((c) => ({
          name: look.names[c],
          itemStyle: { color: look.colours[c] },
        })),
        top: 40,
        force: { repulsion: 160, edgeLength: [30, 90], gravity: 0.08, layoutAnimation: look.animate },
        label: { show: true, position: "right", color: look.text, fontSize: 11 },
        labelLayout: { hideOverlap: true },
        lineStyle: { color: look.line, width: 1, curveness: 0.1, opacity: 0.7 },
        emphasis: { focus: "adjacency", lineStyle: { width: 2 } },
        scaleLimit: { min: 0.2, max: 6 },
      },
    ],
  };
}

/** How many nodes of each kind a topology has, for the chart's accessible summary. */
export function countByCategory(topology: Topology): Record<TopologyCategory, number> {
  const counts = Object.fromEntries(TOPOLOGY_CATEGORIES.map((c) => [c, 0])) as Record<
    TopologyCategory,
    number
  >;
  for (const node of topology.nodes) counts[node.category] += 1;
  return counts;
}

import type { topologyZh } from "./topology.zh.ts";

/** English strings of the registry topology (area → building → collector → meter), same keys as zh. */
export const topologyEn: Record<keyof typeof topologyZh, string> = {
  "pms.topology.open": "Topology",
  "pms.topology.title": "Registry topology",
  "pms.topology.area": "Area",
  "pms.topology.meter": "Electric meter",
  "pms.topology.water": "Water meter",
  "pms.topology.collector": "Collector",
  "pms.topology.direct": "Direct meters",
  "pms.topology.online": "online",
  "pms.topology.offline": "offline",
  "pms.topology.more": "{count} more meters: use the search to find one",
  "pms.topology.areaLabel": "{name} ({meters} meters, {offline} offline)",
  "pms.topology.collectorLabel": "{name} ({meters})",
  "pms.topology.hint":
    "Click an area or a collector to expand or collapse it, a meter to open its page; scroll to zoom, drag to pan; dashed red marks offline equipment",
  "pms.topology.search": "Search the topology: meter number, room, collector or area",
  "pms.topology.found": "{count} found",
  "pms.topology.notFound": "No node matches",
  "pms.topology.expandLevel": "Expand one level",
  "pms.topology.collapse": "Collapse to buildings",
  "pms.topology.fit": "Fit to view",
  "pms.topology.empty": "Nothing is registered under this area yet",
  "pms.topology.truncated":
    "More than {limit} meters: only the first {limit} are included; choose a smaller area",
  "pms.topology.summary":
    "Topology: {areas} areas, {collectors} collectors, {meters} meters of which {offline} offline; {shown} nodes shown",
};

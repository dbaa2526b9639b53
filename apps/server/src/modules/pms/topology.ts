import type { Queryable } from "../../db/client.ts";
import { areaSubtree } from "./registry.hooks.ts";

export type TopologyCategory = "area" | "collector" | "direct" | "meter" | "water";

/**
 * One node of the wiring tree. Areas hold their sub-areas and the collectors that serve their own
 * rooms; a collector holds the meters it reads in that area (a DTU wired to two buildings appears
 * under each, with that building's meters only); meters without a collector sit under "direct".
 */
export interface TopologyBranch {
  id: string;
  name: string;
  category: TopologyCategory;
  /** Meters: the room they are installed in. */
  room?: string;
  /** Meters and collectors: 1 online, 0 offline. */
  online?: number;
  /** Meters below this node (itself for a meter), and how many of them are offline. */
  meters: number;
  offline: number;
  children: TopologyBranch[];
}

export interface Topology {
  roots: TopologyBranch[];
  meters: number;
  offline: number;
  /** More meters than the limit were found: the tree holds the first ones by area and number. */
  truncated: boolean;
}

/** A tree drawn collapsed stays readable far beyond this; the limit only bounds the answer's size. */
export const TOPOLOGY_METER_LIMIT = 20_000;

interface AreaRow {
  id: string;
  parent_id: string;
  area_name: string;
}
interface MeterRow {
  id: string;
  energy_type: number;
  product_code: string;
  online_status: number | null;
  area_id: string;
  room_name: string;
  collector_id: string | null;
  collector_name: string | null;
  collector_online: number | null;
}

interface CollectorRow {
  id: string;
  area_id: string;
  collector_name: string;
  online_status: number | null;
}

const branch = (
  id: string,
  name: string,
  category: TopologyCategory,
  extra: Partial<TopologyBranch> = {},
) => ({
  id,
  name,
  category,
  meters: 0,
  offline: 0,
  children: [] as TopologyBranch[],
  ...extra,
});

/** Adds each node's meters and offline meters up to its ancestors, depth first. */
function countUp(node: TopologyBranch): void {
  if (node.category === "meter" || node.category === "water") return;
  for (const child of node.children) {
    countUp(child);
    node.meters += child.meters;
    node.offline += child.offline;
  }
}

/** Hangs each area's meters under their collectors, then the areas under their parents. */
function assemble(areas: AreaRow[], meters: MeterRow[], idle: CollectorRow[]): TopologyBranch[] {
  const areaNodes = new Map(areas.map((a) => [a.id, branch(a.id, a.area_name, "area")]));
  const collectorNodes = new Map<string, TopologyBranch>();
  for (const m of meters) {
    const area = areaNodes.get(m.area_id);
    if (!area) continue;
    const key = `${m.area_id}:${m.collector_id ?? "direct"}`;
    let parent = collectorNodes.get(key);
    if (!parent) {
      parent = m.collector_id
        ? branch(`${m.area_id}-${m.collector_id}`, m.collector_name ?? "", "collector", {
            online: m.collector_online ?? 0,
          })
        : branch(`${m.area_id}-direct`, "", "direct");
      collectorNodes.set(key, parent);
      area.children.push(parent);
    }
    const online = m.online_status ?? 0;
    parent.children.push(
      branch(m.id, m.product_code, m.energy_type === 1 ? "meter" : "water", {
        room: m.room_name,
        online,
        meters: 1,
        offline: online === 1 ? 0 : 1,
      }),
    );
  }
  // A collector registered to an area but reading none of its meters still shows there, empty.
  const seen = new Set(meters.map((m) => m.collector_id));
  for (const c of idle) {
    if (seen.has(c.id)) continue;
    areaNodes
      .get(c.area_id)
      ?.children.push(
        branch(`${c.area_id}-${c.id}`, c.collector_name, "collector", { online: c.online_status ?? 0 }),
      );
  }
  const roots: TopologyBranch[] = [];
  for (const a of areas) {
    const node = areaNodes.get(a.id)!;
    const parent = areaNodes.get(a.parent_id);
    if (parent) parent.children.push(node);
    else roots.push(node);
  }
  for (const root of roots) countUp(root);
  return roots;
}

/**
 * The wiring as a tree (spec §7 area/topologyDiagram): area → building → collector → meter, below
 * one area or for the whole tenant. Three queries: the areas, the meters with their room and
 * collector joined, and the collectors registered to those areas.
 */
export async function topology(db: Queryable, tenantId: string, areaId?: string): Promise<Topology> {
  const areas = await db.query<AreaRow>(
    `select id::text as id, parent_id::text as parent_id, area_name from pms_area
      where tenant_id = $1 and is_deleted = 0 ${areaId ? `and id in (${areaSubtree("$2")})` : ""}
      order by sort, id`,
    areaId ? [tenantId, areaId] : [tenantId],
  );
  const meters = await db.query<MeterRow>(
    `select m.id::text as id, rm.energy_type, m.product_code, m.online_status, r.area_id::text as area_id,
            r.room_name, c.id::text as collector_id, c.collector_name, c.online_status as collector_online
       from pms_room_meter rm
       join pms_room r on r.id = rm.room_id and r.is_deleted = 0 and r.area_id = any($2::bigint[])
       join lateral (
         select e.id, e.product_code, e.online_status, e.collector_id from pms_meter e
          where rm.energy_type = 1 and e.id = rm.meter_id and e.is_deleted = 0
         union all
         select w.id, w.product_code, w.online_status, w.collector_id from pms_water w
          where rm.energy_type = 2 and w.id = rm.meter_id and w.is_deleted = 0
       ) m on true
       left join pms_collector c on c.id = m.collector_id and c.tenant_id = $1 and c.is_deleted = 0
      where rm.tenant_id = $1 and rm.is_deleted = 0
      order by r.area_id, c.collector_name nulls last, r.room_name, rm.energy_type, m.product_code
      limit ${TOPOLOGY_METER_LIMIT + 1}`,
    [tenantId, areas.map((a) => a.id)],
  );
  const idle = await db.query<CollectorRow>(
    `select id::text as id, area_id::text as area_id, collector_name, online_status from pms_collector
      where tenant_id = $1 and is_deleted = 0 and area_id = any($2::bigint[]) order by collector_name`,
    [tenantId, areas.map((a) => a.id)],
  );
  const truncated = meters.length > TOPOLOGY_METER_LIMIT;
  const roots = assemble(areas, meters.slice(0, TOPOLOGY_METER_LIMIT), idle);
  return {
    roots,
    meters: roots.reduce((sum, r) => sum + r.meters, 0),
    offline: roots.reduce((sum, r) => sum + r.offline, 0),
    truncated,
  };
}

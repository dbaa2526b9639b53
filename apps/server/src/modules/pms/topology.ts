import type { Queryable } from "../../db/client.ts";
import { areaSubtree } from "./registry.hooks.ts";

export interface TopologyNode {
  id: string;
  name: string;
  category: "area" | "room" | "meter" | "water" | "collector";
  /** Online (1) or offline (0) for meters and collectors; absent for areas and rooms. */
  online?: number;
}
export interface TopologyLink {
  source: string;
  target: string;
}
export interface Topology {
  nodes: TopologyNode[];
  links: TopologyLink[];
  /** More meters than one drawing can hold were found; the console asks for a smaller area. */
  truncated: boolean;
}

/** Beyond this many rooms or meters a force graph stops being readable in a browser. */
export const TOPOLOGY_METER_LIMIT = 1500;

/**
 * The registry as a graph (spec §7 area/topologyDiagram): area → sub-area → room → meter →
 * collector, below one area or for the whole tenant.
 */
export async function topology(db: Queryable, tenantId: string, areaId?: string): Promise<Topology> {
  const areas = await db.query<{ id: string; parent_id: string; area_name: string }>(
    `select id::text as id, parent_id::text as parent_id, area_name from pms_area
      where tenant_id = $1 and is_deleted = 0 ${areaId ? `and id in (${areaSubtree("$2")})` : ""}
      order by sort, id`,
    areaId ? [tenantId, areaId] : [tenantId],
  );
  const areaIds = areas.map((a) => a.id);
  const rooms = await db.query<{ id: string; area_id: string; room_name: string }>(
    `select id::text as id, area_id::text as area_id, room_name from pms_room
      where tenant_id = $1 and is_deleted = 0 and area_id = any($2::bigint[])
      order by room_name limit ${TOPOLOGY_METER_LIMIT + 1}`,
    [tenantId, areaIds],
  );
  const meters = await db.query<{
    id: string;
    room_id: string;
    energy_type: number;
    product_code: string;
    online_status: number | null;
    collector_id: string | null;
  }>(
    `select m.id::text as id, rm.room_id::text as room_id, rm.energy_type, m.product_code, m.online_status,
            m.collector_id::text as collector_id
       from pms_room_meter rm
       join pms_room r on r.id = rm.room_id and r.is_deleted = 0 and r.area_id = any($2::bigint[])
       join lateral (
         select e.id, e.product_code, e.online_status, e.collector_id from pms_meter e
          where rm.energy_type = 1 and e.id = rm.meter_id and e.is_deleted = 0
         union all
         select w.id, w.product_code, w.online_status, w.collector_id from pms_water w
          where rm.energy_type = 2 and w.id = rm.meter_id and w.is_deleted = 0
       ) m on true
      where rm.tenant_id = $1 and rm.is_deleted = 0
      order by m.product_code limit ${TOPOLOGY_METER_LIMIT + 1}`,
    [tenantId, areaIds],
  );
  const truncated = meters.length > TOPOLOGY_METER_LIMIT || rooms.length > TOPOLOGY_METER_LIMIT;
  rooms.splice(TOPOLOGY_METER_LIMIT);
  const shown = meters.slice(0, TOPOLOGY_METER_LIMIT);
  const collectorIds = [
    ...new Set(shown.map((m) => m.collector_id).filter((id): id is string => Boolean(id))),
  ];
  const collectors = collectorIds.length
    ? await db.query<{ id: string; collector_name: string; online_status: number | null }>(
        `select id::text as id, collector_name, online_status from pms_collector
          where tenant_id = $1 and id = any($2::bigint[]) and is_deleted = 0`,
        [tenantId, collectorIds],
      )
    : [];
  const known = new Set(areaIds);
  const nodes: TopologyNode[] = [
    ...areas.map((a) => ({ id: a.id, name: a.area_name, category: "area" as const })),
    ...rooms.map((r) => ({ id: r.id, name: r.room_name, category: "room" as const })),
    ...shown.map((m) => ({
      id: m.id,
      name: m.product_code,
      category: m.energy_type === 1 ? ("meter" as const) : ("water" as const),
      online: m.online_status ?? 0,
    })),
    ...collectors.map((c) => ({
      id: c.id,
      name: c.collector_name,
      category: "collector" as const,
      online: c.online_status ?? 0,
    })),
  ];
  const collectorSet = new Set(collectors.map((c) => c.id));
  const links: TopologyLink[] = [
    ...areas.filter((a) => known.has(a.parent_id)).map((a) => ({ source: a.parent_id, target: a.id })),
    ...rooms.map((r) => ({ source: r.area_id, target: r.id })),
    ...shown.map((m) => ({ source: m.room_id, target: m.id })),
    ...shown
      .filter((m) => m.collector_id && collectorSet.has(m.collector_id))
      .map((m) => ({ source: m.id, target: m.collector_id! })),
  ];
  return { nodes, links, truncated };
}

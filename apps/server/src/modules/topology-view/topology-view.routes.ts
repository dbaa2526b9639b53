import type { FastifyInstance } from "fastify";
import { ok } from "../../contract/envelope.ts";
import { badRequest } from "../../contract/errors.ts";
import { optionalString, readParams } from "../../contract/params.ts";
import { requirePermission } from "../../crud/permissions.ts";
import type { Db } from "../../db/client.ts";
import { type EnergyType, listedMetersOf, nodesOf } from "../line-loss/line-loss.repository.ts";
import { registryTenant } from "../pms/registry-access.ts";
import { roomsOfTopologyMeters } from "./topology-view.repository.ts";

/** The topology view's menu; the registry's node screen may read it too. */
const READ_CODES = ["meteringTopology", "meteringNode", "meteringNode_view"];

/** A meter as the view shows it: its address whole, and the room it is installed in. */
export interface TopologyMeter {
  meterId: string;
  productCode: string;
  /** 1 分户表, 2 公区表; absent for a master. */
  meterRole?: number;
  roomId?: string;
  room?: string;
}

export interface TopologyViewNode {
  id: string;
  parentId: string;
  nodeTitle: string;
  nodeKind: number;
  areaName: string | null;
  master: TopologyMeter | null;
  meters: TopologyMeter[];
}

/**
 * 计量拓扑: a tenant's node tree of one energy type, flat (each node names its parent), with each
 * node's master meter and the meters listed under it, each with the room it is installed in. Three
 * statements whatever the size of the tree.
 */
export async function topologyViewRoutes(app: FastifyInstance, opts: { db: Db }) {
  const { db } = opts;
  app.get(
    "/api/blade-pms/topology/nodes",
    {
      schema: {
        tags: ["metering"],
        summary: "The metering node tree of an energy type with master meters, sub-meters and their rooms",
      },
    },
    async (request) => {
      const user = await requirePermission(db, request, READ_CODES);
      const params = readParams(request);
      const tenantId = registryTenant(user, params);
      const text = optionalString(params, "energyType") ?? "1";
      if (text !== "1" && text !== "2") throw badRequest("energyType: 能源类型应为 1(电)或 2(水)");
      const energyType = Number(text) as EnergyType;
      const [nodes, listed, rooms] = [
        await nodesOf(db, tenantId, energyType),
        await listedMetersOf(db, tenantId, energyType),
        await roomsOfTopologyMeters(db, tenantId, energyType),
      ];
      const roomOf = new Map(rooms.map((r) => [r.meter_id, r]));
      const placed = (meterId: string) => {
        const room = roomOf.get(meterId);
        return room
          ? {
              roomId: room.room_id,
              room: room.area_name ? `${room.area_name} ${room.room_name}` : room.room_name,
            }
          : {};
      };
      const byNode = new Map<string, TopologyMeter[]>();
      for (const l of listed) {
        const meters = byNode.get(l.node_id) ?? [];
        byNode.set(l.node_id, meters);
        meters.push({
          meterId: l.meter_id,
          productCode: l.product_code ?? "",
          meterRole: l.meter_role,
          ...placed(l.meter_id),
        });
      }
      const answer: TopologyViewNode[] = nodes.map((n) => ({
        id: n.id,
        parentId: n.parent_id ?? "0",
        nodeTitle: n.node_title,
        nodeKind: n.node_kind,
        areaName: n.area_name,
        master:
          n.master_meter_id && n.master_meter_id !== "0"
            ? { meterId: n.master_meter_id, productCode: n.master_code ?? "", ...placed(n.master_meter_id) }
            : null,
        meters: byNode.get(n.id) ?? [],
      }));
      return ok({ energyType, nodes: answer });
    },
  );
}

import { defineResource } from "../../resource/types.ts";
import { meterByEnergy, registryBase, remarkField } from "./base.ts";

/**
 * Metering topology (计量节点): per energy type, a tree of supply points, transformers, buildings,
 * floors or risers. A node's master meter counts what enters it; what leaves it is counted by its
 * listed sub-meters (rooms' meters and common-area meters, `meteringNodeMeter`) and by the masters
 * of its child nodes. Line loss per node is the difference over the same instants.
 */
export const meteringNode = defineResource({
  name: "meteringNode",
  table: "pms_metering_node",
  ...registryBase,
  path: "meteringnode",
  listVerb: "list",
  extraVerbs: ["tree"],
  tree: { parent: "parentId", title: "nodeTitle", ancestors: true },
  fields: {
    parentId: { type: "id", default: "0", ref: { resource: "meteringNode", label: "nodeTitle" } },
    ancestors: { type: "string", maxLength: 2000, form: false, list: false },
    nodeTitle: { type: "string", required: true, maxLength: 64, search: "like", unique: ["parentId"] },
    energyType: { type: "int", required: true, dict: "energy_type", default: 1, search: "equal" },
    nodeKind: { type: "int", required: true, dict: "metering_node_type", default: 2, search: "equal" },
    /** The area the node serves (a building, a floor), for reading its loss beside the registry. */
    areaId: { type: "id", ref: { resource: "area", label: "areaName" } },
    /** Counts what enters the node; one node per meter and energy type. */
    masterMeterId: { type: "id", unique: ["energyType"], refBy: meterByEnergy },
    apportionRule: { type: "int", required: true, dict: "apportion_rule", default: 1, list: false },
    apportionLoss: { type: "int", required: true, dict: "yes_no", default: 0, list: false },
    sort: { type: "int", required: true, min: 0, max: 100000, default: 1 },
    remark: remarkField,
  },
  sort: [{ field: "sort" }, { field: "id" }],
});

/**
 * A meter counted under a node (节点下级表): a room's meter (分户表) or a common-area meter (公区表:
 * corridors, lifts, pumps). A meter is under one node at most.
 */
export const meteringNodeMeter = defineResource({
  name: "meteringNodeMeter",
  table: "pms_metering_node_meter",
  ...registryBase,
  path: "meteringnodemeter",
  listVerb: "page",
  fields: {
    nodeId: {
      type: "id",
      required: true,
      search: "equal",
      ref: { resource: "meteringNode", label: "nodeTitle" },
    },
    energyType: { type: "int", required: true, dict: "energy_type", default: 1, search: "equal" },
    meterId: { type: "id", required: true, search: "equal", unique: ["energyType"], refBy: meterByEnergy },
    meterRole: { type: "int", required: true, dict: "node_meter_role", default: 1, search: "equal" },
    remark: remarkField,
  },
  sort: [{ field: "nodeId" }, { field: "id" }],
});

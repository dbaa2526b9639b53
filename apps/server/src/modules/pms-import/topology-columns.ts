/**
 * The columns of the two topology sheets of the registry import: 计量节点 (the node tree per energy
 * type) and 节点下级表 (the meters counted under each node). A column is found by its template
 * header or by any alias: the headers of the 计量节点 and 节点下级表 exports and their English
 * labels, so an exported sheet, filled in, imports as it is.
 */
export interface TopologyColumn<K extends string> {
  key: K;
  header: string;
  aliases: readonly string[];
  width: number;
  text: boolean;
}

export const NODE_COLUMNS = [
  { key: "nodeTitle", header: "节点名称", aliases: ["Node name"], width: 20, text: true },
  { key: "parent", header: "上级节点", aliases: ["Parent node"], width: 28, text: true },
  { key: "energyType", header: "能源类型", aliases: ["Energy type"], width: 10, text: false },
  { key: "nodeKind", header: "节点类型", aliases: ["Node type"], width: 14, text: false },
  { key: "masterCode", header: "总表表号", aliases: ["总表", "Master meter"], width: 16, text: true },
] as const satisfies readonly TopologyColumn<string>[];

export const NODE_METER_COLUMNS = [
  { key: "node", header: "计量节点", aliases: ["节点", "Metering node"], width: 28, text: true },
  { key: "meterCode", header: "表号", aliases: ["表计", "Meter"], width: 16, text: true },
  { key: "meterRole", header: "表计角色", aliases: ["Meter role"], width: 12, text: false },
  { key: "energyType", header: "能源类型", aliases: ["Energy type"], width: 10, text: false },
] as const satisfies readonly TopologyColumn<string>[];

export type NodeKey = (typeof NODE_COLUMNS)[number]["key"];
export type NodeMeterKey = (typeof NODE_METER_COLUMNS)[number]["key"];

export const NODE_SHEET = "计量节点";
export const NODE_METER_SHEET = "节点下级表";

/** Each header that finds a column: the template's first, then its aliases. */
export const headersOf = (column: TopologyColumn<string>) => [column.header, ...column.aliases];

/** A sheet holding these columns is a node sheet / a node-meter sheet. */
export const NODE_REQUIRED: readonly NodeKey[] = ["nodeTitle", "parent"];
export const NODE_METER_REQUIRED: readonly NodeMeterKey[] = ["node", "meterCode"];

/** Separates the levels of a node path in 上级节点 and 计量节点 (供电点/1号楼). */
export const NODE_PATH_SEPARATORS = /[/／]/;

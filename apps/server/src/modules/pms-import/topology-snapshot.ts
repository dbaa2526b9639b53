import type { Queryable } from "../../db/client.ts";
import type { EnergyType } from "./registry-snapshot.ts";

export interface TopologyNode {
  id: string;
  parentId: string;
  title: string;
  energyType: EnergyType;
  masterMeterId: string | null;
}

const meterKey = (energy: EnergyType, meterId: string) => `${energy}:${meterId}`;

/** Labels (zh, en) and keys of a dictionary, each to its key. */
export type Choices = ReadonlyMap<string, string>;

/**
 * One tenant's metering topology as the import sees it: the node tree, which meter is whose master
 * and which node lists which meter. Loaded once, then grown as node and node-meter rows are
 * accepted, so each row is judged against the stored topology and every accepted row before it.
 */
export class TopologySnapshot {
  private readonly nodes = new Map<string, TopologyNode>();
  private readonly byTitle = new Map<string, TopologyNode[]>();
  private readonly children = new Map<string, Map<string, TopologyNode>>();
  private readonly masters = new Map<string, string>();
  private readonly listed = new Map<string, string>();
  /** Dictionary choices: energy_type, metering_node_type, node_meter_role. */
  readonly choices = new Map<string, Map<string, string>>();

  addNode(node: TopologyNode): void {
    this.nodes.set(node.id, node);
    this.byTitle.set(node.title, [...(this.byTitle.get(node.title) ?? []), node]);
    const siblings = this.children.get(node.parentId) ?? new Map<string, TopologyNode>();
    this.children.set(node.parentId, siblings);
    siblings.set(node.title, node);
    if (node.masterMeterId) this.masters.set(meterKey(node.energyType, node.masterMeterId), node.id);
  }
  node(id: string): TopologyNode | undefined {
    return this.nodes.get(id);
  }
  child(parentId: string, title: string): TopologyNode | undefined {
    return this.children.get(parentId)?.get(title);
  }
  withTitle(title: string): readonly TopologyNode[] {
    return this.byTitle.get(title) ?? [];
  }
  /** The node's titles from the root down, joined by `/` as 上级节点 may name it. */
  path(id: string): string {
    const titles: string[] = [];
    for (let n = this.nodes.get(id); n && titles.length < 64; n = this.nodes.get(n.parentId))
      titles.unshift(n.title);
    return titles.join("/");
  }
  /** `ancestors` of a new child of `parentId`: `0`, then every node from the root down to the parent. */
  childAncestors(parentId: string): string {
    const ids: string[] = [];
    for (let n = this.nodes.get(parentId); n && ids.length < 64; n = this.nodes.get(n.parentId))
      ids.unshift(n.id);
    return ["0", ...ids].join(",");
  }
  /** The node whose master this meter is. */
  masterOf(energy: EnergyType, meterId: string): TopologyNode | undefined {
    const id = this.masters.get(meterKey(energy, meterId));
    return id ? this.nodes.get(id) : undefined;
  }
  /** The node that lists this meter under it. */
  listedUnder(energy: EnergyType, meterId: string): TopologyNode | undefined {
    const id = this.listed.get(meterKey(energy, meterId));
    return id ? this.nodes.get(id) : undefined;
  }
  listMeter(energy: EnergyType, meterId: string, nodeId: string): void {
    this.listed.set(meterKey(energy, meterId), nodeId);
  }
  /** The key a cell names in a dictionary (by zh label, en label or key), if any. */
  choice(dict: string, text: string): string | undefined {
    return this.choices.get(dict)?.get(text) ?? this.choices.get(dict)?.get(text.toLowerCase());
  }
  /** The zh labels of a dictionary in its order, for a reason listing what may be written. */
  readonly labels = new Map<string, string[]>();
}

export const TOPOLOGY_DICTS = ["energy_type", "metering_node_type", "node_meter_role"] as const;

/** Loads the tenant's live nodes and node meters and the three dictionaries, in three queries. */
export async function loadTopology(db: Queryable, tenantId: string): Promise<TopologySnapshot> {
  const snapshot = new TopologySnapshot();
  const nodes = await db.query<{
    id: string;
    parent_id: string | null;
    node_title: string;
    energy_type: number;
    master_meter_id: string | null;
  }>(
    `select id::text, parent_id::text, node_title, energy_type, master_meter_id::text
       from pms_metering_node where tenant_id = $1 and is_deleted = 0`,
    [tenantId],
  );
  for (const n of nodes) {
    if (n.energy_type !== 1 && n.energy_type !== 2) continue;
    snapshot.addNode({
      id: n.id,
      parentId: n.parent_id ?? "0",
      title: n.node_title,
      energyType: n.energy_type,
      masterMeterId: n.master_meter_id && n.master_meter_id !== "0" ? n.master_meter_id : null,
    });
  }
  const links = await db.query<{ node_id: string; energy_type: number; meter_id: string }>(
    `select node_id::text, energy_type, meter_id::text from pms_metering_node_meter
      where tenant_id = $1 and is_deleted = 0`,
    [tenantId],
  );
  for (const l of links) {
    if (l.energy_type === 1 || l.energy_type === 2) snapshot.listMeter(l.energy_type, l.meter_id, l.node_id);
  }
  const entries = await db.query<{
    code: string;
    dict_key: string;
    dict_value: string;
    dict_value_en: string | null;
  }>(
    `select code, dict_key, dict_value, dict_value_en from sys_dict
      where code = any($1::text[]) and parent_id > 0 and is_deleted = 0 order by sort, id`,
    [[...TOPOLOGY_DICTS]],
  );
  for (const e of entries) {
    const choices = snapshot.choices.get(e.code) ?? new Map<string, string>();
    snapshot.choices.set(e.code, choices);
    snapshot.labels.set(e.code, [...(snapshot.labels.get(e.code) ?? []), e.dict_value]);
    for (const text of [e.dict_key, e.dict_value, e.dict_value_en?.toLowerCase()]) {
      if (text && !choices.has(text)) choices.set(text, e.dict_key);
    }
  }
  return snapshot;
}

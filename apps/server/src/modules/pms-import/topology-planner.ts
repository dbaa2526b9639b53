import { resources } from "@meterline/contracts";
import { columnByName } from "../../crud/columns.ts";
import { nextId } from "../../db/ids.ts";
import type { NewRow } from "./import-plan.ts";
import type { TopologySheetRow } from "./import-sheet.ts";
import type { EnergyType, RegistrySnapshot } from "./registry-snapshot.ts";
import { checkPart, type Labels } from "./row-values.ts";
import {
  NODE_COLUMNS,
  NODE_METER_COLUMNS,
  NODE_PATH_SEPARATORS,
  type NodeKey,
  type NodeMeterKey,
} from "./topology-columns.ts";
import type { TopologyNode, TopologySnapshot } from "./topology-snapshot.ts";

const { meteringNode, meteringNodeMeter } = resources;

const nodeHeader = (key: NodeKey) => NODE_COLUMNS.find((c) => c.key === key)!.header;
const linkHeader = (key: NodeMeterKey) => NODE_METER_COLUMNS.find((c) => c.key === key)!.header;
const NODE_LABELS: Labels = {
  nodeTitle: nodeHeader("nodeTitle"),
  parentId: nodeHeader("parent"),
  energyType: nodeHeader("energyType"),
  nodeKind: nodeHeader("nodeKind"),
  masterMeterId: nodeHeader("masterCode"),
};
const LINK_LABELS: Labels = {
  nodeId: linkHeader("node"),
  energyType: linkHeader("energyType"),
  meterId: linkHeader("meterCode"),
  meterRole: linkHeader("meterRole"),
};
const ENERGY_NAME: Record<EnergyType, string> = { 1: "电", 2: "水" };
const METER_NAME: Record<EnergyType, string> = { 1: "电表", 2: "水表" };
const otherEnergy = (energy: EnergyType): EnergyType => (energy === 1 ? 2 : 1);
/** 分户表: a room's meter, what a blank 表计角色 means. */
const TENANT_METER = "1";

export interface TopologyRejection {
  sheet: "nodes" | "nodeMeters";
  row: number;
  /** The row's cells in the sheet's column order, as uploaded. */
  cells: string[];
  reason: string;
}

export interface TopologyPlan {
  total: number;
  accepted: number;
  unchanged: number;
  rejected: TopologyRejection[];
  nodes: NewRow[];
  nodeMeters: NewRow[];
}

/** A node row while the tree is being placed: open until its parent is known. */
interface NodeRow {
  source: TopologySheetRow<NodeKey>;
  energy?: EnergyType;
  nodeKind?: string;
  state: "open" | "placed" | "rejected";
  /** Open rows this one's 上级节点 may name; the edges a cycle is found along. */
  waitsOn: NodeRow[];
}

type Resolved =
  | { kind: "root" }
  | { kind: "node"; node: TopologyNode }
  | { kind: "wait"; rows: NodeRow[] }
  | { kind: "fail"; reason: string };

/**
 * Decides what every row of the two topology sheets does, after the room rows (whose new meters
 * it may name). The rules are the registry's (topology.hooks.ts), judged in memory:
 *
 * - 计量节点: 节点名称 is required and holds no `/`. 上级节点 is blank for a root, else the parent's
 *   name, or its path from the root (供电点/1号楼) where the name alone is not unique. Rows may come
 *   in any order: a row waits for the row that makes its parent; rows that name each other round
 *   in a circle are rejected as a cycle, naming it. A node that already exists under that parent is
 *   reused as it is (importing a file again creates nothing); the import never changes a stored node,
 *   so a row giving a stored node another energy type or master is rejected. 能源类型 (电, 水, or the
 *   key) is the parent's when blank, 电 for a root, and must equal the parent's. 节点类型 is a label
 *   of `metering_node_type` (楼栋 when blank). 总表表号 is a meter of the node's energy type, stored or
 *   made by the room sheet, which is no other node's master and no node's sub-meter.
 * - 节点下级表: 计量节点 names a node as 上级节点 does; 表号 is a meter of that node's energy type
 *   (a given 能源类型 must be the node's); 表计角色 is 分户表 (blank) or 公区表. A meter is under one
 *   node at most and is never a master as well; a meter already under the same node is unchanged.
 *
 * A rejected row changes nothing, and rows naming a rejected node are rejected with it.
 */
export class TopologyPlanner {
  private readonly plan: TopologyPlan = {
    total: 0,
    accepted: 0,
    unchanged: 0,
    rejected: [],
    nodes: [],
    nodeMeters: [],
  };
  /** Sheet row that placed each node: a second row placing the same node is a duplicate. */
  private readonly placedBy = new Map<string, number>();
  private readonly rows: NodeRow[] = [];
  private readonly ancestorsColumn = columnByName(meteringNode, "ancestors")?.column;

  constructor(
    private readonly topology: TopologySnapshot,
    private readonly registry: RegistrySnapshot,
    private readonly timeZone: string,
  ) {}

  planAll(
    nodes: readonly TopologySheetRow<NodeKey>[],
    links: readonly TopologySheetRow<NodeMeterKey>[],
  ): TopologyPlan {
    for (const source of nodes) this.openNode(source);
    this.placeNodes();
    for (const source of links) this.decideLink(source);
    this.plan.rejected.sort((a, b) => (a.sheet === b.sheet ? a.row - b.row : a.sheet === "nodes" ? -1 : 1));
    return this.plan;
  }

  /** Checks what a node row says on its own; a row that passes waits to be placed. */
  private openNode(source: TopologySheetRow<NodeKey>): void {
    this.plan.total++;
    const t = source.text;
    const reasons = [...source.problems];
    if (t.nodeTitle === "") reasons.push(`${nodeHeader("nodeTitle")}: 不能为空`);
    else if (NODE_PATH_SEPARATORS.test(t.nodeTitle)) reasons.push(`${nodeHeader("nodeTitle")}: 不能包含 /`);
    const energy = this.choice("energy_type", t.energyType, nodeHeader("energyType"), reasons);
    const nodeKind = this.choice("metering_node_type", t.nodeKind, nodeHeader("nodeKind"), reasons);
    const row: NodeRow = {
      source,
      energy: energy === undefined ? undefined : (Number(energy) as EnergyType),
      nodeKind,
      state: "open",
      waitsOn: [],
    };
    this.rows.push(row);
    if (reasons.length) this.rejectNode(row, reasons);
  }

  /** A dictionary value by label or key; undefined when blank (a reason when unknown). */
  private choice(dict: string, text: string, header: string, reasons: string[]): string | undefined {
    if (text === "") return undefined;
    const key = this.topology.choice(dict, text);
    if (key === undefined || (dict === "energy_type" && key !== "1" && key !== "2"))
      reasons.push(`${header}: [${text}] 不存在, 可选 ${(this.topology.labels.get(dict) ?? []).join("、")}`);
    return key;
  }

  /** Places rows whose parent is known, pass after pass; what stays open waits in a circle. */
  private placeNodes(): void {
    for (let progress = true; progress; ) {
      progress = false;
      for (const row of this.rows) {
        if (row.state !== "open") continue;
        const parent = this.resolve(row.source.text.parent, row);
        if (parent.kind === "wait") {
          row.waitsOn = parent.rows;
          continue;
        }
        progress = true;
        if (parent.kind === "fail") this.rejectNode(row, [`${nodeHeader("parent")}: ${parent.reason}`]);
        else this.decideNode(row, parent.kind === "root" ? undefined : parent.node);
      }
    }
    // Every circle is traced before any of its rows is rejected, so each row names its own.
    const stuck = this.rows.filter((r) => r.state === "open");
    const reasons = stuck.map((row) => {
      const circle = this.circleFrom(row);
      return circle
        ? `节点之间循环引用: ${[...circle, circle[0]!].map((r) => r.source.text.nodeTitle).join(" → ")}`
        : `[${row.source.text.parent}] 所在的行因循环引用未导入`;
    });
    for (const [at, row] of stuck.entries())
      this.rejectNode(row, [`${nodeHeader("parent")}: ${reasons[at]}`]);
  }

  /** The open rows from `start` round back to it along what each waits on, if they close a circle. */
  private circleFrom(start: NodeRow): NodeRow[] | undefined {
    const seen = new Set<NodeRow>();
    const walk = (row: NodeRow, path: NodeRow[]): NodeRow[] | undefined => {
      for (const next of row.waitsOn) {
        if (next === start) return path;
        if (next.state !== "open" || seen.has(next)) continue;
        seen.add(next);
        const found = walk(next, [...path, next]);
        if (found) return found;
      }
      return undefined;
    };
    return walk(start, [start]);
  }

  /**
   * The node a reference names: a name, or a path from the root. `self` is the row asking (a node
   * is never its own parent); open rows that could be the node named make the asker wait.
   */
  private resolve(ref: string, self?: NodeRow): Resolved {
    if (ref === "") return { kind: "root" };
    const levels = ref.split(NODE_PATH_SEPARATORS).map((l) => l.trim());
    if (levels.some((l) => l === "")) return { kind: "fail", reason: "层级名称不能为空" };
    const pending = (title: string) =>
      this.rows.filter((r) => r !== self && r.state === "open" && r.source.text.nodeTitle === title);
    const refused = (title: string) =>
      this.rows.find((r) => r.state === "rejected" && r.source.text.nodeTitle === title);
    const missing = (title: string): Resolved => {
      const row = refused(title);
      return {
        kind: "fail",
        reason: row ? `[${ref}] 所在的第 ${row.source.row} 行未导入` : `[${ref}] 不存在`,
      };
    };
    if (levels.length > 1) {
      let at: TopologyNode | undefined;
      for (const title of levels) {
        const next = this.topology.child(at?.id ?? "0", title);
        if (next) {
          at = next;
          continue;
        }
        const waiting = pending(title);
        return waiting.length ? { kind: "wait", rows: waiting } : missing(title);
      }
      return { kind: "node", node: at! };
    }
    const [title] = levels as [string];
    const waiting = pending(title);
    if (waiting.length) return { kind: "wait", rows: waiting };
    let found = this.topology.withTitle(title);
    if (found.length > 1 && self?.energy) found = found.filter((n) => n.energyType === self.energy);
    if (found.length === 1) return { kind: "node", node: found[0]! };
    if (found.length > 1) {
      const paths = found.slice(0, 3).map((n) => this.topology.path(n.id));
      return {
        kind: "fail",
        reason: `有 ${found.length} 个名为 [${title}] 的节点, 请填写从根节点起的路径, 如 ${paths.join("、")}`,
      };
    }
    if (self && self.source.text.nodeTitle === title) return { kind: "fail", reason: "不能是节点自身" };
    return missing(title);
  }

  private decideNode(row: NodeRow, parent: TopologyNode | undefined): void {
    const t = row.source.text;
    const reasons: string[] = [];
    const energy: EnergyType = row.energy ?? parent?.energyType ?? 1;
    if (parent && parent.energyType !== energy)
      reasons.push(
        `${nodeHeader("energyType")}: 上级节点 [${this.topology.path(parent.id)}] 计量${ENERGY_NAME[parent.energyType]},下级节点须为同一能源类型`,
      );
    const parentId = parent?.id ?? "0";
    const masterId = t.masterCode
      ? this.meterOf(energy, t.masterCode, nodeHeader("masterCode"), reasons)
      : undefined;
    const existing = this.topology.child(parentId, t.nodeTitle);
    if (existing) {
      const first = this.placedBy.get(existing.id);
      const path = this.topology.path(existing.id);
      if (first !== undefined) reasons.push(`${nodeHeader("nodeTitle")}: [${path}] 与第 ${first} 行重复`);
      else if (existing.energyType !== energy)
        reasons.push(
          `${nodeHeader("energyType")}: 节点 [${path}] 已存在, 计量${ENERGY_NAME[existing.energyType]}`,
        );
      else if (masterId && existing.masterMeterId !== masterId)
        reasons.push(`${nodeHeader("masterCode")}: 节点 [${path}] 已存在且总表不同, 导入不修改已有节点`);
      if (reasons.length) return void this.rejectNode(row, reasons);
      this.placedBy.set(existing.id, row.source.row);
      row.state = "placed";
      this.plan.accepted++;
      this.plan.unchanged++;
      return;
    }
    if (masterId) this.masterReasons(energy, masterId, t.masterCode, reasons);
    const check = checkPart(
      meteringNode,
      {
        parentId,
        nodeTitle: t.nodeTitle,
        energyType: energy,
        nodeKind: row.nodeKind,
        masterMeterId: masterId,
      },
      NODE_LABELS,
      this.timeZone,
    );
    reasons.push(...check.reasons);
    if (reasons.length || !check.values) return void this.rejectNode(row, reasons);
    const node: TopologyNode = {
      id: nextId(),
      parentId,
      title: t.nodeTitle,
      energyType: energy,
      masterMeterId: masterId ?? null,
    };
    const values = this.ancestorsColumn
      ? { ...check.values, [this.ancestorsColumn]: this.topology.childAncestors(parentId) }
      : check.values;
    this.topology.addNode(node);
    this.placedBy.set(node.id, row.source.row);
    this.plan.nodes.push({ id: node.id, values });
    this.plan.accepted++;
    row.state = "placed";
  }

  /** A meter counts once: as one node's master, or as one node's sub-meter. */
  private masterReasons(energy: EnergyType, meterId: string, code: string, reasons: string[]): void {
    const header = nodeHeader("masterCode");
    const master = this.topology.masterOf(energy, meterId);
    if (master)
      reasons.push(
        `${header}: 表 [${code}] 作为节点 [${this.topology.path(master.id)}] 的总表已存在,一块表只能作一个节点的总表`,
      );
    const listed = this.topology.listedUnder(energy, meterId);
    if (listed)
      reasons.push(
        `${header}: 表 [${code}] 已是节点 [${this.topology.path(listed.id)}] 的下级表,不能再作总表`,
      );
  }

  /** The id of a meter of this energy type by its address; a reason when it is of the other type or unknown. */
  private meterOf(energy: EnergyType, code: string, header: string, reasons: string[], node?: string) {
    const id = this.registry.meterId(energy, code);
    if (id) return id;
    const other = otherEnergy(energy);
    if (this.registry.meterId(other, code)) {
      const where = node ? `节点 [${node}]` : "节点";
      reasons.push(
        `${header}: [${code}] 是${METER_NAME[other]}, ${where}计量${ENERGY_NAME[energy]},须为同一能源类型`,
      );
    } else reasons.push(`${header}: [${code}] 不存在`);
    return undefined;
  }

  private rejectNode(row: NodeRow, reasons: string[]): void {
    row.state = "rejected";
    this.plan.rejected.push({
      sheet: "nodes",
      row: row.source.row,
      cells: NODE_COLUMNS.map((c) => row.source.text[c.key]),
      reason: [...new Set(reasons)].join("; "),
    });
  }

  private decideLink(source: TopologySheetRow<NodeMeterKey>): void {
    this.plan.total++;
    const t = source.text;
    const reasons = [...source.problems];
    const reject = () =>
      this.plan.rejected.push({
        sheet: "nodeMeters",
        row: source.row,
        cells: NODE_METER_COLUMNS.map((c) => t[c.key]),
        reason: [...new Set(reasons)].join("; "),
      });
    if (t.node === "") reasons.push(`${linkHeader("node")}: 不能为空`);
    if (t.meterCode === "") reasons.push(`${linkHeader("meterCode")}: 不能为空`);
    const given = this.choice("energy_type", t.energyType, linkHeader("energyType"), reasons);
    const role =
      this.choice("node_meter_role", t.meterRole, linkHeader("meterRole"), reasons) ?? TENANT_METER;
    const resolved = t.node === "" ? undefined : this.resolve(t.node);
    if (resolved?.kind === "fail") reasons.push(`${linkHeader("node")}: ${resolved.reason}`);
    if (resolved?.kind !== "node" || t.meterCode === "") return void reject();
    const node = resolved.node;
    const path = this.topology.path(node.id);
    const energy = node.energyType;
    if (given && given !== String(energy))
      reasons.push(
        `${linkHeader("energyType")}: 节点 [${path}] 计量${ENERGY_NAME[energy]},下级表须为同一能源类型`,
      );
    const meterId = this.meterOf(energy, t.meterCode, linkHeader("meterCode"), reasons, path);
    if (!meterId) return void reject();
    const header = linkHeader("meterCode");
    const master = this.topology.masterOf(energy, meterId);
    if (master)
      reasons.push(
        `${header}: 表 [${t.meterCode}] 是节点 [${this.topology.path(master.id)}] 的总表,不能再作下级表`,
      );
    const listed = this.topology.listedUnder(energy, meterId);
    if (listed && listed.id !== node.id)
      reasons.push(
        `${header}: 表 [${t.meterCode}] 在节点 [${this.topology.path(listed.id)}] 下已存在,一块表只能属于一个节点`,
      );
    const check = checkPart(
      meteringNodeMeter,
      { nodeId: node.id, energyType: energy, meterId, meterRole: role },
      LINK_LABELS,
      this.timeZone,
    );
    reasons.push(...check.reasons);
    if (reasons.length || !check.values) return void reject();
    this.plan.accepted++;
    if (listed) {
      this.plan.unchanged++;
      return;
    }
    this.topology.listMeter(energy, meterId, node.id);
    this.plan.nodeMeters.push({ id: nextId(), values: check.values });
  }
}

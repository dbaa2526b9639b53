import type { RegisterRead } from "@meterline/analytics";
import { notFound } from "../../contract/errors.ts";
import type { Queryable } from "../../db/client.ts";
import { daysBack } from "../metering/usage-periods.ts";
import {
  dayBoundaries,
  type EnergyType,
  listedMetersOf,
  monthBoundaries,
  type NodeRow,
  nodesOf,
  readsAround,
} from "./line-loss.repository.ts";
import {
  BAND_DAYS,
  bandOf,
  bandView,
  historyValue,
  hundredthsText,
  type LossState,
  type NodeOutflow,
  outflows,
  type PeriodLoss,
  periodLoss,
  sortedByMeter,
  stateOf,
  type TopologyNode,
} from "./node-figures.ts";

export { BAND_DAYS };
/** The longest daily series one call answers. */
export const MAX_HISTORY_DAYS = 366;

/** The period asked for: a local day, or a local month (yyyy-MM). */
export type LossPeriod = { day: string } | { month: string };

/** One node's loss over the period, on the wire. */
export interface NodeLossView {
  id: string;
  parentId: string;
  nodeName: string;
  nodeKind: number;
  areaName: string | null;
  masterMeterId: string | null;
  masterMeterCode: string | null;
  /** kWh or m³ to 2 decimals; null when the loss could not be measured. */
  input: string | null;
  delivered: string | null;
  loss: string | null;
  percent: number | null;
  state: LossState;
  /** Addresses of the meters without a trustworthy value at the period's ends. */
  missingMeters: string[];
  /** Addresses of the meters whose registers ran backwards. */
  faultyMeters: string[];
  /** Child nodes without a master meter, whose intake cannot be counted. */
  unmeteredNodes: string[];
  /** The normal band of the node's daily loss %, learned from the 28 days before (day view only). */
  band: ReturnType<typeof bandView>;
  children: NodeLossView[];
}

export interface Topology {
  rows: NodeRow[];
  nodes: TopologyNode[];
  outflow: Map<string, NodeOutflow>;
  codes: Map<string, string>;
}

export async function topologyOf(db: Queryable, tenantId: string, energyType: EnergyType): Promise<Topology> {
  const [rows, listed] = await Promise.all([
    nodesOf(db, tenantId, energyType),
    listedMetersOf(db, tenantId, energyType),
  ]);
  const codes = new Map<string, string>();
  const listedByNode = new Map<string, string[]>();
  for (const meter of listed) {
    codes.set(meter.meter_id, meter.product_code ?? meter.meter_id);
    listedByNode.set(meter.node_id, [...(listedByNode.get(meter.node_id) ?? []), meter.meter_id]);
  }
  for (const row of rows)
    if (row.master_meter_id) codes.set(row.master_meter_id, row.master_code ?? row.master_meter_id);
  const nodes = rows.map((row) => ({
    id: row.id,
    parentId: row.parent_id,
    masterMeterId: row.master_meter_id,
    listedMeterIds: listedByNode.get(row.id) ?? [],
  }));
  return { rows, nodes, outflow: outflows(nodes), codes };
}

/** The meters whose reads a node's loss needs: its master and what flows out of it. */
export const metersOfNode = (node: TopologyNode, outflow: NodeOutflow) =>
  node.masterMeterId ? [node.masterMeterId, ...outflow.subMeterIds] : [];

export async function sortedReadsAround(
  db: Queryable,
  tenantId: string,
  energyType: EnergyType,
  meterIds: Iterable<string>,
  instants: readonly number[],
): Promise<Map<string, RegisterRead[]>> {
  return sortedByMeter(await readsAround(db, tenantId, energyType, [...new Set(meterIds)], instants));
}

function view(
  row: NodeRow,
  loss: PeriodLoss,
  band: ReturnType<typeof bandOf>,
  topology: Topology,
): NodeLossView {
  const names = new Map(topology.rows.map((r) => [r.id, r.node_title]));
  const measured = loss.kind === "loss" || loss.kind === "negative";
  return {
    id: row.id,
    parentId: row.parent_id,
    nodeName: row.node_title,
    nodeKind: row.node_kind,
    areaName: row.area_name,
    masterMeterId: row.master_meter_id,
    masterMeterCode: row.master_code,
    input: measured ? hundredthsText(loss.input) : null,
    delivered: measured ? hundredthsText(loss.delivered) : null,
    loss: measured ? hundredthsText(loss.loss) : null,
    percent: measured ? loss.percent : null,
    state: stateOf(loss, band),
    missingMeters: loss.kind === "missing" ? loss.meters.map((id) => topology.codes.get(id) ?? id) : [],
    faultyMeters: loss.kind === "meter-fault" ? loss.meters.map((id) => topology.codes.get(id) ?? id) : [],
    unmeteredNodes: loss.kind === "unmetered-child" ? loss.nodes.map((id) => names.get(id) ?? id) : [],
    band: bandView(band),
    children: [],
  };
}

/** Nodes hung under their parents; a node whose parent is gone is a root. */
function asTree(views: NodeLossView[]): NodeLossView[] {
  const byId = new Map(views.map((v) => [v.id, v]));
  const roots: NodeLossView[] = [];
  for (const v of views) {
    const parent = byId.get(v.parentId);
    if (parent) parent.children.push(v);
    else roots.push(v);
  }
  return roots;
}

/**
 * Every node's loss over a day (with its band from the 28 days before and its state against it)
 * or a month (figures and state; no band, as a month is not judged against daily losses). One
 * statement reads the reads either side of each day boundary for every meter of the tree.
 */
export async function nodesLoss(
  db: Queryable,
  tenantId: string,
  energyType: EnergyType,
  period: LossPeriod,
  timeZone: string,
): Promise<NodeLossView[]> {
  const topology = await topologyOf(db, tenantId, energyType);
  const meterIds = topology.nodes.flatMap((node) => metersOfNode(node, topology.outflow.get(node.id)!));
  if ("month" in period) {
    const [from, to] = await monthBoundaries(db, period.month, timeZone);
    const reads = await sortedReadsAround(db, tenantId, energyType, meterIds, [from!, to!]);
    return asTree(
      topology.rows.map((row, i) => {
        const node = topology.nodes[i]!;
        const loss = periodLoss(node, topology.outflow.get(node.id)!, reads, from!, to!);
        return view(row, loss, undefined, topology);
      }),
    );
  }
  const instants = await dayBoundaries(db, daysBack(period.day, BAND_DAYS + 1), period.day, timeZone);
  const reads = await sortedReadsAround(db, tenantId, energyType, meterIds, instants);
  return asTree(
    topology.rows.map((row, i) => {
      const node = topology.nodes[i]!;
      const outflow = topology.outflow.get(node.id)!;
      const daily = instants
        .slice(0, -1)
        .map((from, d) => periodLoss(node, outflow, reads, from, instants[d + 1]!));
      const day = daily.pop()!;
      return view(row, day, bandOf(daily.map(historyValue)), topology);
    }),
  );
}

/** One day of a node's series: its loss, its band learned from the 28 days before, and its state. */
export interface LossDay {
  day: string;
  input: string | null;
  delivered: string | null;
  loss: string | null;
  percent: number | null;
  state: LossState;
  band: ReturnType<typeof bandView>;
}

/** A node's daily loss over the `days` days ending `lastDay`, each judged against its own band. */
export async function nodeHistory(
  db: Queryable,
  tenantId: string,
  nodeId: string,
  lastDay: string,
  days: number,
  timeZone: string,
): Promise<{ nodeName: string; energyType: EnergyType; days: LossDay[] }> {
  const type = await energyTypeOf(db, tenantId, nodeId);
  const topology = await topologyOf(db, tenantId, type);
  const index = topology.nodes.findIndex((node) => node.id === nodeId);
  if (index < 0) throw notFound("nodeId: 计量节点不存在");
  const node = topology.nodes[index]!;
  const outflow = topology.outflow.get(nodeId)!;
  const firstDay = daysBack(lastDay, days);
  const instants = await dayBoundaries(db, daysBack(firstDay, BAND_DAYS + 1), lastDay, timeZone);
  const reads = await sortedReadsAround(db, tenantId, type, metersOfNode(node, outflow), instants);
  const losses = instants
    .slice(0, -1)
    .map((from, d) => periodLoss(node, outflow, reads, from, instants[d + 1]!));
  const history = losses.map(historyValue);
  const series = losses.slice(BAND_DAYS).map((loss, i): LossDay => {
    const band = bandOf(history.slice(i, i + BAND_DAYS));
    const measured = loss.kind === "loss" || loss.kind === "negative";
    return {
      day: daysBack(firstDay, 1 - i),
      input: measured ? hundredthsText(loss.input) : null,
      delivered: measured ? hundredthsText(loss.delivered) : null,
      loss: measured ? hundredthsText(loss.loss) : null,
      percent: measured ? loss.percent : null,
      state: stateOf(loss, band),
      band: bandView(band),
    };
  });
  return { nodeName: topology.rows[index]!.node_title, energyType: type, days: series };
}

async function energyTypeOf(db: Queryable, tenantId: string, nodeId: string): Promise<EnergyType> {
  const [row] = await db.query<{ energy_type: number }>(
    "select energy_type from pms_metering_node where id = $1 and tenant_id = $2 and is_deleted = 0",
    [nodeId, tenantId],
  );
  if (!row) throw notFound("nodeId: 计量节点不存在");
  return row.energy_type === 2 ? 2 : 1;
}

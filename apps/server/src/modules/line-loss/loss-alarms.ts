import type { Topology } from "./line-loss.service.ts";
import {
  BAND_DAYS,
  bandOf,
  bandView,
  historyValue,
  hundredthsText,
  type PeriodLoss,
  stateOf,
} from "./node-figures.ts";

/** The node a day is judged for, with what its alarm names. */
export interface JudgedNode {
  id: string;
  name: string;
  energyType: 1 | 2;
  masterMeterId: string | null;
  masterCode: string | null;
}

/** A node's day that raises an alarm on its master meter. */
export interface LossAlarm {
  energyType: 1 | 2;
  meterId: string;
  productCode: string;
  nodeId: string;
  day: string;
  code: "loss_above_band" | "loss_negative";
  content: string;
}

/**
 * The days among the last `judged` of a node's daily losses (oldest first, `days[i]` the day of
 * `losses[i]`) that leave the node's band learned from the 28 days before each (as the 线损分析
 * page judges them), or whose loss is negative. A day without a measured loss, or before the
 * node has a band, raises nothing; a negative day needs no band: sub-meters counting more than
 * their master is wrong on any day.
 */
export function lossAlarms(
  node: JudgedNode,
  days: readonly string[],
  losses: readonly PeriodLoss[],
  judged: number,
): LossAlarm[] {
  if (!node.masterMeterId) return [];
  const history = losses.map(historyValue);
  const unit = node.energyType === 1 ? "kWh" : "m³";
  const named = `计量节点「${node.name}」(总表 ${node.masterCode ?? node.masterMeterId})`;
  const found: LossAlarm[] = [];
  for (let i = Math.max(0, losses.length - judged); i < losses.length; i++) {
    const loss = losses[i]!;
    if (loss.kind !== "loss" && loss.kind !== "negative") continue;
    const band = bandOf(history.slice(Math.max(0, i - BAND_DAYS), i));
    const state = stateOf(loss, band);
    const figure = `${days[i]} 线损 ${loss.percent ?? "—"}%(${hundredthsText(loss.loss)} ${unit})`;
    const base = {
      energyType: node.energyType,
      meterId: node.masterMeterId,
      productCode: node.masterCode ?? "",
      nodeId: node.id,
      day: days[i]!,
    };
    if (state === "above-band") {
      const shown = bandView(band)!;
      found.push({
        ...base,
        code: "loss_above_band",
        content: `${named} ${figure},超出正常范围 ${shown.low}%–${shown.high}%(中位 ${shown.median}%)`,
      });
    } else if (state === "negative") {
      found.push({
        ...base,
        code: "loss_negative",
        content: `${named} ${figure}:分表合计大于总表,节点挂接关系或表计故障`,
      });
    }
  }
  return found;
}

/**
 * The alarms of every node of a tree over the last `judged` days of its daily losses: `lossesOf`
 * answers a node's (by its index in the topology) losses per day, `days[i]` the day of each.
 */
export function treeLossAlarms(
  topology: Pick<Topology, "rows">,
  energyType: 1 | 2,
  days: readonly string[],
  lossesOf: (nodeIndex: number) => readonly PeriodLoss[],
  judged: number,
): LossAlarm[] {
  return topology.rows.flatMap((row, index) =>
    lossAlarms(
      {
        id: row.id,
        name: row.node_title,
        energyType,
        masterMeterId: row.master_meter_id,
        masterCode: row.master_code,
      },
      days,
      lossesOf(index),
      judged,
    ),
  );
}

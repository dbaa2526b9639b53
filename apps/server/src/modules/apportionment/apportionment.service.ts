import { sortedReads, valueAt } from "@meterline/analytics";
import {
  type ApportionRule,
  apportion,
  BillingInputError,
  bookedToDate,
  fenToYuan,
  fromUnits,
  tariffOf,
  toUnits,
} from "@meterline/billing";
import { badRequest, notFound } from "../../contract/errors.ts";
import type { Db, Queryable } from "../../db/client.ts";
import { nextId } from "../../db/ids.ts";
import { type EnergyType, monthBoundaries, readsAround } from "../line-loss/line-loss.repository.ts";
import { type NodeLossView, nodesLoss } from "../line-loss/line-loss.service.ts";
import { lockAccount } from "../money/account.repository.ts";
import { type Actor, book, LEDGER_TYPE } from "../money/account-book.ts";
import {
  insertLines,
  insertRun,
  linesOf,
  liveRunOf,
  markLineBooked,
  type NodeMeterRow,
  nodeMetersOf,
  nodeOf,
  type RunRow,
  runOf,
  setRunState,
} from "./apportionment.repository.ts";

/** apportion_rule dictionary → the maths' rule. */
const RULES: Record<number, ApportionRule> = { 1: "area", 2: "usage", 3: "equal" };
const METER_ROOM = 1;
const METER_COMMON = 2;

export const RUN_STATE = { waiting: 1, booked: 2, rejected: 3, reversed: 4 } as const;

/** One room's part of the month, as computed (usages in 0.01 units, amount in fen). */
export interface RoomShare {
  roomId: string;
  roomName: string;
  meterId: string;
  meterCode: string;
  accountId: string;
  floorArea: bigint | null;
  usage: bigint;
  share: bigint;
  amount: bigint;
}

export interface Apportionment {
  nodeId: string;
  nodeName: string;
  energyType: EnergyType;
  month: string;
  rule: ApportionRule;
  commonUsage: bigint;
  /** The node's loss shared out (0 unless the node shares its loss). */
  loss: bigint;
  shared: bigint;
  rooms: RoomShare[];
  total: bigint;
}

const hundredths = (aligned: bigint) => (aligned < 0n ? -((-aligned + 50n) / 100n) : (aligned + 50n) / 100n);
const codeOf = (m: NodeMeterRow) => m.product_code ?? m.meter_id;

/** Each meter's usage over [from, to) in 0.01 units, or a refusal naming the meters without reads. */
async function monthUsages(
  db: Queryable,
  tenantId: string,
  energyType: EnergyType,
  meters: readonly NodeMeterRow[],
  from: number,
  to: number,
): Promise<Map<string, bigint>> {
  const reads = await readsAround(
    db,
    tenantId,
    energyType,
    meters.map((m) => m.meter_id),
    [from, to],
  );
  const usages = new Map<string, bigint>();
  const missing: string[] = [];
  const backwards: string[] = [];
  for (const meter of meters) {
    const sorted = sortedReads(reads.get(meter.meter_id) ?? []);
    const start = valueAt(sorted, from);
    const end = valueAt(sorted, to);
    if (start.kind === "missing" || end.kind === "missing") missing.push(codeOf(meter));
    else if (start.kind === "backwards" || end.kind === "backwards" || end.value < start.value)
      backwards.push(codeOf(meter));
    else usages.set(meter.meter_id, hundredths(end.value - start.value));
  }
  if (missing.length) throw badRequest(`reads: 月初或月末缺少读数 (${missing.join(", ")})`);
  if (backwards.length) throw badRequest(`reads: 读数倒走, 无法计算用量 (${backwards.join(", ")})`);
  return usages;
}

const find = (nodes: NodeLossView[], id: string): NodeLossView | undefined => {
  for (const node of nodes) {
    const hit = node.id === id ? node : find(node.children, id);
    if (hit) return hit;
  }
  return undefined;
};

/** The node's loss of the month from the line-loss service, in 0.01 units (never negative: nothing to share). */
async function monthLoss(
  db: Queryable,
  tenantId: string,
  energyType: EnergyType,
  nodeId: string,
  month: string,
  timeZone: string,
) {
  const node = find(await nodesLoss(db, tenantId, energyType, { month }, timeZone), nodeId);
  if (!node || node.loss === null) {
    const meters = node?.missingMeters.length ? ` (${node.missingMeters.join(", ")})` : "";
    throw badRequest(`loss: 本月损耗无法计算: ${node?.state ?? "missing"}${meters}`);
  }
  const loss = toUnits(node.loss, 2);
  return loss < 0n ? 0n : loss;
}

/**
 * A room's share priced by its meter's charging scheme: as usage of its own from the start of a
 * cycle in the flat band. A flat scheme charges its price; a ladder charges from its first step; a
 * time-of-use scheme charges its flat (平) price, as common-area usage has no time of day of its own.
 */
function priced(meter: NodeMeterRow, share: bigint): bigint {
  if (meter.price_mode === null)
    throw badRequest(`chargingSchemeId: 房间 ${meter.room_name} 的表没有计费方案`);
  try {
    const tariff = tariffOf({
      priceMode: meter.price_mode,
      price: meter.price,
      ladderCycle: meter.ladder_cycle,
      ladder: meter.ladder,
      tipPrice: meter.tip_price,
      peakPrice: meter.peak_price,
      peacePrice: meter.peace_price ?? meter.price,
      lowPrice: meter.low_price,
    });
    return bookedToDate(tariff, { total: share, bands: { tip: 0n, peak: 0n, peace: share, low: 0n } });
  } catch (error) {
    if (error instanceof BillingInputError)
      throw badRequest(`chargingSchemeId: 房间 ${meter.room_name} 的计费方案有误 (${error.message})`);
    throw error;
  }
}

/** The month's apportionment of a node as it would be booked now; refusals name the field. */
export async function computeApportionment(
  db: Queryable,
  tenantId: string,
  nodeId: string,
  month: string,
  timeZone: string,
): Promise<Apportionment> {
  const node = await nodeOf(db, tenantId, nodeId);
  if (!node) throw notFound("nodeId: 计量节点不存在");
  const energyType: EnergyType = node.energy_type === 2 ? 2 : 1;
  const rule = RULES[node.apportion_rule];
  if (!rule) throw badRequest("apportionRule: 节点的分摊方式无效");
  const [from, to] = await monthBoundaries(db, month, timeZone);
  if (to! > Date.now()) throw badRequest("month: 月份尚未结束");
  const meters = await nodeMetersOf(db, tenantId, nodeId, energyType);
  const common = meters.filter((m) => m.meter_role === METER_COMMON);
  const rooms = meters.filter((m) => m.meter_role === METER_ROOM);
  if (common.length === 0) throw badRequest("meterRole: 节点下没有公区表");
  if (rooms.length === 0) throw badRequest("meterRole: 节点下没有分户表");
  const roomless = rooms.filter((m) => m.room_id === null);
  if (roomless.length) throw badRequest(`roomId: 分户表未安装到房间 (${roomless.map(codeOf).join(", ")})`);
  const unopened = rooms.filter((m) => m.account_id === null);
  if (unopened.length)
    throw badRequest(`accountId: 房间未开户 (${unopened.map((m) => m.room_name).join(", ")})`);
  if (rule === "area") {
    const noArea = rooms.filter((m) => m.floor_area === null || toUnits(m.floor_area, 2) <= 0n);
    if (noArea.length)
      throw badRequest(
        `floorArea: 按面积分摊, 房间未填写面积 (${noArea.map((m) => m.room_name).join(", ")})`,
      );
  }
  const usages = await monthUsages(db, tenantId, energyType, meters, from!, to!);
  const commonUsage = common.reduce((sum, m) => sum + usages.get(m.meter_id)!, 0n);
  const loss =
    node.apportion_loss === 1 ? await monthLoss(db, tenantId, energyType, nodeId, month, timeZone) : 0n;
  const shared = commonUsage + loss;
  const areaOf = (m: NodeMeterRow) => (m.floor_area === null ? null : toUnits(m.floor_area, 2));
  let parts: { id: string; amount: bigint }[];
  try {
    parts = apportion(
      shared,
      rooms.map((m) => ({ id: m.meter_id, weight: rule === "area" ? areaOf(m)! : usages.get(m.meter_id)! })),
      rule,
    );
  } catch (error) {
    if (error instanceof BillingInputError) throw badRequest(`${error.field}: ${error.message}`);
    throw error;
  }
  const shares = rooms.map((m, i): RoomShare => {
    const share = parts[i]!.amount;
    return {
      roomId: m.room_id!,
      roomName: m.room_name ?? "",
      meterId: m.meter_id,
      meterCode: codeOf(m),
      accountId: m.account_id!,
      floorArea: areaOf(m),
      usage: usages.get(m.meter_id)!,
      share,
      amount: priced(m, share),
    };
  });
  return {
    nodeId,
    nodeName: node.node_title,
    energyType,
    month,
    rule,
    commonUsage,
    loss,
    shared,
    rooms: shares,
    total: shares.reduce((sum, s) => sum + s.amount, 0n),
  };
}

const units = (value: bigint) => fromUnits(value, 2);

/** An apportionment on the wire: usages and areas to 2 decimals, money in yuan and in fen. */
export function apportionmentView(a: Apportionment) {
  return {
    nodeId: a.nodeId,
    nodeName: a.nodeName,
    energyType: a.energyType,
    month: a.month,
    rule: a.rule,
    commonUsage: units(a.commonUsage),
    loss: units(a.loss),
    shared: units(a.shared),
    rooms: a.rooms.map((r) => ({
      roomId: r.roomId,
      roomName: r.roomName,
      meterId: r.meterId,
      meterCode: r.meterCode,
      floorArea: r.floorArea === null ? null : units(r.floorArea),
      usage: units(r.usage),
      share: units(r.share),
      amountFen: r.amount.toString(),
      amount: fenToYuan(r.amount),
    })),
    totalFen: a.total.toString(),
    total: fenToYuan(a.total),
  };
}

export function runView(run: RunRow) {
  return {
    id: run.id,
    nodeId: run.node_id,
    nodeName: run.node_title,
    energyType: run.energy_type,
    month: run.month,
    state: run.state,
    commonUsage: units(BigInt(run.common_usage)),
    loss: units(BigInt(run.loss_usage)),
    shared: units(BigInt(run.shared_usage)),
    totalFen: run.total_amount,
    total: fenToYuan(BigInt(run.total_amount)),
    rejectReason: run.reject_reason,
    reverseReason: run.reverse_reason,
    reversedBy: run.reversed_by,
    reversedTime: run.reversed_time,
    creator: run.creator,
    createTime: run.create_time,
  };
}

/** Debits each room's account by its line (a line of 0 fen books nothing), in the caller's transaction. */
export async function bookLines(tx: Queryable, tenantId: string, run: RunRow, actor: Actor): Promise<void> {
  for (const line of await linesOf(tx, tenantId, run.id)) {
    const amount = BigInt(line.amount);
    if (amount === 0n || line.ledger_id !== null) continue;
    const account = await lockAccount(tx, tenantId, line.account_id);
    if (account?.status !== 1) throw badRequest(`accountId: 账户 ${line.account_id} 已销户, 无法入账`);
    const booked = await book(tx, account, {
      type: LEDGER_TYPE.apportion,
      amount: -amount,
      cause: `公摊 ${run.month} ${run.node_title ?? ""}`.trim(),
      actor,
      usage: BigInt(line.share_usage),
    });
    await markLineBooked(tx, line.id, "ledger_id", booked.ledgerId);
  }
  await setRunState(tx, tenantId, run.id, { state: RUN_STATE.booked });
}

/** Where a held run waits: asks the money policy; answers the approval instance id when it must wait. */
export type ApprovalAsk = (
  tx: Queryable,
  run: { tenantId: string; id: string; amount: bigint; nodeName: string; month: string },
) => Promise<string | undefined>;

/**
 * Books a node's month once: a second booking (or one racing the first) answers the live run.
 * Above the tenant's approval threshold the run waits for a second person's approval and is booked
 * when it is approved.
 */
export async function bookApportionment(
  db: Db,
  tenantId: string,
  nodeId: string,
  month: string,
  timeZone: string,
  actor: Actor,
  ask: ApprovalAsk,
): Promise<{ run: ReturnType<typeof runView>; created: boolean }> {
  const existing = await liveRunOf(db, tenantId, nodeId, month);
  if (existing) return { run: runView(existing), created: false };
  const a = await computeApportionment(db, tenantId, nodeId, month, timeZone);
  return db.transaction(async (tx) => {
    const runId = nextId();
    const inserted = await insertRun(tx, {
      id: runId,
      tenantId,
      nodeId,
      energyType: a.energyType,
      month,
      commonUsage: a.commonUsage,
      lossUsage: a.loss,
      sharedUsage: a.shared,
      totalAmount: a.total,
      userId: actor.userId ?? "",
      creator: actor.name,
    });
    if (!inserted) return { run: runView((await liveRunOf(tx, tenantId, nodeId, month))!), created: false };
    await insertLines(
      tx,
      tenantId,
      runId,
      a.rooms.map((r) => ({
        id: nextId(),
        roomId: r.roomId,
        meterId: r.meterId,
        accountId: r.accountId,
        floorArea: r.floorArea,
        roomUsage: r.usage,
        shareUsage: r.share,
        amount: r.amount,
      })),
    );
    const instanceId = await ask(tx, { tenantId, id: runId, amount: a.total, nodeName: a.nodeName, month });
    const run = (await runOf(tx, tenantId, runId, true))!;
    if (instanceId) await setRunState(tx, tenantId, runId, { state: RUN_STATE.waiting, instanceId });
    else await bookLines(tx, tenantId, run, actor);
    return { run: runView((await runOf(tx, tenantId, runId))!), created: true };
  });
}

/** Settles a run held for approval: approved → booked, otherwise rejected with the reason. Once. */
export async function settleHeldRun(
  tx: Queryable,
  decision: { tenantId: string; id: string; approved: boolean; reason: string },
): Promise<void> {
  const run = await runOf(tx, decision.tenantId, decision.id, true);
  if (!run || run.state !== RUN_STATE.waiting) return;
  if (decision.approved)
    await bookLines(tx, decision.tenantId, run, { name: `审批通过 ${run.creator}`.trim() });
  else
    await setRunState(tx, decision.tenantId, run.id, {
      state: RUN_STATE.rejected,
      rejectReason: decision.reason,
    });
}

/** Books the exact mirror of a booked run's entries and marks it reversed; a run is reversed once. */
export async function reverseApportionment(
  db: Db,
  tenantId: string,
  runId: string,
  reason: string,
  actor: Actor,
): Promise<ReturnType<typeof runView>> {
  return db.transaction(async (tx) => {
    const run = await runOf(tx, tenantId, runId, true);
    if (!run) throw notFound("runId: 分摊记录不存在");
    if (run.state === RUN_STATE.reversed) throw badRequest("runId: 该分摊已冲正");
    if (run.state !== RUN_STATE.booked) throw badRequest("runId: 只有已入账的分摊可以冲正");
    for (const line of await linesOf(tx, tenantId, runId)) {
      if (line.ledger_id === null) continue;
      const account = await lockAccount(tx, tenantId, line.account_id);
      if (!account) throw badRequest(`accountId: 账户 ${line.account_id} 不存在`);
      const booked = await book(tx, account, {
        type: LEDGER_TYPE.apportion,
        amount: BigInt(line.amount),
        cause: `公摊冲正 ${run.month} ${reason}`,
        actor,
        usage: -BigInt(line.share_usage),
      });
      await markLineBooked(tx, line.id, "reverse_ledger_id", booked.ledgerId);
    }
    await setRunState(tx, tenantId, runId, {
      state: RUN_STATE.reversed,
      reverse: { reason, by: actor.name },
    });
    return runView((await runOf(tx, tenantId, runId))!);
  });
}

import { isProtocolError, toHex } from "@meterline/protocols";
import type { MeterCommand, MeterInfo } from "../model.ts";
import { type Request, UnsupportedRequest } from "../protocol/requests.ts";
import { localPartsCached } from "../time.ts";
import { type BusContext, describeRead, readBack, readWithRetry } from "./exchange.ts";
import { decideAfterAck, decideFromReadBack, readBackItemFor } from "./reconcile.ts";
import type { CommandTracker } from "./tracker.ts";

/**
 * Runs one command on its meter's bus. Reads are retried; writes (relay, valve, money) are sent
 * exactly once and a missing reply is settled by reading the meter back (design.md §5).
 * The result says what, if anything, the collector must still do.
 */
export type FollowUp =
  | { kind: "done" }
  /** Check again later: motor valves take seconds; `acknowledged` says whether the meter answered. */
  | { kind: "verify"; at: number; acknowledged: boolean }
  /** The link dropped while the outcome was open: read back when the collector is online again. */
  | { kind: "reconcile-later"; acknowledged: boolean };

export interface CommandSettings {
  relayValidityMs: number;
  valveSettleMs: number;
  timeZone: string;
  timeoutRecheckMs: number;
}

const DONE: FollowUp = { kind: "done" };

function buildRequest(
  ctx: BusContext,
  meter: MeterInfo,
  command: MeterCommand,
  settings: CommandSettings,
): Request | Promise<Request> {
  const { action, operator } = command;
  switch (action.kind) {
    case "read":
      return ctx.requests.read(meter, action.di);
    case "relay": {
      // Whole minutes (rounded up), so a batch of switches shares one time-zone conversion.
      const deadline = Math.ceil((Date.now() + settings.relayValidityMs) / 60_000) * 60_000;
      return ctx.requests.relay(
        meter,
        action.action,
        localPartsCached(deadline, settings.timeZone),
        operator,
      );
    }
    case "valve":
      return ctx.requests.valve(meter, action.action);
    case "recharge":
      return ctx.requests.recharge(meter, action.amount, action.purchaseCount, operator);
    case "clearing":
      return ctx.requests.clearing(meter, action.amount, action.purchaseCount, operator);
    case "write":
      return ctx.requests.write(meter, action.di, action.value, operator);
    case "water-price":
      return ctx.requests.waterPrice(meter, action.table);
    case "water-alarm":
      return ctx.requests.waterAlarm(meter, action.amounts);
  }
}

export async function executeCommand(
  ctx: BusContext,
  meter: MeterInfo,
  tracker: CommandTracker,
  settings: CommandSettings,
): Promise<FollowUp> {
  const command = tracker.command;
  if (command.expiresAt && command.expiresAt.getTime() < Date.now()) {
    await tracker.to("fail", { detail: "expired before it could be sent" });
    return DONE;
  }
  let request: Request;
  try {
    request = await buildRequest(ctx, meter, command, settings);
  } catch (error) {
    // A command the meter cannot carry, or a value the codec refuses (bad DI, too many decimals).
    if (!(error instanceof UnsupportedRequest) && !isProtocolError(error)) throw error;
    await tracker.to("fail", { detail: `not sent: ${(error as Error).message}` });
    return DONE;
  }
  if (command.action.kind === "read") return runRead(ctx, meter, tracker, request);

  await tracker.to("sent", { request: toHex(request.bytes, ""), detail: "sent" });
  const exchange = await ctx.bus.exchange(request, ctx.timeoutMs);
  if (exchange.outcome === "closed") {
    await tracker.to("timeout", { detail: "connection closed before the reply; read back when it returns" });
    return { kind: "reconcile-later", acknowledged: false };
  }
  if (exchange.outcome === "timeout") {
    if (command.action.kind === "valve")
      return { kind: "verify", at: Date.now() + settings.valveSettleMs, acknowledged: false };
    return reconcile(ctx, meter, tracker, false, undefined, settings.timeoutRecheckMs);
  }
  // A DL/T 698.45 SECURITY-Response is opened (MAC checked, deciphered) by the cipher port first.
  const reply = exchange.reply.kind === "secured" ? await exchange.reply.open() : exchange.reply;
  const replyHex = toHex(exchange.frame, "");
  if (reply.kind === "error") {
    await tracker.to("fail", { reply: replyHex, detail: reply.detail });
    return DONE;
  }
  switch (command.action.kind) {
    case "valve": {
      const target = command.action.action === "open" ? "open" : "closed";
      if (reply.kind === "ack" && reply.status?.valve === target) {
        await tracker.to("success", { reply: replyHex, detail: `acknowledged, valve ${target}` });
        return DONE;
      }
      // The reply reported the valve still moving (or no status): look again once it has settled.
      return { kind: "verify", at: Date.now() + settings.valveSettleMs, acknowledged: true };
    }
    default:
      // Relay, recharge and write acknowledgements carry no identifier a stale reply could be told
      // apart by (§1.7 "always verify"): the read-back confirms what the meter really did.
      return reconcile(ctx, meter, tracker, true, replyHex, settings.timeoutRecheckMs);
  }
}

async function runRead(
  ctx: BusContext,
  meter: MeterInfo,
  tracker: CommandTracker,
  first: Request,
): Promise<FollowUp> {
  const di = (tracker.command.action as { di: string }).di;
  let used = false;
  const build = () => {
    if (!used) {
      used = true;
      return first;
    }
    return ctx.requests.read(meter, di);
  };
  await tracker.to("sent", { request: toHex(first.bytes, ""), detail: "sent" });
  const { exchange, attempts } = await readWithRetry(ctx, build);
  if (exchange.outcome === "reply") {
    const reply = exchange.reply;
    const evidence = { reply: toHex(exchange.frame, ""), attempts };
    if (reply.kind === "read")
      await tracker.to("success", { ...evidence, detail: "read", value: describeRead(reply) });
    else
      await tracker.to("fail", {
        ...evidence,
        detail: reply.kind === "error" ? reply.detail : "unexpected reply",
      });
    return DONE;
  }
  const detail = exchange.outcome === "closed" ? "connection closed" : `no reply after ${attempts} attempts`;
  await tracker.to("fail", { detail, attempts });
  return DONE;
}

/**
 * Settle a write by reading the meter back. After a timeout the read-back decides; after an
 * acknowledgement it verifies. A read-back that fails leaves the command "timeout" (to be
 * confirmed) and, given `recheckMs`, reads back again that much later; it hands the command back
 * for later when the link itself went away.
 */
export async function reconcile(
  ctx: BusContext,
  meter: MeterInfo,
  tracker: CommandTracker,
  acknowledged: boolean,
  reply?: string,
  recheckMs?: number,
): Promise<FollowUp> {
  const action = tracker.command.action;
  const item = readBackItemFor(action);
  if (!item) throw new Error("reads need no reconciliation");
  const result = await readBack(ctx, meter, item);
  const decision = acknowledged
    ? decideAfterAck(action, result.fact)
    : decideFromReadBack(action, result.fact);
  if (result.linkClosed && decision.state === "timeout") {
    if (tracker.state !== "timeout")
      await tracker.to("timeout", {
        reply,
        detail: "connection closed during read-back",
        readBack: result.record,
      });
    return { kind: "reconcile-later", acknowledged };
  }
  const recheck: FollowUp =
    decision.state === "timeout" && recheckMs !== undefined
      ? { kind: "verify", at: Date.now() + recheckMs, acknowledged }
      : DONE;
  if (decision.state === "timeout" && tracker.state === "timeout") return recheck;
  await tracker.to(decision.state, { reply, detail: decision.detail, readBack: result.record });
  return recheck;
}

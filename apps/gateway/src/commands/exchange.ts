import { toHex } from "@meterline/protocols";
import type { Bus, Exchange } from "../bus/bus.ts";
import type { MeterInfo, ReadBack } from "../model.ts";
import { describeFact, factFrom, readBackDi } from "../protocol/read-items.ts";
import type { MeterReply, Request, RequestFactory } from "../protocol/requests.ts";
import type { Counters } from "../stats.ts";
import type { ReadBackFact, ReadBackItem } from "./reconcile.ts";

/** What command execution and polling need from the bus they run on. */
export interface BusContext {
  bus: Bus;
  requests: RequestFactory;
  counters: Counters;
  /** Per request; longer over MQTT. */
  timeoutMs: number;
  readRetries: number;
}

export interface Attempted {
  exchange: Exchange<MeterReply>;
  attempts: number;
  first: Request;
}

/**
 * Send a read, retrying on silence up to `readRetries` times. Each attempt is built afresh so
 * CJ/T 188 requests get a new SER. Error replies are answers and are not retried; neither is a
 * closed link.
 */
export async function readWithRetry(ctx: BusContext, build: () => Request): Promise<Attempted> {
  const first = build();
  let request = first;
  for (let attempt = 1; ; attempt++) {
    const exchange = await ctx.bus.exchange(request, ctx.timeoutMs);
    if (exchange.outcome !== "timeout" || attempt > ctx.readRetries)
      return { exchange, attempts: attempt, first };
    ctx.counters.retries++;
    request = build();
  }
}

export interface ReadBackResult {
  fact: ReadBackFact | null;
  record: ReadBack;
  linkClosed: boolean;
}

/** Read the meter back to learn what a write did. */
export async function readBack(
  ctx: BusContext,
  meter: MeterInfo,
  item: ReadBackItem,
): Promise<ReadBackResult> {
  const di = readBackDi(item, meter);
  const { exchange, attempts } = await readWithRetry(ctx, () => ctx.requests.read(meter, di));
  if (exchange.outcome !== "reply") {
    const detail =
      exchange.outcome === "closed" ? "connection closed" : `no reply after ${attempts} attempts`;
    return {
      fact: null,
      record: { item: item.item, value: null, frame: null, detail },
      linkClosed: exchange.outcome === "closed",
    };
  }
  const fact = factFrom(item, exchange.reply);
  const detail = exchange.reply.kind === "error" ? exchange.reply.detail : undefined;
  return {
    fact,
    record: {
      item: item.item,
      value: fact ? describeFact(fact) : null,
      frame: toHex(exchange.frame, ""),
      detail,
    },
    linkClosed: false,
  };
}

export function describeRead(reply: MeterReply): string {
  if (reply.kind !== "read") return reply.kind;
  if (reply.meterData) {
    const data = reply.meterData;
    return `volume=${data.currentTotal.value ?? data.currentTotal.status}; valve=${data.status.valve}; time=${data.time.value}`;
  }
  if (reply.statusWord3)
    return `status word 3=${reply.statusWord3.raw.toString(16).padStart(4, "0")} (relay ${reply.statusWord3.relay})`;
  if (reply.relayStatus)
    return `relay ${reply.relayStatus.relay}${reply.relayStatus.powerHold ? ", power-hold on" : ""}`;
  return reply.fields.map((field) => `${field.name}=${field.value ?? field.status}`).join("; ");
}

import type { ServerResponse } from "node:http";
import type { ChangeWatcher } from "../../db/client.ts";
import { liveChangeOf } from "./live-message.ts";
import type { TicketHolder } from "./live-tickets.ts";

/** Streams one person may hold in one server process (tabs); a further one ends their oldest. */
export const MAX_STREAMS_PER_USER = 4;
/** A comment line this often keeps balancers from closing a quiet stream and finds dead clients. */
const HEARTBEAT_MS = 20_000;
/** A client this far behind is not reading: its stream is ended rather than buffered without end. */
const MAX_BUFFERED_BYTES = 256 * 1024;

interface Stream {
  holder: TicketHolder;
  response: ServerResponse;
}

/**
 * The push streams of this server process, fed by the change channel (it watches the database like
 * the shared cache does): a change reaches only the streams of its own tenant, and only as ids, so
 * what a page then reads still goes through that reader's permissions and data scope. Streams whose
 * access token stopped being valid (sign-out, revocation, the user or tenant switched off) are ended
 * at the next heartbeat; the console opens a new one with a fresh ticket if it still may.
 */
export class LiveHub implements ChangeWatcher {
  private readonly byTenant = new Map<string, Set<Stream>>();
  private readonly heartbeat: NodeJS.Timeout;
  private everListened = false;
  private deaf = false;

  constructor(private readonly sessionAlive: (holder: TicketHolder) => Promise<boolean>) {
    this.heartbeat = setInterval(() => void this.beat(), HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  changed(message: string): void {
    const change = liveChangeOf(message);
    if (!change) return;
    this.send(change.tenantId, "change", { kind: change.kind, meterIds: change.meterIds });
  }

  /** After the channel was lost, changes may have been missed: every page reads itself again. */
  listening(live: boolean): void {
    if (!live) {
      this.deaf = true;
      return;
    }
    if (this.deaf && this.everListened)
      for (const tenant of this.byTenant.keys()) this.send(tenant, "resync", {});
    this.deaf = false;
    this.everListened = true;
  }

  /** Starts the event stream on `response` (already hijacked) for the ticket's holder. */
  open(holder: TicketHolder, response: ServerResponse): void {
    response.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-store",
      connection: "keep-alive",
      // Proxies such as nginx must pass each event on at once instead of buffering the answer.
      "x-accel-buffering": "no",
    });
    // The client retries after this long when the connection drops; it asks a new ticket first.
    response.write("retry: 2000\n\n");
    const streams = this.byTenant.get(holder.tenantId) ?? new Set<Stream>();
    this.byTenant.set(holder.tenantId, streams);
    const mine = [...streams].filter((s) => s.holder.userId === holder.userId);
    for (const old of mine.slice(0, Math.max(0, mine.length - MAX_STREAMS_PER_USER + 1))) this.end(old);
    const stream: Stream = { holder, response };
    streams.add(stream);
    response.on("close", () => this.forget(stream));
    this.write(stream, "ready", {});
  }

  /** Open streams of a tenant (tests, and the bound per user). */
  count(tenantId: string, userId?: string): number {
    const streams = [...(this.byTenant.get(tenantId) ?? [])];
    return userId === undefined ? streams.length : streams.filter((s) => s.holder.userId === userId).length;
  }

  stop(): void {
    clearInterval(this.heartbeat);
    for (const streams of this.byTenant.values()) for (const stream of streams) this.end(stream);
  }

  private send(tenantId: string, event: string, data: unknown): void {
    for (const stream of this.byTenant.get(tenantId) ?? []) this.write(stream, event, data);
  }

  private write(stream: Stream, event: string, data: unknown): void {
    if (stream.response.writableLength > MAX_BUFFERED_BYTES) {
      this.end(stream);
      return;
    }
    stream.response.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  private async beat(): Promise<void> {
    for (const streams of [...this.byTenant.values()]) {
      for (const stream of [...streams]) {
        const alive = await this.sessionAlive(stream.holder).catch(() => true);
        if (!alive) this.end(stream);
        else if (stream.response.writableLength > MAX_BUFFERED_BYTES) this.end(stream);
        else stream.response.write(": still here\n\n");
      }
    }
  }

  private end(stream: Stream): void {
    this.forget(stream);
    stream.response.end();
  }

  private forget(stream: Stream): void {
    const streams = this.byTenant.get(stream.holder.tenantId);
    streams?.delete(stream);
    if (streams?.size === 0) this.byTenant.delete(stream.holder.tenantId);
  }
}

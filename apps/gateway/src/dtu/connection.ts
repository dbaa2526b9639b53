import type { Socket } from "node:net";
import { FrameSplitter, type SplitFrame } from "@meterline/protocols";
import type { FrameLink } from "../bus/link.ts";
import type { Counters } from "../stats.ts";
import { HeartbeatCounter, matchRegistration, type PacketFormat, renderPacket } from "./packet-format.ts";

export interface ConnectionLimits {
  registration: PacketFormat;
  heartbeat: PacketFormat;
  heartbeatReply: PacketFormat | null;
  maxRegistrationBytes: number;
  registrationTimeoutMs: number;
  /** Silence after which a registered session counts as offline. */
  silenceTimeoutMs: number;
  interByteTimeoutMs: number;
  maxGarbageBytes: number;
  maxFrameLength: number;
}

export interface ConnectionEvents {
  registered(connection: DtuConnection): void;
  rejected(connection: DtuConnection, reason: string): void;
}

/** Queued output beyond this means the peer is not reading: it is cut off, not buffered for. */
const MAX_WRITE_BACKLOG = 64 * 1024;

/**
 * One TCP connection from a DTU or concentrator in transparent mode. Before registration it only
 * accepts the registration packet (bounded in size and time); afterwards it splits the byte stream
 * into meter frames, counts heartbeats, and is the FrameLink of its collector.
 */
export class DtuConnection implements FrameLink {
  readonly transport = "tcp";
  collectorId = "";
  state: "pending" | "registered" | "closed" = "pending";
  readonly openedAt = Date.now();
  lastSeen = Date.now();
  private registrationBytes: Buffer = Buffer.alloc(0);
  private readonly splitter: FrameSplitter;
  private heartbeats: HeartbeatCounter | undefined;
  private heartbeatReply: Uint8Array | undefined;
  private garbageRun = 0;
  private receiver: ((frame: SplitFrame) => void) | undefined;
  private readonly closeListeners: ((reason: string) => void)[] = [];

  constructor(
    private readonly socket: Socket,
    readonly ip: string,
    private readonly limits: ConnectionLimits,
    private readonly events: ConnectionEvents,
    private readonly counters: Counters,
  ) {
    this.splitter = new FrameSplitter({ protocol: "auto", maxFrameLength: limits.maxFrameLength });
    socket.setNoDelay(true);
    socket.on("data", (chunk: Buffer) => this.onData(chunk));
    socket.on("error", () => {}); // resets and timeouts end in "close", which is what counts
    socket.on("close", () => this.finish("peer closed"));
  }

  get closed(): boolean {
    return this.state === "closed";
  }

  setReceiver(receiver: (frame: SplitFrame) => void): void {
    this.receiver = receiver;
  }

  onClose(listener: (reason: string) => void): void {
    this.closeListeners.push(listener);
  }

  send(bytes: Uint8Array): boolean {
    if (this.state !== "registered") return false;
    if (this.socket.writableLength > MAX_WRITE_BACKLOG) {
      this.close("peer not reading");
      return false;
    }
    this.socket.write(bytes);
    return true;
  }

  close(reason: string): void {
    this.socket.destroy();
    this.finish(reason);
  }

  /** Called by the listener's sweep: returns a reason when the connection must go. */
  check(now: number): string | undefined {
    if (this.state === "pending" && now - this.openedAt > this.limits.registrationTimeoutMs)
      return "registration timeout";
    if (this.state !== "registered") return undefined;
    if (now - this.lastSeen > this.limits.silenceTimeoutMs) return "offline: heartbeats missed";
    // A frame whose bytes stopped coming is noise (RS-485 inter-byte gap); drop it.
    if (this.splitter.pending > 0 && now - this.lastSeen > this.limits.interByteTimeoutMs) {
      const dropped = this.splitter.flush();
      this.counters.garbageBytes += dropped;
      this.garbageRun += dropped;
    }
    return undefined;
  }

  private finish(reason: string): void {
    if (this.state === "closed") return;
    this.state = "closed";
    for (const listener of this.closeListeners.splice(0)) listener(reason);
  }

  private onData(chunk: Buffer): void {
    if (this.state === "closed") return;
    this.lastSeen = Date.now();
    if (this.state === "registered") {
      this.onStream(chunk);
      return;
    }
    this.registrationBytes = Buffer.concat([this.registrationBytes, chunk]);
    const match = matchRegistration(this.limits.registration, this.registrationBytes);
    if (match.status === "invalid") {
      this.events.rejected(this, match.reason);
      return;
    }
    if (match.status === "need-more") {
      if (this.registrationBytes.length > this.limits.maxRegistrationBytes)
        this.events.rejected(this, "registration packet too long");
      return;
    }
    const rest = this.registrationBytes.subarray(match.length);
    this.registrationBytes = Buffer.alloc(0);
    this.collectorId = match.id;
    this.state = "registered";
    this.heartbeats = new HeartbeatCounter(renderPacket(this.limits.heartbeat, match.id));
    if (this.limits.heartbeatReply) this.heartbeatReply = renderPacket(this.limits.heartbeatReply, match.id);
    this.events.registered(this);
    if (rest.length > 0 && this.state === "registered") this.onStream(rest);
  }

  private onStream(chunk: Buffer): void {
    const beats = this.heartbeats?.count(chunk) ?? 0;
    if (beats > 0) {
      this.counters.heartbeats += beats;
      if (this.heartbeatReply) this.socket.write(this.heartbeatReply);
    }
    const skippedBefore = this.splitter.skipped;
    const frames = this.splitter.push(chunk);
    const garbage = Math.max(
      0,
      this.splitter.skipped - skippedBefore - beats * (this.heartbeats?.length ?? 0),
    );
    this.counters.garbageBytes += garbage;
    this.garbageRun = frames.length > 0 || beats > 0 ? garbage : this.garbageRun + garbage;
    if (this.garbageRun > this.limits.maxGarbageBytes) {
      this.close("too much garbage");
      return;
    }
    for (const frame of frames) this.receiver?.(frame);
  }
}

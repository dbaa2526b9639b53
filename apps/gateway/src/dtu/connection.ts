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
  /** A well-formed registration packet arrived: prove it (accept or close) before anything is sent. */
  registered(connection: DtuConnection, secret: string | undefined): void;
  rejected(connection: DtuConnection, reason: string): void;
}

/** Queued output beyond this means the peer is not reading: it is cut off, not buffered for. */
const MAX_WRITE_BACKLOG = 64 * 1024;

/**
 * One TCP connection from a DTU or concentrator in transparent mode. Before registration it only
 * accepts the registration packet (bounded in size and time); while its secret is being checked it
 * sends nothing and keeps what arrives (bounded); once accepted it splits the byte stream into
 * meter frames, counts heartbeats, and is the FrameLink of its collector.
 */
export class DtuConnection implements FrameLink {
  readonly transport = "tcp";
  collectorId = "";
  /** pending: no registration yet; authenticating: registered, its secret not yet checked. */
  state: "pending" | "authenticating" | "registered" | "closed" = "pending";
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
    if (
      (this.state === "pending" || this.state === "authenticating") &&
      now - this.openedAt > this.limits.registrationTimeoutMs
    )
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
    if (this.state === "authenticating") {
      // Only heartbeats can come before the gateway has sent anything: keep a bounded few.
      if (this.registrationBytes.length < this.limits.maxRegistrationBytes)
        this.registrationBytes = Buffer.concat([this.registrationBytes, chunk]).subarray(
          0,
          this.limits.maxRegistrationBytes,
        );
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
    this.registrationBytes = Buffer.from(this.registrationBytes.subarray(match.length));
    this.collectorId = match.id;
    this.state = "authenticating";
    this.events.registered(this, match.secret);
  }

  /** The collector proved who it is: serve it (the gateway calls this before attaching it). */
  accept(): void {
    if (this.state !== "authenticating") return;
    const rest = this.registrationBytes;
    this.registrationBytes = Buffer.alloc(0);
    this.state = "registered";
    this.heartbeats = new HeartbeatCounter(renderPacket(this.limits.heartbeat, this.collectorId));
    if (this.limits.heartbeatReply)
      this.heartbeatReply = renderPacket(this.limits.heartbeatReply, this.collectorId);
    if (rest.length > 0) this.onStream(rest);
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

import type { Socket } from "node:net";
import { FrameSplitter, modbus, qgdw1376, type SplitFrame } from "@meterline/protocols";
import type { FrameLink } from "../bus/link.ts";
import {
  type ConcentratorLogin,
  decodeTerminalFrame,
  matchConcentratorLogin,
} from "../concentrator/login.ts";
import type { Counters } from "../stats.ts";
import { answerLink, type LinkRequest, linkRequestOf, matchLogin } from "./dial-in.ts";
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
  /** Q/GDW 1376.1 frames from a concentrator carry meter frames and file rows: a larger bound. */
  maxConcentratorFrameLength: number;
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
  private splitter: FrameSplitter;
  private heartbeats: HeartbeatCounter | undefined;
  private heartbeatReply: Uint8Array | undefined;
  private garbageRun = 0;
  private receiver: ((frame: SplitFrame) => void) | undefined;
  /** A Modbus-RTU request in flight: its reply is looked for against it (RTU has no start byte). */
  private rtu: modbus.RtuReplySplitter | undefined;
  /** A DL/T 698.45 meter dialling in itself: its login, answered once it is accepted. */
  private login: LinkRequest | undefined;
  /** A Q/GDW 1376.1 concentrator: its login, confirmed once it is accepted. */
  private concentrator: ConcentratorLogin | undefined;
  private silenceTimeoutMs: number;
  private readonly closeListeners: ((reason: string) => void)[] = [];

  constructor(
    private readonly socket: Socket,
    readonly ip: string,
    private readonly limits: ConnectionLimits,
    private readonly events: ConnectionEvents,
    private readonly counters: Counters,
  ) {
    this.splitter = new FrameSplitter({ protocol: "any", maxFrameLength: limits.maxFrameLength });
    this.silenceTimeoutMs = limits.silenceTimeoutMs;
    socket.setNoDelay(true);
    socket.on("data", (chunk: Buffer) => this.onData(chunk));
    socket.on("error", () => {}); // resets and timeouts end in "close", which is what counts
    socket.on("close", () => this.finish("peer closed"));
  }

  get closed(): boolean {
    return this.state === "closed";
  }

  /** "dlt698": a 698.45 meter that dialled in with a LINK login (no DTU registration packet). */
  get dialIn(): "dlt698" | null {
    return this.login ? "dlt698" : null;
  }

  /** The 1376.1 login of a concentrator (its address and password), or undefined for a DTU or meter. */
  get concentratorLogin(): ConcentratorLogin | undefined {
    return this.concentrator;
  }

  setReceiver(receiver: (frame: SplitFrame) => void): void {
    this.receiver = receiver;
  }

  onClose(listener: (reason: string) => void): void {
    this.closeListeners.push(listener);
  }

  send(bytes: Uint8Array, _address?: string, modbusReply?: modbus.PendingReply): boolean {
    if (this.state !== "registered") return false;
    if (this.socket.writableLength > MAX_WRITE_BACKLOG) {
      this.close("peer not reading");
      return false;
    }
    // Each request replaces the last: a late RTU reply after its timeout is no longer looked for.
    this.rtu = undefined;
    if (modbusReply) {
      this.rtu = new modbus.RtuReplySplitter();
      this.rtu.expect(modbusReply);
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
    if (now - this.lastSeen > this.silenceTimeoutMs) return "offline: heartbeats missed";
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
    if (this.concentratorLoggedIn() || this.loggedIn()) return;
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

  /**
   * A 698.45 LINK login as the first packet: the meter's address is its collector id. Waits while
   * the bytes so far could still become one (bounded like a registration packet).
   */
  private loggedIn(): boolean {
    const login = matchLogin(this.registrationBytes, this.limits.maxFrameLength);
    if (login.status === "need-more") {
      if (this.registrationBytes.length > this.limits.maxRegistrationBytes)
        this.events.rejected(this, "registration packet too long");
      return true;
    }
    if (login.status === "none") return false;
    this.registrationBytes = Buffer.from(this.registrationBytes.subarray(login.length));
    this.collectorId = login.address;
    this.login = login.request;
    // The meter announces its heartbeat period: two of them missed mean it is gone.
    this.silenceTimeoutMs = Math.max(this.limits.silenceTimeoutMs, login.request.heartbeatSeconds * 2_000);
    this.state = "authenticating";
    this.events.registered(this, undefined);
    return true;
  }

  /**
   * A Q/GDW 1376.1 login (AFN 02 F1) as the first frame: the concentrator's address names its
   * collector, its password is checked like a DTU's secret. Bounded like a registration packet.
   */
  private concentratorLoggedIn(): boolean {
    const match = matchConcentratorLogin(
      this.registrationBytes,
      Math.min(this.limits.maxConcentratorFrameLength, this.limits.maxRegistrationBytes),
    );
    if (match.status === "need-more") {
      if (this.registrationBytes.length > this.limits.maxRegistrationBytes)
        this.events.rejected(this, "registration packet too long");
      return true;
    }
    if (match.status === "none") return false;
    this.registrationBytes = Buffer.from(this.registrationBytes.subarray(match.length));
    this.collectorId = match.collectorId;
    this.concentrator = match.login;
    this.state = "authenticating";
    this.events.registered(this, match.login.password);
    return true;
  }

  /** The collector proved who it is: serve it (the gateway calls this before attaching it). */
  accept(): void {
    if (this.state !== "authenticating") return;
    const rest = this.registrationBytes;
    this.registrationBytes = Buffer.alloc(0);
    this.state = "registered";
    if (this.concentrator) {
      const { address, seq } = this.concentrator;
      this.splitter = new FrameSplitter({
        protocol: "qgdw1376",
        maxFrameLength: this.limits.maxConcentratorFrameLength,
      });
      this.socket.write(qgdw1376.buildLoginConfirm({ address, seq }));
      if (rest.length > 0) this.onStream(rest);
      return;
    }
    if (this.login) {
      this.socket.write(answerLink(this.collectorId, this.login));
      if (rest.length > 0) this.onStream(rest);
      return;
    }
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
    if (this.rtu) {
      this.onModbusStream(chunk, beats * (this.heartbeats?.length ?? 0));
      return;
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
    for (const frame of frames) {
      if (this.login && frame.protocol === "dlt698" && this.answeredLink(frame.bytes)) continue;
      if (this.concentrator && this.answeredConcentrator(frame.bytes)) continue;
      this.receiver?.(frame);
    }
  }

  /**
   * While a Modbus-RTU request is in flight the bus belongs to it: bytes go to its reply splitter
   * (heartbeats in between are skipped there), and what is not its reply counts as garbage.
   */
  private onModbusStream(chunk: Buffer, heartbeatBytes: number): void {
    const rtu = this.rtu!;
    const skippedBefore = rtu.skipped;
    const reply = rtu.push(chunk);
    const garbage = Math.max(0, rtu.skipped - skippedBefore - heartbeatBytes);
    this.counters.garbageBytes += garbage;
    this.garbageRun = reply ? 0 : this.garbageRun + garbage;
    if (this.garbageRun > this.limits.maxGarbageBytes) {
      this.close("too much garbage");
      return;
    }
    if (!reply) return;
    this.rtu = undefined;
    this.receiver?.({ protocol: "modbus", bytes: reply, offset: 0 });
  }

  /** A dialled-in meter's heartbeat or logout is answered here; it is no reply for the bus. */
  private answeredLink(bytes: Uint8Array): boolean {
    const request = linkRequestOf(bytes, this.limits.maxFrameLength);
    if (!request) return false;
    this.counters.heartbeats++;
    this.socket.write(answerLink(this.collectorId, request));
    if (request.requestType === "logout") this.close("meter logged out");
    return true;
  }

  /**
   * A concentrator's heartbeat, repeated login or logout is confirmed here (AFN 00 F1); a frame
   * that is not a terminal's is dropped. Everything else goes to the concentrator's link.
   */
  private answeredConcentrator(bytes: Uint8Array): boolean {
    const decoded = decodeTerminalFrame(bytes, this.limits.maxConcentratorFrameLength);
    if (!decoded) {
      this.counters.unexpectedFrames++;
      return true;
    }
    const own = this.concentrator!.address;
    if (decoded.address.area !== own.area || decoded.address.terminal !== own.terminal) {
      // Another terminal's frame on this session: it has not logged in here, so nothing answers it.
      this.counters.unexpectedFrames++;
      return true;
    }
    if (decoded.kind !== "heartbeat" && decoded.kind !== "login" && decoded.kind !== "logout") return false;
    this.counters.heartbeats++;
    this.socket.write(qgdw1376.buildConfirm({ address: decoded.address, seq: decoded.seq.seq }));
    if (decoded.kind === "logout") this.close("concentrator logged out");
    return true;
  }
}

import net from "node:net";
import { type PacketFormat, renderPacket } from "@meterline/gateway";
import { FrameSplitter, type SplitFrame, type StreamProtocol } from "@meterline/protocols";
import type { SimClock } from "./clock.ts";
import type { MeterBus } from "./meter-bus.ts";
import { rtuRequestLength } from "./modbus-meter.ts";
import type { Random } from "./random.ts";

export interface DtuSettings {
  host: string;
  port: number;
  registration: PacketFormat;
  heartbeat: PacketFormat;
  heartbeatIntervalMs: number;
  /** Base delay before redialling; doubles per failed attempt up to 30× with jitter. */
  reconnectDelayMs: number;
}

export interface DtuStats {
  connects: number;
  disconnects: number;
  requests: number;
  replies: number;
  /** Requests that arrived while an on-time reply was still pending: the master broke the one-in-flight rule. */
  collisions: number;
}

/**
 * A simulated transparent DTU: dials the gateway, sends its registration packet, keeps a
 * heartbeat when idle, and forwards frames to its RS-485 bus, writing the addressed meter's reply
 * back after the bus's reply delay. Redials after any disconnect until stopped.
 */
export class SimulatedDtu {
  readonly stats: DtuStats = { connects: 0, disconnects: 0, requests: 0, replies: 0, collisions: 0 };
  private socket: net.Socket | undefined;
  private connected = false;
  private stopped = false;
  /** The bus has fallen silent (quiesce): requests get no reply, replies already due still go out. */
  private silent = false;
  private failures = 0;
  /** On-time replies scheduled but not yet written: the bus is busy until they are out. */
  private repliesDue = 0;
  private lastWrite = 0;
  private heartbeatTimer: NodeJS.Timeout | undefined;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    readonly id: string,
    protected readonly bus: MeterBus,
    protected readonly settings: DtuSettings,
    protected readonly clock: SimClock,
    protected readonly random: Random,
    /** What its registration packet carries as {secret}. */
    protected readonly secret = "",
  ) {}

  get online(): boolean {
    return this.connected;
  }

  /** Dial; resolves once connected and registered, or when the attempt failed (a redial follows). */
  connect(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const socket = net.connect({ host: this.settings.host, port: this.settings.port });
      this.socket = socket;
      const splitter = new FrameSplitter({ protocol: this.streamProtocol() });
      socket.setNoDelay(true);
      socket.on("connect", () => {
        this.connected = true;
        this.failures = 0;
        this.stats.connects++;
        this.write(socket, this.greeting());
        this.heartbeatTimer = setInterval(
          () => this.heartbeat(socket),
          Math.max(10, this.settings.heartbeatIntervalMs / 2),
        );
        resolve();
      });
      socket.on("data", (chunk: Buffer) => {
        // Quiesced: the bus hears nothing more (a concentrator's own answers included).
        if (this.silent) return;
        // The gateway writes each request whole and waits for its reply: a chunk that is a whole
        // Modbus-RTU request (no start byte to split on) goes to the bus as one.
        const rtu = splitter.pending === 0 ? rtuRequestLength(chunk) : undefined;
        if (rtu === chunk.length) {
          this.onRequest(socket, { protocol: "modbus", bytes: chunk, offset: 0 });
          return;
        }
        for (const frame of splitter.push(chunk))
          if (!this.isLinkAnswer(frame)) this.onRequest(socket, frame);
      });
      socket.on("error", () => {});
      socket.on("close", () => {
        this.connected = false;
        clearInterval(this.heartbeatTimer);
        if (this.socket === socket) this.scheduleReconnect();
        resolve();
      });
    });
  }

  /** Drop the connection now (fault injection, tests); the DTU redials like a real one. */
  drop(): void {
    this.stats.disconnects++;
    this.socket?.destroy();
  }

  /**
   * Stop answering while staying connected: what was answered is still delivered, nothing new is.
   * A fleet quiesced before it stops leaves no answered reading undelivered (a bench's loss count).
   */
  quiesce(): void {
    this.silent = true;
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.reconnectTimer);
    clearInterval(this.heartbeatTimer);
    this.repliesDue = 0;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.socket?.destroy();
  }

  private scheduleReconnect(): void {
    if (this.stopped) return;
    this.failures++;
    const base = this.settings.reconnectDelayMs * Math.min(30, 2 ** Math.min(this.failures - 1, 5));
    const delay = Math.floor(base * (0.5 + this.random.next()));
    this.reconnectTimer = setTimeout(() => void this.connect(), delay);
  }

  /** The first packet on a new connection: the registration packet. */
  protected greeting(): Uint8Array {
    return renderPacket(this.settings.registration, this.id, this.secret);
  }

  protected heartbeatPacket(): Uint8Array {
    return renderPacket(this.settings.heartbeat, this.id);
  }

  /** How the gateway's bytes are split: meter frames for a transparent DTU. */
  protected streamProtocol(): StreamProtocol {
    return "any";
  }

  /** The gateway's answer to a packet of the link itself (none for a transparent DTU). */
  protected isLinkAnswer(_frame: SplitFrame): boolean {
    return false;
  }

  private heartbeat(socket: net.Socket): void {
    if (Date.now() - this.lastWrite >= this.settings.heartbeatIntervalMs / 2)
      this.write(socket, this.heartbeatPacket());
  }

  /** Send on the current connection, if there is one (reports the device starts itself). */
  protected writeNow(bytes: Uint8Array): boolean {
    const socket = this.socket;
    if (!socket || !this.connected) return false;
    this.write(socket, bytes);
    return true;
  }

  protected write(socket: net.Socket, bytes: Uint8Array): void {
    if (socket.destroyed || this.socket !== socket) return;
    this.lastWrite = Date.now();
    socket.write(bytes);
  }

  protected onRequest(socket: net.Socket, frame: SplitFrame): void {
    this.stats.requests++;
    if (this.repliesDue > 0) this.stats.collisions++;
    const result = this.bus.handle(frame, this.clock.now());
    if (result.disconnect) {
      this.drop();
      return;
    }
    for (const reply of result.replies) {
      if (reply.holdsBus) this.repliesDue++;
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        if (reply.holdsBus) this.repliesDue--;
        this.stats.replies++;
        this.write(socket, reply.bytes);
      }, reply.delayMs);
      this.timers.add(timer);
    }
  }
}

import net from "node:net";
import { modbus, type SplitFrame } from "@meterline/protocols";
import type { FrameLink } from "../bus/link.ts";
import type { Counters } from "../stats.ts";

/** Queued output beyond this means the meter is not reading: the link is dropped, not buffered for. */
const MAX_WRITE_BACKLOG = 64 * 1024;

/**
 * The FrameLink of a Modbus TCP endpoint the gateway connects out to (a meter with its own
 * Ethernet port, or a Modbus TCP gateway in front of several units): MBAP frames split on their
 * length field, matched to requests by transaction id and unit (protocol/modbus-requests.ts).
 */
export class ModbusTcpLink implements FrameLink {
  readonly transport = "modbus-tcp";
  private receiver: ((frame: SplitFrame) => void) | undefined;
  private readonly closeListeners: ((reason: string) => void)[] = [];
  private readonly splitter = new modbus.TcpFrameSplitter();
  private socket: net.Socket | undefined;
  closed = false;

  constructor(
    readonly collectorId: string,
    private readonly endpoint: { host: string; port: number },
    private readonly counters: Counters,
  ) {}

  /** Resolves true once connected, false when the endpoint could not be reached within `timeoutMs`. */
  connect(timeoutMs: number): Promise<boolean> {
    return new Promise((resolve) => {
      const socket = net.connect(this.endpoint);
      this.socket = socket;
      const timer = setTimeout(() => this.close("connect timeout"), timeoutMs);
      socket.setNoDelay(true);
      socket.once("connect", () => {
        clearTimeout(timer);
        resolve(true);
      });
      socket.on("data", (chunk: Buffer) => this.onData(chunk));
      socket.on("error", () => {}); // every failure ends in "close"
      socket.on("close", () => {
        clearTimeout(timer);
        this.finish("connection closed");
        resolve(false);
      });
    });
  }

  private onData(chunk: Buffer): void {
    const skipped = this.splitter.skipped;
    for (const bytes of this.splitter.push(chunk)) this.receiver?.({ protocol: "modbus", bytes, offset: 0 });
    this.counters.garbageBytes += this.splitter.skipped - skipped;
  }

  send(bytes: Uint8Array): boolean {
    const socket = this.socket;
    if (this.closed || !socket) return false;
    if (socket.writableLength > MAX_WRITE_BACKLOG) {
      this.close("peer not reading");
      return false;
    }
    socket.write(bytes);
    return true;
  }

  setReceiver(receiver: (frame: SplitFrame) => void): void {
    this.receiver = receiver;
  }

  onClose(listener: (reason: string) => void): void {
    this.closeListeners.push(listener);
  }

  close(reason: string): void {
    this.socket?.destroy();
    this.finish(reason);
  }

  private finish(reason: string): void {
    if (this.closed) return;
    this.closed = true;
    for (const listener of this.closeListeners.splice(0)) listener(reason);
  }
}

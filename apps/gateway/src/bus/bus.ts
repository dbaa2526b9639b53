import type { modbus, SplitFrame } from "@meterline/protocols";
import type { Counters } from "../stats.ts";
import type { FrameLink } from "./link.ts";

/** A request ready for the wire and the test that recognises its reply (and decodes it). */
export interface PreparedRequest<T> {
  bytes: Uint8Array;
  address: string;
  /** Modbus-RTU: what its reply looks like, so the link can find it in the byte stream. */
  modbusReply?: modbus.PendingReply;
  /** The decoded reply when `frame` answers this request, else undefined. */
  accept(frame: SplitFrame): T | undefined;
}

export type Exchange<T> =
  | { outcome: "reply"; reply: T; frame: Uint8Array }
  | { outcome: "timeout" }
  | { outcome: "closed" };

/**
 * One RS-485 bus (or one 4G meter): strictly one request in flight. Frames that answer nothing
 * in flight — a late reply after its timeout, a duplicate, noise that looked like a frame — are
 * counted and dropped; the request/reply match (address, function, DI, SER) keeps them from being
 * taken for the answer to the next request.
 */
export class Bus {
  private pending:
    | {
        accept: (frame: SplitFrame) => unknown;
        /** `counted`: a timeout the link reported, counted and quieted like one of ours. */
        finish: (exchange: Exchange<unknown>, counted?: boolean) => void;
      }
    | undefined;

  private quietUntil = 0;

  constructor(
    readonly link: FrameLink,
    private readonly counters: Counters,
    private readonly quietAfterTimeoutMs = 0,
  ) {
    link.setReceiver((frame) => this.receive(frame));
    link.setNoAnswer?.(() => this.pending?.finish({ outcome: "timeout" }, true));
    link.onClose(() => this.pending?.finish({ outcome: "closed" }));
  }

  get busy(): boolean {
    return this.pending !== undefined;
  }

  async exchange<T>(request: PreparedRequest<T>, timeoutMs: number): Promise<Exchange<T>> {
    if (this.pending) throw new Error("bus already has a request in flight");
    const quiet = this.quietUntil - Date.now();
    if (quiet > 0) await new Promise((resolve) => setTimeout(resolve, quiet));
    if (this.link.closed) return { outcome: "closed" };
    return new Promise<Exchange<T>>((resolve) => {
      const timer = setTimeout(() => finish({ outcome: "timeout" }, true), timeoutMs);
      const finish = (exchange: Exchange<unknown>, counted = false) => {
        if (this.pending?.finish !== finish) return;
        if (counted) {
          this.counters.timeouts++;
          this.quietUntil = Date.now() + this.quietAfterTimeoutMs;
        }
        clearTimeout(timer);
        this.pending = undefined;
        resolve(exchange as Exchange<T>);
      };
      this.pending = { accept: request.accept, finish };
      this.counters.requests++;
      if (!this.link.send(request.bytes, request.address, request.modbusReply)) finish({ outcome: "closed" });
    });
  }

  /**
   * A frame no meter answers (DL/T 645 broadcast time), sent when the bus is free; resolves once
   * the bus has been left quiet for `settleMs`, so meters have taken it before the next request.
   */
  async announce(bytes: Uint8Array, address: string, settleMs: number): Promise<boolean> {
    if (this.pending) throw new Error("bus already has a request in flight");
    const quiet = this.quietUntil - Date.now();
    if (quiet > 0) await new Promise((resolve) => setTimeout(resolve, quiet));
    if (this.link.closed || !this.link.send(bytes, address)) return false;
    await new Promise((resolve) => setTimeout(resolve, settleMs));
    return true;
  }

  private receive(frame: SplitFrame): void {
    const pending = this.pending;
    const reply = pending?.accept(frame);
    if (pending && reply !== undefined) {
      this.counters.replies++;
      pending.finish({ outcome: "reply", reply, frame: frame.bytes });
      return;
    }
    this.counters.unexpectedFrames++;
  }
}

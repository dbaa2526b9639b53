import type net from "node:net";
import {
  dlt645,
  dlt698,
  isProtocolError,
  parseHex,
  qgdw1376,
  type SplitFrame,
  type StreamProtocol,
  splitFrames,
} from "@meterline/protocols";
import type { SimClock } from "./clock.ts";
import { type DtuSettings, SimulatedDtu } from "./dtu.ts";
import { ElectricMeter } from "./electric-meter.ts";
import type { MeterBus } from "./meter-bus.ts";
import type { Random } from "./random.ts";

/** The carrier between the concentrator and its meters: slow, and now and then losing a frame. */
export interface CarrierSettings {
  /** Each crossing (request out, answer back) takes between these, drawn from the seeded source. */
  minDelayMs: number;
  maxDelayMs: number;
  /** Share of forwarded frames lost on the carrier: half before the meter acts, half on the way back. */
  dropRate: number;
}

export const DEFAULT_CARRIER: CarrierSettings = { minDelayMs: 300, maxDelayMs: 2_000, dropRate: 0 };

export interface ConcentratorOptions extends Partial<CarrierSettings> {
  /**
   * How often the concentrator looks at its filed meters for events to report on its own (AFN 0E):
   * a cover opened (ERC 37), a relay that changed state (ERC 33). 0 = never.
   */
  eventScanMs?: number;
}

/** Wall clock of the simulated meters' zone (Asia/Shanghai). */
const LOCAL_OFFSET_MS = 8 * 3_600_000;

export interface ConcentratorStats {
  forwards: number;
  /** Forwards whose meter is not on the file: answered empty, as a concentrator cannot route them. */
  unfiled: number;
  carrierDrops: number;
  /** Requests refused for a wrong password (AFN 00 F2). */
  denied: number;
  confirmsReceived: number;
  /** Confirms with link function 0 (认可): the answer to an event report, not to a link test. */
  reportConfirmsReceived: number;
  /** Event records reported to the gateway on the concentrator's own initiative. */
  eventsReported: number;
}

/**
 * A simulated Q/GDW 1376.1 concentrator: dials the gateway, logs in (AFN 02 F1 with its password),
 * heartbeats while idle, keeps the meter file it is given (AFN 04 F10, read back by AFN 0A F10) and
 * forwards frames (AFN 10 F1) over a carrier to the DL/T 645 and 698.45 meters on file, one request
 * at a time, as real concentrators do. Writes and forwards need its password in PW.
 */
export class SimulatedConcentrator extends SimulatedDtu {
  readonly carrier: CarrierSettings;
  readonly concentratorStats: ConcentratorStats = {
    forwards: 0,
    unfiled: 0,
    carrierDrops: 0,
    denied: 0,
    confirmsReceived: 0,
    reportConfirmsReceived: 0,
    eventsReported: 0,
  };
  /** The meter file by row index. */
  readonly file = new Map<number, qgdw1376.MeterFileEntry>();
  private readonly terminal: qgdw1376.Qgdw1376Address;
  private pseq = 0;
  private work: Promise<void> = Promise.resolve();
  private readonly sleeps = new Set<NodeJS.Timeout>();
  private halted = false;
  private readonly seen = new Map<string, { cover: number; relayOpen: boolean }>();
  private scanner: NodeJS.Timeout | undefined;
  private eventCount = 0;

  constructor(
    id: string,
    address: { area: string; terminal: number },
    bus: MeterBus,
    settings: DtuSettings,
    clock: SimClock,
    random: Random,
    /** 32 hex digits: sent in the login, expected in PW. */
    password: string,
    options: ConcentratorOptions = {},
  ) {
    super(id, bus, settings, clock, random, password.toUpperCase());
    this.terminal = { ...address, master: 0, group: false };
    const { eventScanMs = 0, ...carrier } = options;
    this.carrier = { ...DEFAULT_CARRIER, ...carrier };
    if (eventScanMs > 0) this.scanner = setInterval(() => this.scanEvents(), eventScanMs);
  }

  /** Addresses on the meter file, in row order. */
  filedAddresses(): string[] {
    return [...this.file.values()].sort((a, b) => a.index - b.index).map((row) => row.address);
  }

  override stop(): void {
    this.halted = true;
    clearInterval(this.scanner);
    for (const timer of this.sleeps) clearTimeout(timer);
    this.sleeps.clear();
    super.stop();
  }

  /**
   * Compare each filed meter with what was last seen and report what changed: one AFN 0E F1 frame
   * with an ERC 37 record per cover opening and an ERC 33 record per relay change, each opening
   * with its time and measurement point; the meter's own fields after that are left out.
   */
  private scanEvents(): void {
    if (!this.online) return;
    const records: qgdw1376.EventInput[] = [];
    const local = new Date(this.clock.now() + LOCAL_OFFSET_MS);
    const at = {
      year: local.getUTCFullYear(),
      month: local.getUTCMonth() + 1,
      day: local.getUTCDate(),
      hour: local.getUTCHours(),
      minute: local.getUTCMinutes(),
    };
    for (const row of this.file.values()) {
      const meter = this.bus.find(row.address);
      if (!(meter instanceof ElectricMeter)) continue;
      const now = { cover: meter.coverOpenCount, relayOpen: meter.relayOpen };
      const before = this.seen.get(row.address);
      this.seen.set(row.address, now);
      if (!before) continue;
      if (now.cover > before.cover)
        records.push({ erc: 37, data: qgdw1376.encodeEventPoint(at, row.pn, true) });
      if (now.relayOpen !== before.relayOpen)
        records.push({ erc: 33, data: qgdw1376.encodeEventPoint(at, row.pn, true) });
    }
    if (records.length === 0) return;
    const from = this.eventCount & 0xff;
    this.eventCount += records.length;
    const data = qgdw1376.encodeEvents(
      { important: this.eventCount & 0xff, normal: 0 },
      from,
      this.eventCount & 0xff,
      records,
    );
    if (this.writeNow(qgdw1376.buildEventReport(this.terminal, true, data, { seq: this.nextSeq() })))
      this.concentratorStats.eventsReported += records.length;
  }

  private nextSeq(): number {
    this.pseq = (this.pseq + 1) & 0x0f;
    return this.pseq;
  }

  protected override greeting(): Uint8Array {
    return qgdw1376.buildLogin(this.terminal, { seq: this.nextSeq(), password: this.secret });
  }

  protected override heartbeatPacket(): Uint8Array {
    return qgdw1376.buildHeartbeat(this.terminal, { seq: this.nextSeq() });
  }

  protected override streamProtocol(): StreamProtocol {
    return "qgdw1376";
  }

  protected override isLinkAnswer(frame: SplitFrame): boolean {
    const decoded = decodeDown(frame.bytes);
    if (decoded?.afn !== 0x00) return false;
    this.concentratorStats.confirmsReceived++;
    if (decoded.control.function === 0) this.concentratorStats.reportConfirmsReceived++;
    return true;
  }

  /** Requests are served one after the other, however fast they come. */
  protected override onRequest(socket: net.Socket, frame: SplitFrame): void {
    this.stats.requests++;
    this.work = this.work.then(() => this.serve(socket, frame)).catch(() => undefined);
  }

  private async serve(socket: net.Socket, frame: SplitFrame): Promise<void> {
    const request = decodeDown(frame.bytes);
    if (!request || this.halted) return;
    const { area, terminal } = request.address;
    if (area !== this.terminal.area || terminal !== this.terminal.terminal) return;
    const to = { ...this.terminal, master: request.address.master };
    const seq = request.seq.seq;
    const answer = (bytes: Uint8Array) => {
      this.stats.replies++;
      this.write(socket, bytes);
    };
    if (qgdw1376.PW_AFNS.has(request.afn) && request.aux.pw?.toUpperCase() !== this.secret) {
      this.concentratorStats.denied++;
      answer(qgdw1376.buildTerminalConfirm(to, false, { seq }));
      return;
    }
    const unit = request.units[0]?.value;
    if (request.afn === 0x04 && unit?.type === "meter-file") {
      for (const row of unit.meters) {
        if (row.pn === 0) this.file.delete(row.index);
        else this.file.set(row.index, row);
      }
      answer(qgdw1376.buildTerminalConfirm(to, true, { seq }));
      return;
    }
    if (request.afn === 0x0a && unit?.type === "meter-file-query") {
      const rows = unit.indexes.flatMap((index) => {
        const row = this.file.get(index);
        return row ? [row] : [];
      });
      answer(
        qgdw1376.buildResponse(to, 0x0a, [{ pn: 0, fn: 10, data: qgdw1376.encodeMeterFile(rows) }], { seq }),
      );
      return;
    }
    if (request.afn === 0x10 && unit?.type === "forward-request") {
      const reply = await this.forward(unit);
      if (reply && !this.halted) answer(qgdw1376.buildForwardReply(to, unit.port, reply, { seq }));
      return;
    }
    answer(qgdw1376.buildTerminalConfirm(to, false, { seq }));
  }

  /**
   * The meter's answer to a forwarded frame, or an empty frame when it gave none within the frame
   * timeout; undefined when the concentrator's own answer is lost on the carrier.
   */
  private async forward(request: qgdw1376.ForwardRequest): Promise<Uint8Array | undefined> {
    this.concentratorStats.forwards++;
    const bytes = parseHex(request.frame);
    const maxFrameLength = Math.max(12, bytes.length);
    const [meterFrame] = splitFrames(bytes, { protocol: "any", maxFrameLength }).frames;
    const target = meterFrame && addressOf(meterFrame);
    const filed = [...this.file.values()].some((row) => row.address === target && row.port === request.port);
    const silence = async () => {
      await this.sleep(Math.min(request.frameTimeoutMs, 10_000));
      return new Uint8Array(0);
    };
    if (!meterFrame || !filed) {
      this.concentratorStats.unfiled++;
      return silence();
    }
    await this.sleep(this.crossing());
    if (this.lost()) return silence();
    const result = this.bus.handle(meterFrame, this.clock.now());
    if (result.disconnect) {
      this.drop();
      return undefined;
    }
    const answer = result.replies.find((reply) => reply.holdsBus);
    if (!answer) return silence();
    await this.sleep(answer.delayMs + this.crossing());
    if (this.lost()) return silence();
    return answer.bytes;
  }

  private crossing(): number {
    const { minDelayMs, maxDelayMs } = this.carrier;
    return minDelayMs + Math.floor(this.random.next() * Math.max(0, maxDelayMs - minDelayMs));
  }

  private lost(): boolean {
    const lost = this.random.chance(this.carrier.dropRate / 2);
    if (lost) this.concentratorStats.carrierDrops++;
    return lost;
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.sleeps.delete(timer);
        resolve();
      }, ms);
      this.sleeps.add(timer);
    });
  }
}

function decodeDown(bytes: Uint8Array): qgdw1376.Qgdw1376Decoded | undefined {
  try {
    return qgdw1376.decodeDown(qgdw1376.parseFrame(bytes));
  } catch (error) {
    if (isProtocolError(error)) return undefined;
    throw error;
  }
}

/** The address a forwarded meter frame is for. */
function addressOf(frame: SplitFrame): string | undefined {
  try {
    if (frame.protocol === "dlt645") return dlt645.parseFrame(frame.bytes).address;
    if (frame.protocol === "dlt698") {
      const server = dlt698.parseFrame(frame.bytes, { maxFrameLength: frame.bytes.length }).server;
      return server.type === "single" ? server.address : undefined;
    }
  } catch (error) {
    if (!isProtocolError(error)) throw error;
  }
  return undefined;
}

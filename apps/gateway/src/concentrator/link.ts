import { parseHex, qgdw1376, type SplitFrame, splitFrames } from "@meterline/protocols";
import type { FrameLink } from "../bus/link.ts";
import type { GatewaySettings } from "../config.ts";
import type { DtuConnection } from "../dtu/connection.ts";
import type { MeterInfo } from "../model.ts";
import type { Logger } from "../ports.ts";
import type { Counters } from "../stats.ts";
import { type ConcentratorLogin, decodeTerminalFrame } from "./login.ts";
import { type FileRow, planMeterFile, rowsOf } from "./meter-file.ts";

type Decoded = qgdw1376.Qgdw1376Decoded;

/**
 * Meter events whose records open with their time and measurement point (qgdw1376 events.ts): run
 * status word changed (relay, battery…) and cover opened. Other events are logged only.
 */
const METER_EVENTS = new Set([33, 37]);

/** Rows per meter-file write or query: 10 rows keep each frame near 300 bytes. */
const FILE_PAGE = 10;
/** DL/T 698.45 meters talk 9600 bps 8E1 by default; DL/T 645 ones 2400 (1200 for 1997). */
const DLT698_SERIAL: qgdw1376.SerialSettings = { baud: 9600, parity: "even", dataBits: 8, stopBits: 1 };
const DLT645_1997_SERIAL: qgdw1376.SerialSettings = { ...qgdw1376.DLT645_SERIAL, baud: 1200 };

export interface ConcentratorLinkDeps {
  settings: GatewaySettings;
  counters: Counters;
  logger: Logger;
  /** The file as it stands after each sync, for the operators' view of the concentrator. */
  onFile?(collectorId: string, rows: readonly FileRow[]): void;
}

interface PendingRequest {
  afn: number;
  resolve(reply: Decoded | undefined): void;
}

/**
 * The link to the meters behind a Q/GDW 1376.1 concentrator. To the bus above it looks like a
 * DTU's: it takes the same DL/T 645 and 698.45 frames and hands back the meters' answers, so polls,
 * commands and their read-backs are the same as for a meter on a DTU. Underneath, each frame is
 * forwarded by AFN 10 F1 to the port the meter hangs on, with the concentrator's password as PW,
 * and the answer is taken out of the concentrator's reply. The link also keeps the concentrator's
 * meter file in step with the registry (AFN 0A / 04 F10), in exchanges of its own.
 */
export class ConcentratorLink implements FrameLink {
  readonly transport = "tcp";
  readonly kind = "concentrator";
  private readonly target: qgdw1376.TerminalTarget;
  private readonly meters = new Map<string, MeterInfo>();
  private receiver: ((frame: SplitFrame) => void) | undefined;
  private noAnswer: (() => void) | undefined;
  private meterEvents: ((meterIds: string[]) => void) | undefined;
  /** PSEQ of the latest forward: only its empty reply ends the bus's wait. */
  private lastForward: number | undefined;
  private readonly pending = new Map<number, PendingRequest>();
  private pseq = 0;
  /** The file as the concentrator holds it (read at login, then kept by our confirmed writes). */
  private file: FileRow[] | undefined;
  private syncing: Promise<void> | undefined;
  private resyncWanted = false;
  /** Forwards held while the file is written: the concentrator reaches only meters it has on file. */
  private held: { bytes: Uint8Array; address: string; at: number }[] = [];
  /** Settles once the first meter-file sync has ended (tests and logs). */
  fileSynced: Promise<void> = Promise.resolve();
  fileWrites = 0;

  constructor(
    private readonly connection: DtuConnection,
    private readonly login: ConcentratorLogin,
    private readonly deps: ConcentratorLinkDeps,
  ) {
    this.target = { area: login.address.area, terminal: login.address.terminal };
    connection.setReceiver((frame) => this.receive(frame));
    connection.onClose(() => {
      for (const request of this.pending.values()) request.resolve(undefined);
      this.pending.clear();
      this.held = [];
    });
  }

  get collectorId(): string {
    return this.connection.collectorId;
  }

  get closed(): boolean {
    return this.connection.closed;
  }

  onClose(listener: (reason: string) => void): void {
    this.connection.onClose(listener);
  }

  close(reason: string): void {
    this.connection.close(reason);
  }

  setReceiver(receiver: (frame: SplitFrame) => void): void {
    this.receiver = receiver;
  }

  setNoAnswer(listener: () => void): void {
    this.noAnswer = listener;
  }

  onMeterEvents(listener: (meterIds: string[]) => void): void {
    this.meterEvents = listener;
  }

  /** The registry's meters behind the concentrator: its meter file follows them. */
  setMeters(meters: readonly MeterInfo[]): void {
    this.meters.clear();
    for (const meter of meters) this.meters.set(meter.address, meter);
    if (this.syncing) {
      this.resyncWanted = true;
      return;
    }
    this.syncing = this.syncFile();
    this.fileSynced = this.syncing;
  }

  /** Forward a meter frame to the meter with this address; false when the link is closed or the meter unknown. */
  send(bytes: Uint8Array, address: string): boolean {
    if (this.connection.closed) return false;
    if (this.syncing) {
      this.held.push({ bytes, address, at: Date.now() });
      return true;
    }
    const meter = this.meters.get(address);
    // A broadcast (DL/T 645 time) has no port to go to: the concentrator sets its meters' clocks itself.
    if (!meter) return false;
    const { concentratorMeterTimeoutMs } = this.deps.settings;
    const seq = this.nextSeq();
    this.lastForward = seq;
    const frame = qgdw1376.buildForward(
      this.target,
      {
        port: meter.channel,
        frame: bytes,
        serial: serialOf(meter),
        frameTimeoutMs: concentratorMeterTimeoutMs,
      },
      { seq, pw: this.login.password },
    );
    return this.connection.send(frame);
  }

  private nextSeq(): number {
    this.pseq = (this.pseq + 1) & 0x0f;
    return this.pseq;
  }

  private receive(frame: SplitFrame): void {
    const decoded = decodeTerminalFrame(frame.bytes, this.deps.settings.maxConcentratorFrameLength);
    if (!decoded) {
      this.deps.counters.unexpectedFrames++;
      return;
    }
    if (decoded.afn === 0x10) {
      this.forwarded(decoded);
      return;
    }
    if (decoded.afn === 0x0e && decoded.control.primary) {
      this.reported(decoded);
      return;
    }
    const request = this.pending.get(decoded.seq.seq);
    if (request && (decoded.afn === request.afn || decoded.afn === 0x00)) {
      this.pending.delete(decoded.seq.seq);
      request.resolve(decoded);
      return;
    }
    if (decoded.kind === "deny" && decoded.seq.seq === this.lastForward) {
      // The concentrator refused to forward (password, busy port): the meter never saw the frame.
      this.lastForward = undefined;
      this.deps.logger.log("warn", "concentrator denied a forward", { collector: this.collectorId });
      this.noAnswer?.();
      return;
    }
    // A report we did not ask for, a late answer: nothing waits for it here.
    this.deps.counters.unexpectedFrames++;
  }

  /**
   * The meter's answer inside an AFN 10 F1 reply goes to the bus. An empty one says the meter was
   * silent: for the latest forward the bus stops waiting (the command then reads the meter back as
   * after any timeout); for an older one it is only counted.
   */
  private forwarded(decoded: Decoded): void {
    for (const unit of decoded.units) {
      if (unit.value.type !== "forward-reply") continue;
      if (unit.value.frame === "") {
        if (decoded.seq.seq === this.lastForward) {
          this.lastForward = undefined;
          this.noAnswer?.();
        } else this.deps.counters.unexpectedFrames++;
        continue;
      }
      const bytes = parseHex(unit.value.frame);
      // Bounded by the concentrator's frame it came in; the splitter wants at least 12.
      const maxFrameLength = Math.max(12, bytes.length);
      const { frames } = splitFrames(bytes, { protocol: "any", maxFrameLength });
      for (const meterFrame of frames) this.receiver?.(meterFrame);
    }
  }

  /**
   * Events the concentrator reported on its own: confirmed when it asks (CON), logged, and the
   * meters they name (by measurement point, from the file) are polled at once, cover count and
   * clock included, so cover openings and relay changes reach the readings and alarms as a
   * meter's own status words do. A meter event naming no point on file polls every meter behind it.
   */
  private reported(decoded: Decoded): void {
    if (decoded.seq.con)
      this.connection.send(qgdw1376.buildReportConfirm({ address: decoded.address, seq: decoded.seq.seq }));
    const records = decoded.units.flatMap((unit) => (unit.value.type === "events" ? unit.value.records : []));
    if (records.length === 0) return;
    const byPn = new Map((this.file ?? []).map((row) => [row.pn, row.address]));
    const meterIds = new Set<string>();
    let unplaced = false;
    for (const record of records) {
      const meterEvent = METER_EVENTS.has(record.erc);
      const point = meterEvent ? qgdw1376.decodeEventPoint(parseHex(record.data)) : null;
      const meter = point ? this.meters.get(byPn.get(point.pn) ?? "") : undefined;
      if (meter) meterIds.add(meter.id);
      else if (meterEvent) unplaced = true;
      this.deps.logger.log("info", "concentrator reported an event", {
        collector: this.collectorId,
        event: record.name,
        erc: record.erc,
        meter: meter?.address,
        start: point?.start,
      });
    }
    if (unplaced) for (const meter of this.meters.values()) meterIds.add(meter.id);
    this.meterEvents?.([...meterIds]);
  }

  /** One 1376.1 request of the link itself, answered by the same AFN (or AFN 00) and PSEQ. */
  private exchange(build: (seq: number) => Uint8Array, afn: number): Promise<Decoded | undefined> {
    if (this.connection.closed) return Promise.resolve(undefined);
    const seq = this.nextSeq();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        if (this.pending.get(seq) === request) this.pending.delete(seq);
        this.deps.counters.timeouts++;
        resolve(undefined);
      }, this.deps.settings.concentratorRequestTimeoutMs);
      const request: PendingRequest = {
        afn,
        resolve: (reply) => {
          clearTimeout(timer);
          resolve(reply);
        },
      };
      this.pending.get(seq)?.resolve(undefined);
      this.pending.set(seq, request);
      if (!this.connection.send(build(seq))) request.resolve(undefined);
    });
  }

  /** Read the file, then write what differs from the registry; repeated while the meters keep changing. */
  private async syncFile(): Promise<void> {
    try {
      do {
        this.resyncWanted = false;
        this.file ??= await this.readFile();
        await this.writeFile(this.file);
      } while (this.resyncWanted && !this.connection.closed);
      if (this.file && !this.connection.closed) this.deps.onFile?.(this.collectorId, this.file);
    } catch (error) {
      this.deps.logger.log("error", "meter file sync failed", {
        collector: this.collectorId,
        error: String(error),
      });
    } finally {
      this.syncing = undefined;
      const held = this.held;
      this.held = [];
      // A frame held so long that the meter's answer could not come back before the bus gives up
      // is dropped, never sent late: the bus times out and a write is settled by reading back.
      const { concentratorRequestTimeoutMs, concentratorMeterTimeoutMs } = this.deps.settings;
      const latest = Date.now() - (concentratorRequestTimeoutMs - concentratorMeterTimeoutMs);
      for (const { bytes, address, at } of held) if (at > latest) this.send(bytes, address);
    }
  }

  /** The rows in use, page by page, until a page holds none (bounded by the 2040 rows a file can hold). */
  private async readFile(): Promise<FileRow[]> {
    const rows: FileRow[] = [];
    for (let first = 1; first <= 2040; first += FILE_PAGE) {
      const indexes = Array.from({ length: Math.min(FILE_PAGE, 2041 - first) }, (_, i) => first + i);
      const reply = await this.exchange(
        (seq) => qgdw1376.buildQueryMeterFile(this.target, indexes, { seq }),
        0x0a,
      );
      const value = reply?.units.find((unit) => unit.fn === 10)?.value;
      if (value?.type !== "meter-file") {
        if (!reply)
          this.deps.logger.log("warn", "meter file query unanswered", { collector: this.collectorId });
        break;
      }
      const page = rowsOf(value.meters).filter((row) => indexes.includes(row.index));
      if (page.length === 0) break;
      rows.push(...page);
    }
    return rows;
  }

  /** Write the differences page by page; the file changes here only as far as the concentrator confirms. */
  private async writeFile(current: FileRow[]): Promise<void> {
    const plan = planMeterFile(current, [...this.meters.values()]);
    if (plan.skipped.length)
      this.deps.logger.log("warn", "meters not put on the concentrator's file", {
        collector: this.collectorId,
        meters: plan.skipped,
      });
    let file = current;
    for (let at = 0; at < plan.writes.length; at += FILE_PAGE) {
      const page = plan.writes.slice(at, at + FILE_PAGE);
      const reply = await this.exchange(
        (seq) => qgdw1376.buildWriteMeterFile(this.target, page, { seq, pw: this.login.password }),
        0x04,
      );
      if (reply?.kind !== "confirm") {
        this.deps.logger.log("warn", "meter file write not confirmed", {
          collector: this.collectorId,
          reply: reply?.kind ?? "none",
        });
        this.file = file;
        // Asked again with the next change of meters, or at the next login.
        return;
      }
      this.fileWrites += page.length;
      const written = new Map(page.map((row) => [row.index, row]));
      file = [
        ...file.filter((row) => !written.has(row.index)),
        ...page
          .filter((row) => row.pn !== 0)
          .map((row) => ({
            index: row.index,
            pn: row.pn,
            address: row.address,
            protocol: row.protocol,
            port: row.port,
            baud: row.baud ?? null,
          })),
      ].sort((a, b) => a.index - b.index);
    }
    this.file = file;
  }
}

function serialOf(meter: MeterInfo): qgdw1376.SerialSettings {
  if (meter.protocol === "dlt698") return DLT698_SERIAL;
  if (meter.protocol === "dlt645-1997") return DLT645_1997_SERIAL;
  return qgdw1376.DLT645_SERIAL;
}

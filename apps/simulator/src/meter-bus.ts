import { cjt188, dlt645, dlt698, isProtocolError, modbus, type SplitFrame } from "@meterline/protocols";
import { answerDlt698 } from "./dlt698-protocol.ts";
import { ElectricMeter } from "./electric-meter.ts";
import { answerElectric } from "./electric-protocol.ts";
import type { Fault, FaultPlan } from "./faults.ts";
import type { ModbusMeter } from "./modbus-meter.ts";
import { answerWater, type WaterMeter } from "./water-meter.ts";

export type SimMeter = ElectricMeter | WaterMeter;

export interface BusMeter {
  meter: SimMeter;
  faults: FaultPlan;
}

/** A Modbus meter on the bus (slave addresses are not meter addresses: kept apart from SimMeter). */
export interface ModbusBusMeter {
  meter: ModbusMeter;
  faults: FaultPlan;
}

export interface Transmission {
  bytes: Uint8Array;
  delayMs: number;
  /** The master waits for this one: the bus is busy until it is sent (late and duplicate copies are not). */
  holdsBus: boolean;
}

export interface BusResult {
  replies: Transmission[];
  /** The DTU must drop its connection now (fault "disconnect"). */
  disconnect: boolean;
}

export interface BusTiming {
  replyDelayMs: number;
  lateReplyMs: number;
}

/**
 * One RS-485 bus: every meter hears each request, the addressed one acts and answers (AA wildcards
 * and the DL/T 645 broadcast included), with the faults its plan draws for that request.
 */
export class MeterBus {
  constructor(
    private readonly meters: readonly BusMeter[],
    private readonly timing: BusTiming,
    private readonly modbusMeters: readonly ModbusBusMeter[] = [],
  ) {}

  /** The meter with this address on the bus (a concentrator watching its meters for events). */
  find(address: string): SimMeter | undefined {
    return this.meters.find((entry) => entry.meter.address === address)?.meter;
  }

  handle(frame: SplitFrame, now: number): BusResult {
    const result: BusResult = { replies: [], disconnect: false };
    try {
      if (frame.protocol === "modbus") this.modbus(frame.bytes, now, result);
      else if (frame.protocol === "dlt645") this.dlt645(frame.bytes, now, result);
      else if (frame.protocol === "dlt698") this.dlt698(frame.bytes, now, result);
      else this.cjt188(frame.bytes, now, result);
    } catch (error) {
      // A garbled request is what a real meter ignores.
      if (!isProtocolError(error)) throw error;
    }
    return result;
  }

  private dlt645(bytes: Uint8Array, now: number, result: BusResult): void {
    const frame = dlt645.parseFrame(bytes);
    if (frame.control & 0x80) return;
    const broadcast = frame.address === dlt645.BROADCAST_ADDRESS;
    for (const entry of this.meters) {
      const meter = entry.meter;
      if (!(meter instanceof ElectricMeter) || meter.speaks698) continue;
      if (!broadcast && !dlt645.addressMatches(frame.address, meter.address)) continue;
      const decoded = dlt645.decodeRequest(frame, { version: meter.config.version });
      if (broadcast) {
        answerElectric(meter, decoded, now);
        continue;
      }
      this.respond(
        entry,
        result,
        () => answerElectric(meter, decoded, now),
        () =>
          dlt645.buildErrorReply(meter.address, decoded.control.function, ["other"], {
            version: meter.config.version,
          }),
      );
    }
  }

  /**
   * DL/T 698.45: a meter's own single address is answered; the broadcast address (broadcast time)
   * is acted on by every 698.45 meter and answered by none. No wildcard or group addresses yet.
   */
  private dlt698(bytes: Uint8Array, now: number, result: BusResult): void {
    const frame = dlt698.parseFrame(bytes, { maxFrameLength: bytes.length });
    if (frame.control & 0x80 || frame.split) return;
    if (frame.server.type === "broadcast") {
      for (const { meter } of this.meters)
        if (meter instanceof ElectricMeter && meter.speaks698) answerDlt698(meter, frame, now);
      return;
    }
    if (frame.server.type !== "single") return;
    for (const entry of this.meters) {
      const meter = entry.meter;
      if (!(meter instanceof ElectricMeter) || !meter.speaks698 || frame.server.address !== meter.address)
        continue;
      const decoded = dlt698.decodeFromClient(frame);
      const piid = decoded.piid?.raw ?? 0;
      this.respond(
        entry,
        result,
        () => answerDlt698(meter, frame, now),
        () => dlt698.buildErrorResponse(meter.address, 255, { piid }),
      );
    }
  }

  /** Modbus-RTU: the slave with the frame's address answers (0, the broadcast, is not served). */
  private modbus(bytes: Uint8Array, now: number, result: BusResult): void {
    const adu = modbus.parseRtuFrame(bytes);
    const entry = this.modbusMeters.find(({ meter }) => meter.config.slave === adu.unit);
    if (!entry) return;
    const request = modbus.decodeRequest(adu.pdu);
    const frame = (reply: modbus.ModbusReply) => modbus.buildRtuFrame(adu.unit, modbus.encodeReply(reply));
    this.respond(
      entry,
      result,
      () => frame(entry.meter.answer(request, now)),
      // Exception 04: server device failure, the meter's own refusal.
      () => frame(modbus.exceptionReply(request.functionCode, 4)),
    );
  }

  private cjt188(bytes: Uint8Array, now: number, result: BusResult): void {
    const frame = cjt188.parseFrame(bytes);
    if (frame.control & 0x80) return;
    const broadcast = /^A+$/.test(frame.address);
    for (const entry of this.meters) {
      const meter = entry.meter;
      if (meter.kind !== "water" || (!broadcast && frame.address !== meter.address)) continue;
      const decoded = cjt188.decodeRequest(frame, { statusMap: meter.config.statusMap });
      const ser = frame.data[2] ?? 0;
      this.respond(
        entry,
        result,
        () => answerWater(meter, decoded, now),
        () =>
          cjt188.buildErrorReply(
            meter.address,
            decoded.control.function,
            { valve: meter.valveAt(now) },
            {
              ser,
              meterType: meter.config.meterType,
              statusMap: meter.config.statusMap,
            },
          ),
      );
    }
  }

  private respond(
    entry: { faults: FaultPlan },
    result: BusResult,
    act: () => Uint8Array | null,
    error: () => Uint8Array,
  ): void {
    const fault: Fault | null = entry.faults.next();
    if (fault === "ignore") return;
    if (fault === "errorReply") {
      result.replies.push({ bytes: error(), delayMs: this.timing.replyDelayMs, holdsBus: true });
      return;
    }
    const reply = act();
    if (!reply || fault === "noReply") return;
    if (fault === "disconnect") {
      result.disconnect = true;
      return;
    }
    const { replyDelayMs, lateReplyMs } = this.timing;
    if (fault === "lateReply") result.replies.push({ bytes: reply, delayMs: lateReplyMs, holdsBus: false });
    else if (fault === "badChecksum") {
      const corrupted = reply.slice();
      corrupted[corrupted.length - 2] = corrupted[corrupted.length - 2]! ^ 0x5a;
      result.replies.push({ bytes: corrupted, delayMs: replyDelayMs, holdsBus: true });
    } else {
      result.replies.push({ bytes: reply, delayMs: replyDelayMs, holdsBus: true });
      if (fault === "duplicateReply")
        result.replies.push({ bytes: reply, delayMs: replyDelayMs + 1, holdsBus: false });
    }
  }
}

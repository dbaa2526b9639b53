import { modbus } from "@meterline/protocols";

/**
 * A simulated Modbus DIN-rail meter of one catalogue model (packages/protocols/src/modbus/models):
 * it answers reads from the model's register map, its energy growing at its mean power while the
 * relay is closed, and switches its relay by the model's coil or register. What the model does
 * not have is refused with the exception a meter sends (01 illegal function, 02 illegal address).
 */
export interface ModbusMeterConfig {
  /** The gateway's meter id (slave addresses repeat across buses). */
  id: string;
  slave: number;
  /** Catalogue name ("ddsy1352"). */
  modelName: string;
  /** Mean load, W. */
  meanRate: number;
  /** kWh on the register when the simulation starts. */
  startKwh: number;
}

let catalogue: Map<string, modbus.MeterModel> | undefined;

export function simulatorCatalogue(): Map<string, modbus.MeterModel> {
  catalogue ??= modbus.loadCatalogue();
  return catalogue;
}

const ENERGY_NAMES = ["forward active energy", "combined active energy", "total active energy"];
const VOLTS = 220;

export class ModbusMeter {
  readonly kind = "modbus";
  readonly model: modbus.MeterModel;
  /** The load is supplied (the relay closed). */
  relayOn = true;
  readonly counters = { reads: 0, relayOps: 0, exceptions: 0 };
  private energyWh: number;
  private lastAt: number | undefined;

  constructor(readonly config: ModbusMeterConfig) {
    this.model = modbus.findModel(simulatorCatalogue(), config.modelName);
    this.energyWh = config.startKwh * 1000;
  }

  get address(): string {
    return String(this.config.slave);
  }

  /** Active power now, W: nothing flows through an open relay. */
  powerW(): number {
    return this.relayOn ? this.config.meanRate : 0;
  }

  /** The energy register, kWh, as the meter shows it (two decimals). */
  energyKwh(now: number): string {
    this.advance(now);
    return (Math.floor(this.energyWh / 10) / 100).toFixed(2);
  }

  private advance(now: number): void {
    if (this.lastAt !== undefined && now > this.lastAt)
      this.energyWh += (this.powerW() * (now - this.lastAt)) / 3_600_000;
    this.lastAt = now;
  }

  /** A register's value as decimal text in its unit, exact at its scale. */
  private valueOf(register: modbus.ModelRegister, now: number): string {
    const decimals = Math.max(0, -Math.round(Math.log10(Number(register.scale))));
    const fixed = (value: number) => value.toFixed(register.type.startsWith("float") ? 3 : decimals);
    if (ENERGY_NAMES.includes(register.name)) return fixed(Number(this.energyKwh(now)));
    // Three-phase models name each phase's voltage ("voltage A"): the same mains on every phase.
    if (/^voltage( [ABC])?$/.test(register.name)) return fixed(VOLTS);
    if (register.name === "current") return fixed(this.powerW() / VOLTS);
    // A three-phase meter's load shared evenly by its phases.
    if (/^current [ABC]$/.test(register.name)) return fixed(this.powerW() / 3 / VOLTS);
    if (register.name === "active power")
      return fixed(register.unit === "kW" ? this.powerW() / 1000 : this.powerW());
    return fixed(0);
  }

  /** The reply PDU to a request PDU (normal or exception). */
  answer(request: modbus.ModbusRequest, now: number): modbus.ModbusReply {
    const refuse = (code: number) => {
      this.counters.exceptions++;
      return modbus.exceptionReply(request.functionCode, code);
    };
    const relay = this.model.relay;
    if (request.kind === "read") {
      this.counters.reads++;
      const functionCode = request.functionCode;
      if (functionCode === 1 || functionCode === 2) {
        if (relay?.readBack.kind !== "coil" || request.address !== relay.readBack.address) return refuse(2);
        const on = this.relayOn ? relay.readBack.on : relay.readBack.off;
        return { kind: "read-bits", functionCode, byteCount: 1, bits: [on === 1] };
      }
      const words = this.readWords(functionCode, request.address, request.quantity, now);
      if (!words) return refuse(2);
      return {
        kind: "read-registers",
        functionCode,
        byteCount: words.length * 2,
        registers: words,
      };
    }
    const point = relay?.write;
    if (!point || request.functionCode !== point.function) {
      const writesRegisters = request.functionCode === 6 || request.functionCode === 16;
      // The model's quirk: single-register writes are an illegal function.
      if (request.functionCode === 6 && this.model.quirks.some((q) => q.kind === "write-multiple-only"))
        return refuse(1);
      return refuse(writesRegisters || point ? 2 : 1);
    }
    if (request.address !== point.address) return refuse(2);
    let value: number | undefined;
    if (request.kind === "write-single-coil") value = request.value ? 1 : 0;
    else if (request.kind === "write-multiple-coils") value = request.values[0] ? 1 : 0;
    else if (request.kind === "write-single-register") value = request.value;
    else if (request.kind === "write-multiple-registers" && request.values.length === 1)
      value = request.values[0];
    if (value !== point.on && value !== point.off) return refuse(3);
    this.advance(now);
    this.relayOn = value === point.on;
    this.counters.relayOps++;
    return modbus.writeAcknowledgement(request);
  }

  private readWords(functionCode: 3 | 4, start: number, quantity: number, now: number): number[] | undefined {
    const words = new Array<number>(quantity).fill(0);
    let known = false;
    for (const register of this.model.registers) {
      const space = register.function === 4 ? 4 : 3;
      if (space !== functionCode || register.function > 4) continue;
      const encoded = modbus.encodeRegisterValue(register, this.valueOf(register, now));
      encoded.forEach((word, i) => {
        const at = register.address + i - start;
        if (at < 0 || at >= quantity) return;
        words[at] = word;
        known = true;
      });
    }
    const readBack = this.model.relay?.readBack;
    if (readBack?.kind === "register" && readBack.function === functionCode) {
      const at = readBack.address - start;
      if (at >= 0 && at < quantity) {
        words[at] = this.relayOn ? readBack.on : readBack.off;
        known = true;
      }
    }
    return known ? words : undefined;
  }
}

/**
 * A whole Modbus-RTU request at the start of `bytes` (its length follows from the function code;
 * the CRC must hold), or undefined: how a DTU tells the gateway's RTU requests from 645 / 188 frames.
 */
export function rtuRequestLength(bytes: Uint8Array): number | undefined {
  if (bytes.length < 8) return undefined;
  const functionCode = bytes[1]!;
  let length: number | undefined;
  if (functionCode >= 1 && functionCode <= 6) length = 8;
  else if (functionCode === 0x0f || functionCode === 0x10) length = 9 + bytes[6]!;
  if (length === undefined || bytes.length < length) return undefined;
  const crc = modbus.crc16Modbus(bytes, 0, length - 2);
  return crc === (bytes[length - 2]! | (bytes[length - 1]! << 8)) ? length : undefined;
}

import { isProtocolError, modbus, type SplitFrame } from "@meterline/protocols";
import type { PreparedRequest } from "../bus/bus.ts";
import type { MeterInfo, RelayAction } from "../model.ts";
import type { RelayStatus } from "./dlt698-requests.ts";
import type { MeterReply } from "./requests.ts";

/**
 * Modbus-RTU (behind a DTU) and Modbus TCP requests of the gateway, driven by the meter's model in
 * the catalogue (packages/protocols/src/modbus/models): a read names a register of the model, or
 * RELAY_ITEM for the relay's read-back point; the relay is switched by the model's coil or
 * register. A reply is taken only from the slave asked, for the same function (and, over TCP, the
 * same transaction id); an exception reply becomes an error naming the exception.
 */
export const RELAY_ITEM = "relay";

export class ModbusModelError extends Error {}

let catalogue: Map<string, modbus.MeterModel> | undefined;

/** The catalogue, loaded once (the files are checked by the schema when loaded). */
export function modbusCatalogue(): Map<string, modbus.MeterModel> {
  catalogue ??= modbus.loadCatalogue();
  return catalogue;
}

export function modelOf(meter: MeterInfo): modbus.MeterModel {
  const name = meter.model.modbusModel;
  if (!name) throw new ModbusModelError("the meter has no Modbus model");
  try {
    return modbus.findModel(modbusCatalogue(), name);
  } catch (error) {
    if (isProtocolError(error)) throw new ModbusModelError(error.message);
    throw error;
  }
}

/** The register the model's total forward energy is in, by the names the catalogue uses. */
const ENERGY_NAMES = ["forward active energy", "combined active energy", "total active energy"];

export function energyRegister(model: modbus.MeterModel): string | undefined {
  return ENERGY_NAMES.find((name) => model.registers.some((r) => r.name === name && r.function <= 4));
}

export function hasRegister(model: modbus.MeterModel, name: string): boolean {
  return model.registers.some((r) => r.name === name && (r.function === 3 || r.function === 4));
}

function slaveOf(meter: MeterInfo): number {
  const slave = Number(meter.address);
  if (!Number.isInteger(slave) || slave < 1 || slave > 247)
    throw new ModbusModelError(`slave address ${meter.address} is not 1..247`);
  return slave;
}

function relayStatus(on: boolean | undefined): RelayStatus | undefined {
  if (on === undefined) return undefined;
  // "on" is the relay closed (the load supplied); the write was the command, so both bits agree.
  return { relayCommandOpen: !on, relayOpen: !on, powerHold: false, relay: on ? "closed" : "open" };
}

/** What an exception reply means to an operator. */
function exceptionDetail(reply: Extract<modbus.ModbusReply, { kind: "exception" }>): string {
  const code = reply.exceptionCode.toString(16).toUpperCase().padStart(2, "0");
  return `exception ${code} (${reply.exceptionName}) to function ${reply.functionCode.toString(16).toUpperCase().padStart(2, "0")}`;
}

interface Framing {
  bytes: Uint8Array;
  modbusReply?: modbus.PendingReply;
  /** The reply's PDU when `frame` is this request's ADU answer, else undefined. */
  pduOf(frame: SplitFrame): Uint8Array | undefined;
}

function frame(meter: MeterInfo, pdu: Uint8Array, transactionId: number): Framing {
  const slave = slaveOf(meter);
  if (meter.model.modbusTcp) {
    const id = transactionId & 0xffff;
    return {
      bytes: modbus.buildTcpFrame({ transactionId: id, unit: slave }, pdu),
      pduOf(reply) {
        const adu = tryParse(() => modbus.parseTcpFrame(reply.bytes));
        return adu && adu.transactionId === id && adu.unit === slave ? adu.pdu : undefined;
      },
    };
  }
  const bytes = modbus.buildRtuFrame(slave, pdu);
  return {
    bytes,
    modbusReply: modbus.pendingFor(bytes),
    pduOf(reply) {
      if (reply.protocol !== "modbus") return undefined;
      const adu = tryParse(() => modbus.parseRtuFrame(reply.bytes));
      return adu && adu.unit === slave ? adu.pdu : undefined;
    },
  };
}

function tryParse<T>(parse: () => T): T | undefined {
  try {
    return parse();
  } catch (error) {
    if (isProtocolError(error)) return undefined;
    throw error;
  }
}

function request(
  meter: MeterInfo,
  asked: modbus.ModbusRequest,
  transactionId: number,
  onReply: (reply: modbus.ModbusReply) => MeterReply,
): PreparedRequest<MeterReply> {
  const framing = frame(meter, modbus.encodeRequest(asked), transactionId);
  return {
    bytes: framing.bytes,
    address: meter.address,
    ...(framing.modbusReply ? { modbusReply: framing.modbusReply } : {}),
    accept(received) {
      const pdu = framing.pduOf(received);
      if (!pdu) return undefined;
      const reply = tryParse(() => modbus.decodeReply(pdu));
      if (!reply || reply.functionCode !== asked.functionCode) return undefined;
      if (reply.kind === "exception") return { kind: "error", detail: exceptionDetail(reply) };
      return onReply(reply);
    },
  };
}

/** Read one register of the model by name, or the relay's read-back point (RELAY_ITEM). */
export function modbusRead(
  meter: MeterInfo,
  item: string,
  transactionId: number,
): PreparedRequest<MeterReply> {
  const model = modelOf(meter);
  if (item === RELAY_ITEM) return relayRead(meter, model, transactionId);
  if (!hasRegister(model, item))
    throw new ModbusModelError(
      `${model.model} has no readable register "${item}" (${model.registers.map((r) => r.name).join(", ")})`,
    );
  const span = modbus.readSpan(model, [item]);
  const asked =
    span.function === 3
      ? modbus.readHoldingRegisters(span.start, span.quantity)
      : modbus.readInputRegisters(span.start, span.quantity);
  return request(meter, asked, transactionId, (reply) => {
    if (reply.kind !== "read-registers" || reply.registers.length !== span.quantity)
      return { kind: "error", detail: `unexpected reply: ${reply.kind}` };
    const block = { function: span.function, start: span.start, registers: reply.registers };
    const { fields } = modbus.decodeModelBlock(model, block);
    return { kind: "read", fields: fields.filter((field) => field.name === item) };
  });
}

function relayRead(
  meter: MeterInfo,
  model: modbus.MeterModel,
  transactionId: number,
): PreparedRequest<MeterReply> {
  const point = model.relay?.readBack;
  if (!point) throw new ModbusModelError(`${model.model} has no relay`);
  const asked: modbus.ModbusRequest = {
    kind: "read",
    functionCode: point.function as 1 | 2 | 3 | 4,
    address: point.address,
    quantity: 1,
  };
  return request(meter, asked, transactionId, (reply) => {
    let value: number | undefined;
    if (reply.kind === "read-bits") value = reply.bits[0] ? 1 : 0;
    else if (reply.kind === "read-registers") value = reply.registers[0];
    const on = value === point.on ? true : value === point.off ? false : undefined;
    const status = relayStatus(on);
    if (!status) return { kind: "error", detail: `relay read-back value ${value} is neither on nor off` };
    return { kind: "read", fields: [], relayStatus: status };
  });
}

/** Switch the relay by the model's coil or register: a trip writes "off", a close writes "on". */
export function modbusRelay(
  meter: MeterInfo,
  action: RelayAction,
  transactionId: number,
): PreparedRequest<MeterReply> {
  const model = modelOf(meter);
  const point = model.relay?.write;
  if (!point) throw new ModbusModelError(`${model.model} has no relay`);
  if (action === "power-hold" || action === "power-hold-release")
    throw new ModbusModelError("Modbus meters have no power hold");
  const value = action === "trip" ? point.off : point.on;
  const asked: modbus.ModbusRequest =
    point.function === 5
      ? modbus.writeSingleCoil(point.address, value === 1)
      : point.function === 15
        ? modbus.writeMultipleCoils(point.address, [value === 1])
        : point.function === 6
          ? modbus.writeSingleRegister(point.address, value)
          : modbus.writeMultipleRegisters(point.address, [value]);
  return request(meter, asked, transactionId, () => ({ kind: "ack" }));
}

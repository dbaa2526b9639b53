import { fail } from "../errors.ts";
import { byteHex, parseHex } from "../hex.ts";
import * as modbus from "../modbus/index.ts";
import { intOption, option, type ParsedArgs, required } from "./args.ts";

/**
 * The field tool's Modbus half. `decode --protocol modbus <hex> [--transport tcp]` names the
 * slave (or unit and transaction), the function, the address and quantity or byte count and
 * the registers; with `--model <name> --start <address>` a register reply is shown as values
 * by name. `encode --protocol modbus <request>` builds what the gateway sends.
 */
const hex16 = (value: number) => `0x${value.toString(16).toUpperCase().padStart(4, "0")}`;

function transportOf(args: ParsedArgs): modbus.Transport {
  const transport = option(args, "transport") ?? "rtu";
  if (transport !== "rtu" && transport !== "tcp") fail("bad-argument", '--transport is "rtu" or "tcp"');
  return transport;
}

function messageSummary(message: modbus.ModbusRequest | modbus.ModbusReply): Record<string, unknown> {
  switch (message.kind) {
    case "read":
      return { address: hex16(message.address), quantity: message.quantity };
    case "read-bits":
      return { byteCount: message.byteCount, bits: message.bits.map((bit) => (bit ? 1 : 0)).join("") };
    case "read-registers":
      return { byteCount: message.byteCount, registers: message.registers.map(hex16) };
    case "write-single-coil":
      return { address: hex16(message.address), value: message.value ? "ON (FF 00)" : "OFF (00 00)" };
    case "write-single-register":
      return { address: hex16(message.address), value: `${hex16(message.value)} (${message.value})` };
    case "write-multiple-coils":
      return {
        address: hex16(message.address),
        quantity: message.values.length,
        values: message.values.map((bit) => (bit ? 1 : 0)).join(""),
      };
    case "write-multiple-registers":
      return {
        address: hex16(message.address),
        quantity: message.values.length,
        values: message.values.map(hex16),
      };
    case "write-multiple":
      return { address: hex16(message.address), quantity: message.quantity };
    case "exception":
      return { exception: `0x${byteHex(message.exceptionCode)} ${message.exceptionName}` };
  }
}

export function decodeModbus(text: string, args: ParsedArgs): Record<string, unknown> {
  const transport = transportOf(args);
  const bytes = parseHex(text);
  const direction = option(args, "direction") ?? "auto";
  if (direction !== "auto" && direction !== "request" && direction !== "reply")
    fail("bad-argument", '--direction is "request", "reply" or "auto"');
  const adu = transport === "rtu" ? modbus.parseRtuFrame(bytes) : modbus.parseTcpFrame(bytes);
  const decoded = modbus.decodeAdu(adu, direction);
  const echo = decoded.functionCode === 0x05 || decoded.functionCode === 0x06;
  const summary: Record<string, unknown> = {
    protocol: transport === "rtu" ? "Modbus-RTU" : "Modbus TCP",
    ...(transport === "rtu"
      ? { slave: decoded.unit, crc: "ok" }
      : { transactionId: decoded.transactionId, unitId: decoded.unit }),
    direction: echo ? `${decoded.direction} (a single write's reply is its echo)` : decoded.direction,
    function: `0x${byteHex(decoded.functionCode)} ${decoded.functionName}`,
    ...messageSummary(decoded.message),
  };
  const modelName = option(args, "model");
  if (modelName !== undefined) Object.assign(summary, modelValues(modelName, args, decoded));
  if (decoded.warnings.length > 0) summary.warnings = decoded.warnings;
  return summary;
}

function modelValues(name: string, args: ParsedArgs, decoded: modbus.ModbusDecoded): Record<string, unknown> {
  const model = modbus.findModel(modbus.loadCatalogue(), name);
  const message = decoded.message;
  if (message.kind === "read" && (message.functionCode === 3 || message.functionCode === 4)) {
    // A read request: name the registers it will bring back.
    const end = message.address + message.quantity;
    const covers = model.registers
      .filter((r) => r.function === message.functionCode && r.address >= message.address)
      .filter((r) => r.address + modbus.registerCount(r.type) <= end)
      .map((r) => `${hex16(r.address)} ${r.name}`);
    return { model: model.model, covers };
  }
  if (message.kind !== "read-registers")
    fail("bad-argument", "--model decodes a register read request or reply");
  const start = intOption(args, "start");
  if (start === undefined)
    fail("bad-argument", "--model needs --start <address> (the first register read, e.g. 0x2000)");
  const reading = modbus.decodeModelBlock(model, {
    function: message.functionCode,
    start,
    registers: message.registers,
  });
  return {
    model: model.model,
    ...(model.confidence === "unverified"
      ? { modelConfidence: "unverified: confirm the map on a meter" }
      : {}),
    values: reading.fields.map((field) => ({
      name: field.name,
      value: field.value,
      unit: field.unit,
      ...(field.status === "ok" ? { scaled: field.scaled, scale: field.scale } : { status: field.status }),
    })),
    ...(reading.relay ? { relay: reading.relay } : {}),
    ...(reading.prepaid
      ? {
          prepaid: Object.fromEntries(
            Object.entries(reading.prepaid).map(([role, field]) => [
              role,
              `${field.value} ${field.unit}`.trim(),
            ]),
          ),
        }
      : {}),
  };
}

interface RequestSpec {
  usage: string;
  build: (args: ParsedArgs) => modbus.ModbusRequest;
}

const address = (args: ParsedArgs) =>
  intOption(args, "address") ?? fail("bad-argument", "--address is required");
const quantity = (args: ParsedArgs) => intOption(args, "quantity") ?? 1;
const list = (args: ParsedArgs) =>
  required(args, "values")
    .split(",")
    .map((item) => {
      const value = /^0x/i.test(item) ? Number.parseInt(item.slice(2), 16) : Number(item);
      if (!Number.isInteger(value)) fail("bad-argument", `--values item "${item}" is not a number`);
      return value;
    });

const ADDRESSING = "[--slave 1] [--transport tcp --transaction 1]";
export const MODBUS_REQUESTS: Record<string, RequestSpec> = {
  "read-holding": {
    usage: `--address A [--quantity N] ${ADDRESSING}   FC 03`,
    build: (args) => modbus.readHoldingRegisters(address(args), quantity(args)),
  },
  "read-input": {
    usage: "--address A [--quantity N]   FC 04",
    build: (args) => modbus.readInputRegisters(address(args), quantity(args)),
  },
  "read-coils": {
    usage: "--address A [--quantity N]   FC 01",
    build: (args) => modbus.readCoils(address(args), quantity(args)),
  },
  "read-discrete": {
    usage: "--address A [--quantity N]   FC 02",
    build: (args) => modbus.readDiscreteInputs(address(args), quantity(args)),
  },
  "write-coil": {
    usage: "--address A --value on|off   FC 05",
    build: (args) => {
      const value = required(args, "value");
      if (value !== "on" && value !== "off") fail("bad-argument", "--value is on or off");
      return modbus.writeSingleCoil(address(args), value === "on");
    },
  },
  "write-register": {
    usage: "--address A --value V   FC 06",
    build: (args) =>
      modbus.writeSingleRegister(
        address(args),
        intOption(args, "value") ?? fail("bad-argument", "--value is required"),
      ),
  },
  "write-coils": {
    usage: "--address A --values 1,0,1   FC 0F",
    build: (args) =>
      modbus.writeMultipleCoils(
        address(args),
        list(args).map((bit) => bit !== 0),
      ),
  },
  "write-registers": {
    usage: "--address A --values 10,0x0102   FC 10",
    build: (args) => modbus.writeMultipleRegisters(address(args), list(args)),
  },
  "read-model": {
    usage: "--model sdm120 --names 'voltage,forward active energy'   one read covering the named registers",
    build: (args) => {
      const model = modbus.findModel(modbus.loadCatalogue(), required(args, "model"));
      const span = modbus.readSpan(
        model,
        required(args, "names")
          .split(",")
          .map((name) => name.trim()),
      );
      return span.function === 3
        ? modbus.readHoldingRegisters(span.start, span.quantity)
        : modbus.readInputRegisters(span.start, span.quantity);
    },
  },
};

/** Frame the request for the transport asked. */
export function encodeModbus(name: string, args: ParsedArgs): Uint8Array {
  const spec = MODBUS_REQUESTS[name] ?? fail("bad-argument", `unknown request "${name}"; see --help`);
  const pdu = modbus.encodeRequest(spec.build(args));
  const unit = intOption(args, "slave") ?? intOption(args, "unit") ?? 1;
  if (transportOf(args) === "rtu") return modbus.buildRtuFrame(unit, pdu);
  return modbus.buildTcpFrame({ transactionId: intOption(args, "transaction") ?? 1, unit }, pdu);
}

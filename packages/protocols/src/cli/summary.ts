import type { Cjt188Decoded } from "../cjt188/messages.ts";
import type { AnyDecoded } from "../detect.ts";
import type { Dlt645Decoded } from "../dlt645/messages.ts";
import { byteHex } from "../hex.ts";
import type { DecodedField } from "../values.ts";

/**
 * What a field engineer wants first from a pasted frame: protocol, address, control and
 * direction, the identifier and its name, values with units, and the error if any. The full
 * decoded message follows under `details`.
 */
export interface FrameSummary {
  protocol: string;
  address: string;
  control: string;
  function: string;
  direction: string;
  identifier: { di: string; name: string | null; byteOrder?: string } | null;
  values: Record<string, unknown>[];
  error: unknown;
  warnings: string[];
  frame: { offset: number; length: number };
  details: unknown;
}

export function fieldSummary(field: DecodedField): Record<string, unknown> {
  const out: Record<string, unknown> = { name: field.name, value: field.value };
  if (field.kind === "number")
    Object.assign(out, { unit: field.unit, scaled: field.scaled, scale: field.scale });
  if (field.kind === "datetime" && field.weekday !== undefined) out.weekday = field.weekday;
  if (field.status !== "ok") out.status = field.status;
  return out;
}

export function summarize(decoded: AnyDecoded): FrameSummary {
  return decoded.protocol === "dlt645" ? summarizeDlt645(decoded) : summarizeCjt188(decoded);
}

function summarizeDlt645(decoded: Dlt645Decoded & { frame: FrameSummary["frame"] }): FrameSummary {
  const { message } = decoded;
  const values: Record<string, unknown>[] = [];
  let identifier: FrameSummary["identifier"] = null;
  if ("di" in message) identifier = { di: message.di, name: message.name };
  if ("fields" in message) values.push(...message.fields.map(fieldSummary));
  if (message.kind === "read-address-reply")
    values.push({ name: "communication address", value: message.address });
  if (message.kind === "broadcast-time") values.push({ name: "time", value: message.time });
  if (message.kind === "relay-control-request") {
    const relay = message.relay;
    values.push(
      { name: "command", value: relay.command, code: byteHex(relay.commandCode) },
      { name: "valid until", value: relay.validUntil },
    );
  }
  const version = decoded.version;
  return {
    protocol: `DL/T 645-${version}`,
    address: decoded.address,
    control: `0x${byteHex(decoded.control.raw)}`,
    function: decoded.control.functionName,
    direction: decoded.control.direction,
    identifier,
    values,
    error: message.kind === "error-reply" ? message.error : null,
    warnings: decoded.warnings,
    frame: decoded.frame,
    details: { control: decoded.control, message },
  };
}

function summarizeCjt188(decoded: Cjt188Decoded & { frame: FrameSummary["frame"] }): FrameSummary {
  const { message } = decoded;
  const values: Record<string, unknown>[] = [];
  let identifier: FrameSummary["identifier"] = null;
  if ("di" in message) identifier = { di: message.di, name: message.name, byteOrder: message.diOrder };
  if (message.kind === "read-data-reply") {
    const data = message.meterData;
    if (data)
      values.push(
        fieldSummary(data.currentTotal),
        fieldSummary(data.settlementDayTotal),
        fieldSummary(data.time),
        {
          name: "status",
          ...data.status,
        },
      );
    values.push(...message.fields.map(fieldSummary));
  }
  if (message.kind === "valve-control-request")
    values.push({ name: "valve command", value: message.command, code: byteHex(message.commandCode) });
  if (
    (message.kind === "valve-control-reply" ||
      message.kind === "write-reply" ||
      message.kind === "error-reply") &&
    message.status
  ) {
    values.push({ name: "status", ...message.status });
  }
  if ("ser" in message && message.ser !== null) values.push({ name: "SER", value: message.ser });
  return {
    protocol: "CJ/T 188-2004",
    address: decoded.address,
    control: `0x${byteHex(decoded.control.raw)}`,
    function: decoded.control.functionName,
    direction: decoded.control.direction,
    identifier,
    values,
    error: message.kind === "error-reply" ? { ser: message.ser, status: message.status } : null,
    warnings: decoded.warnings,
    frame: decoded.frame,
    details: {
      meterType: decoded.meterType,
      meterTypeName: decoded.meterTypeName,
      control: decoded.control,
      message,
    },
  };
}

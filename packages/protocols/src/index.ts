/**
 * @meterline/protocols — pure meter-protocol codecs (no I/O): DL/T 645-2007, DL/T 645-1997,
 * DL/T 698.45, CJ/T 188-2004, Q/GDW 1376.1 (concentrators) and Modbus-RTU / TCP (rail meters), for the TCP/MQTT gateway (master
 * side) and the simulated meter fleet (meter side). Facts and clauses: ../shared/reference/metering-domain.md.
 */
export * as cjt188 from "./cjt188/index.ts";
export { type DateLayout, type DateTimeInput, parseDateTimeText, weekdayOf } from "./datetime.ts";
export { formatScaled, parseScaled } from "./decimal.ts";
export { type AnyDecoded, type DetectOptions, decodeAll, type ProtocolName } from "./detect.ts";
export * as dlt645 from "./dlt645/index.ts";
export * as dlt698 from "./dlt698/index.ts";
export { isProtocolError, ProtocolError, type ProtocolErrorCode } from "./errors.ts";
export { parseHex, sum8, toHex } from "./hex.ts";
export { toJson } from "./json.ts";
export * as modbus from "./modbus/index.ts";
export * as qgdw1376 from "./qgdw1376/index.ts";
export {
  FrameSplitter,
  type SplitFrame,
  type SplitOptions,
  type SplitProtocol,
  type SplitResult,
  type StreamProtocol,
  splitFrames,
} from "./splitter.ts";
export type { Unit } from "./units.ts";
export type {
  DateTimeField,
  DecodedField,
  FieldFormat,
  FieldInput,
  FieldStatus,
  NumberField,
  TextField,
} from "./values.ts";

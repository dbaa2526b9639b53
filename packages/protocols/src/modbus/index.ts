/**
 * Modbus-RTU and Modbus TCP codec for DIN-rail meters behind DTUs (issue 38): RTU and MBAP
 * framing, the eight read/write functions both ways, exceptions, reply matching, stream
 * splitting against the pending request, and the model catalogue (registers as data).
 * Gateway: build a request with encodeRequest + buildRtuFrame, wait with RtuReplySplitter,
 * then parseRtuFrame, isReplyTo and decodeReply; decodeModelBlock gives the values by name.
 */
export {
  decodeModelBlock,
  findModel,
  loadCatalogue,
  type ModelReading,
  modelsDirectory,
  type RegisterBlock,
  readSpan,
} from "./catalogue.ts";
export { crc16Modbus } from "./crc.ts";
export { type Direction, decodeAdu, guessDirection, isReplyTo, type ModbusDecoded } from "./decode.ts";
export {
  BROADCAST,
  buildAdu,
  buildRtuFrame,
  buildTcpFrame,
  type ModbusAdu,
  parseRtuFrame,
  parseTcpFrame,
  probeTcpFrame,
  RTU_MAX_LENGTH,
  TCP_MAX_LENGTH,
  type TcpHeader,
  type Transport,
} from "./frame.ts";
export {
  ExceptionCode,
  exceptionName,
  FunctionCode,
  functionName,
  MAX_READ_BITS,
  MAX_READ_REGISTERS,
  MAX_WRITE_COILS,
  MAX_WRITE_REGISTERS,
} from "./functions.ts";
export {
  type MeterModel,
  MODEL_UNITS,
  type ModelRegister,
  parseModel,
  QUIRK_KINDS,
  type RelayPoint,
} from "./model.ts";
export {
  decodeReply,
  decodeRequest,
  encodeReply,
  encodeRequest,
  exceptionReply,
  expectedReplyLength,
  type ModbusReply,
  type ModbusRequest,
  readByteCount,
  readCoils,
  readDiscreteInputs,
  readHoldingRegisters,
  readInputRegisters,
  writeAcknowledgement,
  writeMultipleCoils,
  writeMultipleRegisters,
  writeSingleCoil,
  writeSingleRegister,
} from "./pdu.ts";
export {
  DATA_TYPES,
  type DataType,
  decodeRegisterValue,
  encodeRegisterValue,
  type Order,
  type RegisterFormat,
  registerCount,
} from "./registers.ts";
export {
  findRtuReply,
  type PendingReply,
  pendingFor,
  probeRtuReply,
  RtuReplySplitter,
  splitTcpFrames,
  TcpFrameSplitter,
} from "./split.ts";

/**
 * CJ/T 188-2004 codecs for water (and gas) meters (metering-domain.md §2). Gateway:
 * build* requests, parseFrame + decodeReply. Simulated meter: parseFrame + decodeRequest,
 * then build*Reply / buildErrorReply.
 */
export { BROADCAST_ADDRESS, decodeAddress, encodeAddress, MeterType, meterTypeName } from "./address.ts";
export { type Cjt188ControlInfo, decodeControl, Fn, replyControl } from "./control.ts";
export { type DecodeOptions, decodeFrame, decodeReply, decodeRequest, METER_DATA_LENGTH } from "./decode.ts";
export {
  type BuildFrameInput,
  buildFrame,
  type Cjt188Frame,
  DEFAULT_MAX_FRAME_LENGTH,
  type ParseOptions,
  parseFrame,
  probeFrame,
} from "./frame.ts";
export { DI, type DiOrder, decodeDi, diName, encodeDi } from "./identifiers.ts";
export { isReplyTo } from "./matching.ts";
export type { Cjt188Decoded, Cjt188Message, MeterData } from "./messages.ts";
export {
  ALARM_AMOUNTS_LENGTH,
  decodeAlarmAmounts,
  decodePriceTable,
  decodePriceWrite,
  encodeAlarmAmounts,
  encodePriceTable,
  encodePriceWrite,
  PRICE_TABLE_LENGTH,
  WATER_LIMITS,
  type WaterAlarmAmounts,
  type WaterPriceTable,
  type WaterPriceWrite,
} from "./parameters.ts";
export {
  buildAlarmAmountsReply,
  buildErrorReply,
  buildPriceTableReply,
  buildReadAddressReply,
  buildReadDataReply,
  buildValveControlReply,
  buildWriteReply,
  type Cjt188ReplyOptions,
  type MeterDataInput,
} from "./replies.ts";
export {
  buildReadAddress,
  buildReadData,
  buildValveControl,
  buildWriteAlarmAmounts,
  buildWritePriceTable,
  type Cjt188BuildOptions,
} from "./requests.ts";
export {
  decodeStatus,
  encodeStatus,
  type MeterStatus,
  STANDARD_STATUS_MAP,
  type StatusBitMap,
  type StatusInput,
  type ValveState,
} from "./status.ts";
export { unitOf } from "./units.ts";
export { ValveCommand, type ValveCommandName, valveCommandName } from "./valve.ts";

/**
 * DL/T 645-2007 and DL/T 645-1997 codecs (metering-domain.md §1). Pure: bytes in, values out.
 * Gateway: build* requests, parseFrame + decodeReply the answers. Simulated meter:
 * parseFrame + decodeRequest, then build*Reply / buildErrorReply.
 */
export {
  addressMatches,
  BROADCAST_ADDRESS,
  decodeAddress,
  encodeAddress,
  WILDCARD_ADDRESS,
} from "./address.ts";
export {
  type ControlInfo,
  type Direction,
  type Dlt645Version,
  decodeControl,
  Fn1997,
  Fn2007,
  inferVersion,
  replyControl,
} from "./control.ts";
export { type Credentials, DEFAULT_CREDENTIALS } from "./credentials.ts";
export { type DataItem, decodeDataItem, encodeDataItem } from "./data-item.ts";
export { type DecodeOptions, decodeFrame, decodeReply, decodeRequest } from "./decode.ts";
export { decodeDi, encodeDi, lookupDataItem } from "./di.ts";
export { decodeErrorByte, type ErrorFlag, type ErrorInfo, encodeErrorByte } from "./error-byte.ts";
export {
  type BuildFrameInput,
  buildFrame,
  DEFAULT_MAX_FRAME_LENGTH,
  type Dlt645Frame,
  type ParseOptions,
  parseFrame,
  probeFrame,
} from "./frame.ts";
export { DI1997, forwardEnergyDi1997, lookup1997 } from "./identifiers-1997.ts";
export { DI, forwardEnergyDi, ladderPriceDi, ladderThresholdDi, lookup2007 } from "./identifiers-2007.ts";
export { isReplyTo } from "./matching.ts";
export type { Dlt645Decoded, Dlt645Message } from "./messages.ts";
export {
  decodeMoneyWrite,
  encodeMoneyWrite,
  MONEY_WRITE_DI,
  type MoneyWrite,
  type MoneyWriteKind,
  moneyWriteItem,
} from "./money-writes.ts";
export {
  decodeRelayControl,
  encodeRelayControl,
  RelayCommand,
  type RelayCommandName,
  type RelayControlInput,
} from "./relay.ts";
export {
  buildErrorReply,
  buildReadAddressReply,
  buildReadFollowUpReply,
  buildReadReply,
  buildRelayAck,
  buildWriteAck,
  type ReplyOptions,
} from "./replies.ts";
export {
  type BuildOptions,
  buildBroadcastTime,
  buildRead,
  buildReadAddress,
  buildReadFollowUp,
  buildRelayControl,
  buildWrite,
  type WriteOptions,
} from "./requests.ts";
export {
  decodeStatusWord1,
  decodeStatusWord3,
  encodeStatusWord1,
  type MeterKind,
  type RelayState,
  type StatusWord1,
  type StatusWord3,
} from "./status-word.ts";
export {
  type DayPeriod,
  dayTableDi,
  dayTableValue,
  parseDayTable,
  parseZoneTable,
  TOU_COUNT_DI,
  TOU_LIMITS,
  type TouTableKind,
  tariffAt,
  touTableInputs,
  touTableItem,
  touTableKind,
  touTableValue,
  type YearZone,
  zoneTableDi,
  zoneTableValue,
} from "./tou-tables.ts";

/**
 * Q/GDW 1376.1 codecs for concentrators and terminals (metering-domain.md §3.2). Gateway:
 * parseFrame + decodeUp, then build* requests and confirms. Simulated concentrator:
 * parseFrame + decodeDown, then buildLogin / buildHeartbeat / buildResponse with the encode*
 * helpers for each class's data.
 */
export {
  BROADCAST_TERMINAL,
  decodeAddress,
  encodeAddress,
  formatAddress,
  type Qgdw1376Address,
} from "./address.ts";
export {
  decodeTimeTag,
  encodeTimeTag,
  PW_AFNS,
  type Qgdw1376Aux,
  type TimeTag,
  type TimeTagInput,
} from "./aux.ts";
export { afnName, className, type EventRecord, ercName, type UnitValue } from "./classes.ts";
export {
  type ControlInput,
  type Direction,
  decodeControl,
  decodeSeq,
  encodeControl,
  encodeSeq,
  LinkFn,
  type Qgdw1376ControlInfo,
  type Qgdw1376Seq,
  type SeqInput,
} from "./control.ts";
export {
  type DataUnitId,
  decodeDataUnitId,
  encodeDataUnitId,
  encodeDataUnitIds,
  MAX_FN,
  MAX_PN,
  unitLabel,
} from "./data-units.ts";
export { decodeDown, decodeFrame, decodeUp } from "./decode.ts";
export type { DirectRead, DirectReadReply, DirectSwitchReply } from "./direct.ts";
export { decodeEventPoint, EVENT_POINT_LENGTH, type EventPoint, encodeEventPoint } from "./events.ts";
export { decodeA1, decodeA20, decodeA21, encodeA1, encodeA15, encodeA20, encodeA21 } from "./formats.ts";
export {
  BAUDS,
  DLT645_SERIAL,
  decodeSerial,
  type EmbeddedFrame,
  encodeSerial,
  type ForwardInput,
  type ForwardReply,
  type ForwardRequest,
  type SerialSettings,
} from "./forwarding.ts";
export {
  type BuildFrameInput,
  buildFrame,
  MAX_USER_LENGTH,
  type ParseOptions,
  parseFrame,
  parseFrames,
  probeFrame,
  type Qgdw1376Frame,
} from "./frame.ts";
export { isReplyTo } from "./matching.ts";
export { buildMessage, type MessageInput, type UnitInput } from "./message.ts";
export type { Qgdw1376Decoded, Qgdw1376Kind, Qgdw1376Unit } from "./messages.ts";
export {
  decodeMeterEntry,
  encodeMeterEntry,
  METER_ENTRY_LENGTH,
  type MeterFileEntry,
  type MeterFileInput,
  MeterProtocol,
  meterProtocolName,
} from "./meter-file.ts";
export {
  buildEventReport,
  buildForwardReply,
  buildHeartbeat,
  buildLogin,
  buildLogout,
  buildResponse,
  buildTerminalConfirm,
  type EventInput,
  encodeClock,
  encodeDailyFrozenReadings,
  encodeEvents,
  encodeMeterFile,
  encodeMonthlyFrozenReadings,
  encodePurchase,
  encodeTariffReadings,
  type PurchaseInput,
  type TerminalOptions,
} from "./replies.ts";
export {
  type AnswerTo,
  buildAllowClose,
  buildConfirm,
  buildControl,
  buildDeny,
  buildForward,
  buildForwardRead,
  buildForwardRelay,
  buildHeartbeatConfirm,
  buildLoginConfirm,
  buildQueryMeterFile,
  buildReadClass1,
  buildReadClass2,
  buildReadClock,
  buildReadEvents,
  buildRemoteTrip,
  buildReportConfirm,
  buildSetClock,
  buildUnitConfirm,
  buildWriteMeterFile,
  type RequestOptions,
  type TerminalTarget,
} from "./requests.ts";

/**
 * DL/T 698.45 codec (object-oriented electricity meter protocol of the State Grid). Pure.
 * Gateway: build* requests (GET of OADs, trip/close, wallet operation through
 * buildSecuredRequest), parseFrame + decodeFromServer for what meters send, buildLinkResponse
 * for logins and heartbeats. Simulated meter: parseFrame + decodeFromClient, then the
 * replies.ts builders. Split frames: buildSplitFrames and SplitReassembler.
 */
export {
  type AddressType,
  BROADCAST,
  decodeServerAddress,
  encodeServerAddress,
  type ServerAddress,
  toServerAddress,
  WILDCARD,
} from "./address.ts";
export {
  type Apdu,
  decodeApdu,
  encodeApdu,
  type FollowReport,
  type GetResult,
  type LinkRequestType,
  type LinkResultCode,
  type RecordRequest,
  type ResultNormal,
  type ResultRecord,
  SERVICE_TITLES,
  type SecurityVerification,
  type ServiceName,
  ServiceTag,
  serviceSide,
  type TimeTag,
} from "./apdu.ts";
export {
  type Comdcb,
  type Csd,
  type Data,
  type DataType,
  type DateOnly,
  type DateTime,
  type DateTimeS,
  decodeData,
  encodeData,
  MAX_DEPTH,
  type Ms,
  type Region,
  type Road,
  type Rsd,
  type Sid,
  type SidMac,
  Tag,
  type Ti,
  type TimeOnly,
} from "./axdr.ts";
export {
  type AttributeSpec,
  attributeSpec,
  darName,
  type FieldSpec,
  OAD,
  type ObjectSpec,
  OMD,
  oadName,
  objectSpec,
  omdName,
  splitOad,
  WALLET_METHOD,
} from "./catalogue.ts";
export { type ControlInput, type Dlt698ControlInfo, decodeControl, encodeControl, Fn } from "./control.ts";
export { crc16x25 } from "./crc.ts";
export {
  type AttributeView,
  attributeViews,
  type Dlt698Decoded,
  decodeFrame,
  decodeFromClient,
  decodeFromServer,
  decodePiid,
  type Piid,
} from "./decode.ts";
export {
  type BuildFrameInput,
  buildFrame,
  DEFAULT_MAX_FRAME_LENGTH,
  type Dlt698Frame,
  type ParseOptions,
  parseFrame,
  parseFrames,
  probeFrame,
  type SplitHeader,
  type SplitKind,
} from "./frame.ts";
export {
  buildActionResponse,
  buildErrorResponse,
  buildGetRecordResponse,
  buildGetResponse,
  buildLinkRequest,
  buildReportNotification,
  buildSetResponse,
  type Dlt698ReplyOptions,
  type LinkRequestInput,
} from "./replies.ts";
export {
  actionApdu,
  buildAction,
  buildApduFrame,
  buildBroadcastTime,
  buildClose,
  buildGet,
  buildGetNext,
  buildGetRecord,
  buildLinkResponse,
  buildPowerHold,
  buildReportResponse,
  buildSecuredRequest,
  buildSet,
  buildTrip,
  type CloseMode,
  closeData,
  controlFor,
  type Dlt698BuildOptions,
  dateTimeOf,
  getApdu,
  type LinkAnswerInput,
  lastRecord,
  type TripInput,
  tripData,
  type WalletInput,
  type WalletOperation,
  walletApdu,
  walletData,
} from "./requests.ts";
export {
  type CipherPort,
  FakeEsam,
  type MeterEsamPort,
  openSecurityRequest,
  openSecurityResponse,
  type Protected,
  type SecurityMode,
  secureRequest,
  secureResponse,
  type WalletCipherPort,
} from "./security.ts";
export {
  buildSplitAck,
  buildSplitFrames,
  type ReassemblyStep,
  type SplitInput,
  SplitReassembler,
} from "./split.ts";
export { dataText, dateTimeText, type NamedValue, namedValues } from "./values.ts";
export { readWalletData, WALLET_OPERATIONS, type WalletSidMacInput, walletMacInput } from "./wallet.ts";

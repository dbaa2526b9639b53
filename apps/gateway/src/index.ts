/**
 * @meterline/gateway — the meter gateway: TCP sessions of DTUs and concentrators (transparent
 * mode), MQTT for 4G meters, polling, and the command lifecycle with read-back reconciliation.
 * See README.md for packet formats, topics and ports.
 */

export {
  canTransition,
  IllegalTransition,
  isFinal,
  mayRetry,
  msgResult,
  transition,
} from "./commands/lifecycle.ts";
export {
  type Decision,
  decideAfterAck,
  decideFromReadBack,
  effectVisible,
  type ReadBackFact,
  readBackItemFor,
} from "./commands/reconcile.ts";
export { ConcentratorLink } from "./concentrator/link.ts";
export {
  type ConcentratorLogin,
  concentratorId,
  concentratorPassword,
  matchConcentratorLogin,
} from "./concentrator/login.ts";
export {
  type FilePlan,
  type FileRow,
  planMeterFile,
  rowSettings,
  rowsOf,
} from "./concentrator/meter-file.ts";
export {
  DEFAULT_SETTINGS,
  GatewayConfigError,
  type GatewaySettings,
  resolveSettings,
  settingsFromEnv,
} from "./config.ts";
export {
  dialInRefusalOf,
  NetworkListError,
  parseNetworks,
  refusalOf,
  secretMatches,
  sourceAllowed,
} from "./dtu/authenticate.ts";
export {
  HeartbeatCounter,
  hasField,
  isValidId,
  isValidSecret,
  MAX_SECRET_LENGTH,
  matchRegistration,
  type PacketFormat,
  PacketFormatError,
  type PacketPiece,
  parseTemplate,
  renderPacket,
} from "./dtu/packet-format.ts";
export { type GatewayHandle, type GatewayOptions, startGateway } from "./gateway.ts";
export { LeaseKeeper } from "./lease/lease-keeper.ts";
export { MemoryLeaseStore } from "./lease/memory-lease-store.ts";
export { LEASE_SQL_URL, LeaseSetupError, leaseSchemaSql, PgLeaseStore } from "./lease/pg-lease-store.ts";
export { consoleLogger, silentLogger } from "./log.ts";
export { MemoryCommandQueue, type StoredCommand } from "./memory/command-queue.ts";
export {
  type DirectoryFile,
  DirectoryFileError,
  loadDirectoryFile,
  parseCollectors,
  parseDirectory,
  parseDirectoryFile,
} from "./memory/directory-file.ts";
export { type DirectoryCollector, MemoryMeterDirectory } from "./memory/meter-directory.ts";
export { MemoryReadingsSink } from "./memory/readings-sink.ts";
export { modbusTcpCollectorId } from "./modbus/tcp-collectors.ts";
export type * from "./model.ts";
export { connectMqtt, type MqttClientPort, type MqttConnectOptions, MqttUnavailable } from "./mqtt/client.ts";
export { type MqttTopics, mqttTopics, parseTopic } from "./mqtt/topics.ts";
export { PollScheduler } from "./polling/scheduler.ts";
export type * from "./ports.ts";
export { modbusCatalogue } from "./protocol/modbus-requests.ts";
export { type PollItem, pollPlan } from "./protocol/read-items.ts";
export {
  DEFAULT_CLEARING_DI,
  DEFAULT_RECHARGE_DI,
  encodeRecharge,
  rechargeItem,
} from "./protocol/recharge.ts";
export type { GatewayStats } from "./stats.ts";
export { localDay, localParts, localTextToEpoch } from "./time.ts";

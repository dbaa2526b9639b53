import type {
  CommandUpdate,
  MeterCommand,
  MeterFileEvent,
  MeterInfo,
  MeterReading,
  PresenceEvent,
} from "./model.ts";

/**
 * Ports: what the gateway needs from the rest of the server. The embedded demo and the tests use
 * the in-memory implementations in ./memory; the server plugs in its registry, command queue and
 * readings tables behind the same interfaces.
 */

/** What a TCP collector (DTU, concentrator) must prove before the gateway sends it anything. */
export interface CollectorCredentials {
  /** The secret its registration packet carries; a collector without one is refused. */
  secret?: string;
  /** Source networks (CIDR or single addresses) it may dial from; none = any. */
  allowedNetworks?: readonly string[];
}

/** Which meters exist and how to reach them. */
export interface MeterDirectory {
  /** The credentials of a TCP collector, or undefined when there is no such collector. */
  credentialsOf(collectorId: string): Promise<CollectorCredentials | undefined>;
  /** Meters behind one collector (a DTU id for TCP, a collector id for 4G meters). */
  metersOf(collectorId: string): Promise<MeterInfo[]>;
  /** All meters reached through MQTT. */
  mqttMeters(): Promise<MeterInfo[]>;
  /** Optional: Modbus TCP meters (model.modbusTcp set), which the gateway connects out to. */
  modbusTcpMeters?(): Promise<MeterInfo[]>;
  /** Optional: called when a collector's meters changed, so open sessions refresh them. */
  onChange?(listener: (collectorId: string) => void): () => void;
}

export interface ClaimRequest {
  /** The gateway process claiming (its lease owner id). */
  owner: string;
  /** Collectors online on this gateway: only their meters' commands are handed out. */
  collectorIds: readonly string[];
  limit: number;
}

/**
 * The command queue. A claimed command stays "queued" but belongs to the claiming gateway until it
 * records "sent" (before the frame goes on the wire, so a crash can never send a command twice) or
 * releases it. An implementation backed by the database should let claims of a dead owner lapse.
 */
export interface CommandSource {
  claim(request: ClaimRequest): Promise<MeterCommand[]>;
  /** Return unsent claimed commands to the queue (collector went offline, gateway closing). */
  release(commandIds: readonly string[]): Promise<void>;
  /** Record a state change with its evidence (queued → sent → success | fail | timeout). */
  update(update: CommandUpdate): Promise<void>;
  /** Optional wake-up when commands are queued, so they need not wait for the next claim tick. */
  onQueued?(listener: () => void): () => void;
  /**
   * Optional: writes another gateway left "sent" or "timeout" on these collectors (it stopped
   * before settling them), now claimed by `owner`. Called when this gateway takes a collector's
   * lease, so the outcome is settled by reading the meter back, never by sending again.
   */
  orphaned?(request: ClaimRequest): Promise<OrphanedCommand[]>;
}

export interface OrphanedCommand {
  command: MeterCommand;
  state: "sent" | "timeout";
  /** The meter had answered the write (its evidence says so): verify its effect, allowing for motor valves. */
  acknowledged: boolean;
  /** When the frame went out: a motor valve is not read back before it has had time to move. */
  sentAt?: Date;
}

/** Where poll results and presence go. Awaited: a slow sink slows polling instead of piling up. */
export interface ReadingsSink {
  record(reading: MeterReading): Promise<void>;
  presence?(event: PresenceEvent): Promise<void>;
  /** A concentrator's meter file as the gateway last wrote or read it back. */
  meterFile?(event: MeterFileEvent): Promise<void>;
}

/**
 * Leases: which gateway process owns which collector, so several processes can share the fleet.
 * Times are the store's (the database clock for PostgreSQL), never the caller's.
 */
export interface LeaseStore {
  /** Take or renew the lease; false when another owner holds an unexpired one. */
  acquire(collectorId: string, owner: string, ttlMs: number): Promise<boolean>;
  /** Renew many; returns the ids this owner still holds (the rest were lost). */
  renew(collectorIds: readonly string[], owner: string, ttlMs: number): Promise<Set<string>>;
  release(collectorIds: readonly string[], owner: string): Promise<void>;
  close(): Promise<void>;
  /**
   * Optional, for several gateway processes: ask whoever holds this collector's lease (another
   * owner than `by`) to drop its session, because the collector proved itself at `by`.
   */
  requestRelease?(collectorId: string, by: string): Promise<void>;
  /** Optional: hear the requests to drop collectors held by `owner`; returns how to stop listening. */
  onReleaseRequested?(owner: string, listener: (collectorId: string) => void): Promise<() => Promise<void>>;
  /**
   * Optional: mark `owner` alive for `ttlMs` and count the live gateways and the collectors leased
   * in all and to `owner`, so an overloaded gateway can hand some over (lease/balancer.ts).
   */
  share?(owner: string, ttlMs: number): Promise<LeaseShare>;
  /** Optional: `owner` is closing; it no longer counts as a live gateway. */
  leave?(owner: string): Promise<void>;
}

export interface LeaseShare {
  /** Live gateway processes, `owner` included. */
  members: number;
  /** Unexpired leases, in all. */
  collectors: number;
  /** Of which `owner` holds these. */
  mine: number;
}

export type LogLevel = "debug" | "info" | "warn" | "error";

export interface Logger {
  log(level: LogLevel, message: string, fields?: Record<string, unknown>): void;
}

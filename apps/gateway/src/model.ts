import type { cjt188, dlt645 } from "@meterline/protocols";

/**
 * What the gateway knows about meters, commands and readings. Plain data, no behaviour: the
 * ports (ports.ts) move these between the gateway and the rest of the server.
 */
export type MeterProtocol = "dlt645-2007" | "dlt645-1997" | "dlt698" | "cjt188" | "modbus";
/** "tcp": behind a DTU or concentrator in transparent mode; "mqtt": a 4G meter on the broker. */
export type MeterTransport = "tcp" | "mqtt";

/** Per-model settings: vendors differ where the standards leave room (metering-domain.md §2.3, §2.4). */
export interface MeterModel {
  /** FE wake-up bytes before each request (0..4 usual). */
  preamble?: number;
  /** CJ/T 188: byte order of data identifiers on the wire. */
  diOrder?: cjt188.DiOrder;
  /** CJ/T 188: bit map of the status word ST. */
  statusMap?: cjt188.StatusBitMap;
  /** CJ/T 188 meter type T (0x10 cold water by default). */
  meterType?: number;
  /** DL/T 645-2007 money-type local prepaid: balance and overdraft are polled. */
  localPrepaid?: boolean;
  /** Plain-text password level, password and operator code for writes and relay control. */
  credentials?: Partial<dlt645.Credentials>;
  /** DI of the plain-text recharge write of simple (non-ESAM) local-prepaid meters. */
  rechargeDi?: string;
  /** DI of the plain-text account-clearing write of the same meters. */
  clearingDi?: string;
  /** DL/T 698.45 local prepaid: the customer number (户号, hex bytes) the meter's ESAM holds (4003). */
  customerNumber?: string;
  /** Modbus: the model's name in the catalogue (packages/protocols/src/modbus/models), e.g. "ddsy1352". */
  modbusModel?: string;
  /**
   * Modbus TCP: the meter's own host and port, which the gateway connects out to (MBAP framing);
   * without it a Modbus meter speaks RTU behind its DTU.
   */
  modbusTcp?: { host: string; port: number };
}

export interface MeterInfo {
  id: string;
  /**
   * DL/T 645 and DL/T 698.45 (its server address): 12 digits; CJ/T 188: 14 digits (display order);
   * Modbus: the slave address (unit id over TCP), 1..247.
   */
  address: string;
  protocol: MeterProtocol;
  transport: MeterTransport;
  /** The DTU / concentrator registration id (TCP), or the collector id of a 4G meter (MQTT). */
  collectorId: string;
  /** RS-485 port of the collector; one transparent TCP session carries one port. */
  channel: number;
  model: MeterModel;
  /** 0 = never polled on a schedule. */
  pollIntervalMs: number;
}

export type RelayAction = "trip" | "close-allowed" | "close-direct" | "power-hold" | "power-hold-release";

export type CommandAction =
  /** Ad-hoc read of one data identifier (DL/T 645 DI, or "901F" for CJ/T 188). */
  | { kind: "read"; di: string }
  | { kind: "relay"; action: RelayAction }
  | { kind: "valve"; action: "open" | "close" }
  /** Local-prepaid recharge: exact decimal yuan and the purchase count the meter must reach. */
  | { kind: "recharge"; amount: string; purchaseCount: number }
  /**
   * Local-prepaid account clearing at closing: the meter gives up exactly `amount` (its whole
   * remaining amount) and counts it as purchase `purchaseCount`, like a recharge.
   */
  | { kind: "clearing"; amount: string; purchaseCount: number }
  /** Money / parameter write of one DI (alarm amounts, overdraft limit, prices): exact decimal. */
  | { kind: "write"; di: string; value: string }
  /** CJ/T 188 water meter: its price table (A010), settled by reading it back (8102). */
  | { kind: "water-price"; table: cjt188.WaterPriceWrite }
  /** CJ/T 188 water meter: alarm amounts 1 and 2 (vendor convention A0F1, read back with 81F1). */
  | { kind: "water-alarm"; amounts: cjt188.WaterAlarmAmounts };

export interface MeterCommand {
  id: string;
  meterId: string;
  action: CommandAction;
  /** Operator code carried in DL/T 645 writes and relay frames (8 hex digits). */
  operator?: string;
  /** Not sent after this instant. */
  expiresAt?: Date;
}

/** The spec's MSG_RESULT: 1 success, 0 fail, 2 timeout to be confirmed. */
export type CommandState = "queued" | "sent" | "success" | "fail" | "timeout";

/** What a read-back of the meter showed when a write's outcome was unknown. */
export interface ReadBack {
  item: string;
  /** Decoded value as text (relay state, valve state, purchase count, register value). */
  value: string | null;
  /** Raw reply frame (hex), or null when the read-back got no answer. */
  frame: string | null;
  detail?: string;
}

export interface CommandEvidence {
  /** The request frame (hex), recorded with "sent". */
  request?: string;
  /** The meter's reply (hex). */
  reply?: string;
  /** Why this state: "acknowledged", "error reply: …", "no reply after 3 attempts", … */
  detail: string;
  /** Reads: decoded value(s) as text. */
  value?: string;
  readBack?: ReadBack;
  attempts?: number;
  /** The meter answered the write; only its effect is still to be confirmed (kept for a later read-back). */
  acknowledged?: boolean;
}

export interface CommandUpdate {
  commandId: string;
  state: CommandState;
  at: Date;
  evidence: CommandEvidence;
}

export interface EnergyRegisters {
  /** kWh, exact decimal text. */
  total: string;
  /** Tariffs 1..4 (State Grid: tip, peak, flat, valley). */
  tariffs: string[];
}

/** One poll of one meter, handed to the readings sink. Values are exact decimal text. */
export interface MeterReading {
  meterId: string;
  address: string;
  at: Date;
  energy?: EnergyRegisters;
  balance?: string;
  overdraft?: string;
  /** Local prepaid: purchases the meter has accepted (03330201). */
  purchaseCount?: number;
  relay?: dlt645.RelayState;
  /** Status word 3, 4 hex digits. */
  statusWord3?: string;
  /** Status word 1 (batteries, power direction), 4 hex digits. */
  statusWord1?: string;
  /** Total active power, kW as signed decimal text (negative: fed back). */
  activePower?: string;
  /** Modbus meters whose model has them: voltage in V and current in A (a three-phase model: phase A). */
  voltage?: string;
  current?: string;
  /** The meter's count of cover openings (03300D00), read once a day. */
  coverOpenCount?: number;
  /** Water: m³. */
  volume?: string;
  /** Water: the valve as status ST reports it; "abnormal" (11) is the valve-fault alarm. */
  valve?: cjt188.ValveState;
  batteryLow?: boolean;
  meterTime?: string | null;
  dailyFrozen?: { time: string | null; energy: EnergyRegisters };
  /** Items asked for but not delivered (timeout, error reply, undecodable). */
  missing: string[];
}

/** A concentrator's meter file after a sync: its rows (pn, address, protocol code, port, baud). */
export interface MeterFileEvent {
  collectorId: string;
  rows: { index: number; pn: number; address: string; protocol: number; port: number; baud: number | null }[];
  at: Date;
}

/** Collector (DTU, concentrator or 4G meter) presence, for the meters' online flag. */
export interface PresenceEvent {
  collectorId: string;
  online: boolean;
  meterIds: string[];
  at: Date;
  reason: string;
}

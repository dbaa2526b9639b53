/**
 * The detail pages of a room, an owner and a meter (room/overview, owner/overview, meter/overview,
 * water/overview): everything about one thing in one answer, labels joined. Money is in yuan
 * (two decimals), registers and usage are exact decimal text.
 */

/** 1 electric meter, 2 water meter. */
export type EnergyType = 1 | 2;

/** An account of a meter (open or the latest closed one), with its balance level. */
export interface DetailAccount {
  id: string;
  ownerId: string;
  ownerName: string;
  energyType: EnergyType;
  meterId: string;
  productCode: string;
  /** 1 open, 2 closed. */
  status: number;
  balance: string;
  /** ALARM_LEVEL: 0 normal, 1 low, 2 severely low, 3 arrears. */
  alarmLevel: number;
  arrearsStatus: number;
  controlStatus: number;
  /**
   * The last daily forecast of days until the balance is spent (1: that day), and the local day it
   * was made; absent when there is none, it said plenty, or a recharge raised the balance since.
   */
  forecast?: { days: number; day: string };
}

/** The latest values read from a meter (metercurrentdata). */
export interface DetailLiveReading {
  readTime: string;
  totalValue: string;
  balance: string | null;
  switchStatus: number | null;
}

/** A meter with its state, where it is installed, its live reading and its account. */
export interface DetailMeter {
  id: string;
  energyType: EnergyType;
  productCode: string;
  meterName: string;
  runStatus: number;
  accountStatus: number;
  switchStatus: number;
  onlineStatus: number;
  collectorId: string | null;
  collectorName: string;
  roomId: string | null;
  roomName: string;
  /** The room's areas from the park down, joined by " / ". */
  areaPath: string;
  reading: DetailLiveReading | null;
  account: DetailAccount | null;
}

/** One poll of a meter (dataread / waterdataread). */
export interface DetailReading {
  meterId: string;
  energyType: EnergyType;
  productCode: string;
  readTime: string;
  totalValue: string;
  balance: string | null;
  switchStatus: number | null;
}

/** One command sent to a meter (metercommand). */
export interface DetailCommand {
  id: string;
  meterId: string;
  energyType: EnergyType;
  productCode: string;
  commandType: string;
  /** What it does (拉闸, 合闸 …) and why it was sent (手动, 欠费自动断电 …), in both languages. */
  actionName: string;
  actionNameEn: string;
  whyName: string;
  whyNameEn: string;
  state: string;
  createTime: string;
  doneTime: string | null;
  /** An NB-IoT meter's command at its operator's platform: queued, sent, delivered, executed, failed, expired. */
  platformState: string | null;
  /** While such a command waits: when the sleeping meter is next expected to wake. */
  expectedWake: string | null;
}

/**
 * An alarm still open on one of the page's meters (a check record alarming): the rule by code, so
 * the reader's language names it, and the name the tenant's record carries for rules it renamed.
 */
export interface DetailAlarm {
  id: string;
  meterId: string;
  energyType: EnergyType;
  productCode: string;
  ruleCode: string;
  ruleName: string;
  /** ALARM_LEVEL for balance rules (1 low, 2 severely low, 3 arrears), 0 for meter checks. */
  alarmLevel: number;
  content: string;
  createTime: string;
  lastCheckTime: string;
}

/** One recharge, refund or correction booked for an owner (datarecharge). */
export interface DetailRecharge {
  id: string;
  energyType: EnergyType;
  meterId: string;
  productCode: string;
  /** RECHARGE_TYPE: 1 recharge, 2 refund, 3 correction plus, 4 correction minus. */
  rechargeType: number;
  paymentMethod: number;
  amount: string;
  receiptNo: string;
  operator: string;
  createTime: string;
}

/** Usage of the subject's meters per day (last 30 days) and per month (last 12), by energy. */
export interface DetailUsage {
  days: { period: string; electric: string; water: string }[];
  months: { period: string; electric: string; water: string }[];
}

export interface DetailRoomRef {
  id: string;
  roomName: string;
  areaPath: string;
}

export interface DetailOwnerRef {
  id: string;
  ownerName: string;
  phone: string;
}

export interface RoomOverview {
  room: DetailRoomRef & { roomCode: string; roomType: number; floorArea: string | null; areaId: string };
  owners: DetailOwnerRef[];
  meters: DetailMeter[];
  readings: DetailReading[];
  commands: DetailCommand[];
  alarms: DetailAlarm[];
  usage: DetailUsage;
}

export interface OwnerOverview {
  owner: DetailOwnerRef & { ownerCode: string; ownerType: number; balance: string; createTime: string };
  rooms: DetailRoomRef[];
  meters: DetailMeter[];
  recharges: DetailRecharge[];
  alarms: DetailAlarm[];
  usage: DetailUsage;
}

export interface MeterOverview {
  meter: DetailMeter & {
    protocol: string;
    meterType: number | null;
    controlStatus: number | null;
    ctRatio: number | null;
    channel: number | null;
    /** Modbus-RTU meters: the catalogue model and the slave address; null for others. */
    modbusModel: string | null;
    modbusSlave: number | null;
    chargingSchemeName: string;
    alarmSchemeName: string;
    installTime: string | null;
    remark: string;
  };
  owners: DetailOwnerRef[];
  readings: DetailReading[];
  commands: DetailCommand[];
  alarms: DetailAlarm[];
  usage: DetailUsage;
}

/** One row of a concentrator's meter file, with the registry's meter at its address and its last answer. */
export interface CollectorFileMeter {
  pn: number | null;
  address: string;
  /** The registry's protocol name (dlt698_45 …), or the file's code when it is none of them. */
  protocolName: string;
  port: number | null;
  meterId: string | null;
  meterName: string;
  onlineStatus: number;
  /** When the meter was last polled (its latest reading, answered or not). */
  lastPollTime: string | null;
  /** It answered that poll (its energy register came back). */
  answered: boolean;
}

/** A collector's page (collector/overview): its state and, for a concentrator, its meter file. */
export interface CollectorOverview {
  collector: {
    id: string;
    collectorName: string;
    collectorCode: string;
    collectorType: number;
    onlineStatus: number;
    lastOnlineTime: string | null;
    /** A Modbus TCP endpoint's host:port the gateway dials ([v6]:port for IPv6); null for others. */
    modbusEndpoint: string | null;
  };
  /** When the gateway last reported the file; null before any (or for a DTU). */
  fileTime: string | null;
  /** The file as the gateway last wrote it, in pn order. */
  file: CollectorFileMeter[];
  /** The registry's meters behind it that the file does not hold. */
  notFiled: CollectorFileMeter[];
}

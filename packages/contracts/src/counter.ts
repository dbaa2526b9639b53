/**
 * The recharge counter's search (充值收费, `GET /api/blade-pms/ownerRecharge/search`): one box read
 * as a building and room ("2号楼 305", "2-305", "2#305" …), a room's name or code, an owner's name,
 * a phone (whole or its last digits) or a meter number (whole or its last digits). Each hit is a room
 * with its owner and every meter of the room on its own, or an owner who has no room.
 * Parameters: keyword, alarmLevel (1–3: only hits with a meter at that level), current, size, and
 * tenantId for the platform administrator.
 */
export const COUNTER_SEARCH_PATH = "/api/blade-pms/ownerRecharge/search";
/** Longest keyword the counter takes; longer is a 400 naming `keyword`. */
export const COUNTER_MAX_KEYWORD = 64;

/** One open account of an owner (as ownerRecharge/page lists them); balance in yuan text. */
export interface OwnerAccount {
  id: string;
  /** 1 electric, 2 water. */
  energyType: number;
  meterId: string;
  productCode: string;
  roomName: string;
  /** CONTROL_STATUS: 1 the server keeps the balance (remote control), 0 the meter does (local prepaid). */
  controlStatus: number;
  balance: string;
  /** ALARM_LEVEL: 0 normal, 1 low, 2 severely low, 3 arrears. */
  alarmLevel: number;
  arrearsStatus: number;
}

export interface OwnerWithAccounts {
  id: string;
  /** Whose owner this is: the platform administrator's counter lists every tenant's. */
  tenantId: string;
  tenantName: string;
  ownerName: string;
  ownerCode: string;
  phone: string;
  balance: string;
  alarmLevel: number;
  accounts: OwnerAccount[];
}

/** One meter of a hit's room, on its own line: never added to another. */
export interface CounterMeter {
  /** 1 electric, 2 water. */
  energyType: 1 | 2;
  meterId: string;
  productCode: string;
  /**
   * SWITCH_STATUS as the meter last reported it or a confirmed switch left it: 0 supply on (relay
   * closed, valve open), 1 cut off (relay open, valve closed).
   */
  switchStatus: 0 | 1;
  /** The meter's open account, or null when none is open on it. */
  account: {
    id: string;
    /** Yuan, two places: this meter's balance alone. */
    balance: string;
    /** ALARM_LEVEL: 0 normal, 1 low, 2 severely low, 3 arrears. */
    alarmLevel: number;
    /** CONTROL_STATUS: 1 the server keeps the balance, 0 the meter does. */
    controlStatus: number;
  } | null;
}

/**
 * Why a hit was found, in the order hits are ranked: the room itself (building and room, its name
 * or code), its owner (name, phone), one of its meters, or a looser match of the room (part of its
 * name or code, a whole building, words of its areas). `all` when no keyword was given.
 */
export type CounterMatch = "room" | "owner" | "meter" | "partial" | "all";

export interface CounterHit {
  /** The room's id, or for an owner without a room `owner-` and the owner's id. */
  key: string;
  tenantId: string;
  tenantName: string;
  matched: CounterMatch;
  /** The room with its areas as people say it ("2号楼 305"); null for an owner who has no room. */
  room: { id: string; roomName: string; roomCode: string; label: string } | null;
  /** The room's owner with every open account (what the counter books on); null for a vacant room. */
  owner: OwnerWithAccounts | null;
  /** The room's meters; for an owner without a room, the meters of the owner's open accounts. */
  meters: CounterMeter[];
}

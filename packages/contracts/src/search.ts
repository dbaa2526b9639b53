/**
 * The console's global search (`GET /api/blade-pms/search`): rooms, owners, meters and collectors
 * whose text holds every word of the keyword, a few of each kind, inside the caller's tenant.
 */
export const GLOBAL_SEARCH_PATH = "/api/blade-pms/search";
/** Longest keyword the search takes, and the most words it matches. */
export const GLOBAL_SEARCH_MAX_KEYWORD = 64;
export const GLOBAL_SEARCH_MAX_WORDS = 6;
/** Rows of each kind answered: `limit` defaults to the first and may not exceed the second. */
export const GLOBAL_SEARCH_DEFAULT_LIMIT = 5;
export const GLOBAL_SEARCH_MAX_LIMIT = 20;

export interface RoomHit {
  id: string;
  roomName: string;
  roomCode: string | null;
  areaId: string;
  /** The room with its areas, park first: "阳光公寓 / 2号楼 / 305". */
  path: string;
}

export interface OwnerHit {
  id: string;
  ownerName: string;
  ownerCode: string | null;
  phone: string | null;
  /** The last four characters of the id-card number: enough to tell two owners apart. */
  idCardTail: string | null;
}

export interface MeterHit {
  id: string;
  /** 1 electric (`meter`), 2 water (`water`). */
  energyType: 1 | 2;
  productCode: string;
  meterName: string | null;
}

export interface CollectorHit {
  id: string;
  collectorCode: string;
  collectorName: string;
}

/** A kind the caller may not read answers an empty list, as does a kind with no match. */
export interface GlobalSearchResult {
  rooms: RoomHit[];
  owners: OwnerHit[];
  meters: MeterHit[];
  collectors: CollectorHit[];
}

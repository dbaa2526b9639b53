import type { ResourceDef } from "@meterline/contracts";
import type { Queryable } from "../../db/client.ts";
import { MODBUS_TCP_TRANSPORT } from "../pms/modbus-endpoint-rules.ts";

export interface AreaNode {
  id: string;
  parentId: string;
  name: string;
}
export interface RoomNode {
  id: string;
  areaId: string;
  name: string;
}
export interface OwnerNode {
  id: string;
  name: string;
  code: string | null;
}
export interface SchemeNode {
  id: string;
  name: string;
  energyType: EnergyType;
}
/** Energy types of the `energy_type` dictionary: 1 electric (pms_meter), 2 water (pms_water). */
export type EnergyType = 1 | 2;

const roomKey = (areaId: string, name: string) => `${areaId}/${name}`;
const linkKey = (energy: EnergyType, meterId: string) => `${energy}:${meterId}`;

/**
 * One tenant's registry as the import sees it: loaded with a handful of queries, then grown row by
 * row as rows are accepted, so each row is judged against the stored rows and every accepted row
 * before it. Nothing here touches the database after loading.
 */
export class RegistrySnapshot {
  private readonly areas = new Map<string, AreaNode>();
  private readonly areaChildren = new Map<string, Map<string, AreaNode>>();
  private readonly rooms = new Map<string, RoomNode>();
  private readonly roomsById = new Map<string, RoomNode>();
  private readonly owners = new Map<string, OwnerNode>();
  private readonly ownerByCode = new Map<string, OwnerNode>();
  private readonly roomOwner = new Map<string, string>();
  private readonly meters: Record<EnergyType, Map<string, string>> = { 1: new Map(), 2: new Map() };
  private readonly meterRoom = new Map<string, string>();
  readonly collectors = new Map<string, string>();
  /** Ids of the collectors that are Modbus TCP endpoints (transport "modbus"): only Modbus TCP meters go there. */
  readonly modbusEndpoints = new Set<string>();
  readonly chargingSchemes = new Map<string, SchemeNode>();
  readonly alarmSchemes = new Map<string, SchemeNode>();
  /** Allowed keys per dictionary: `dict:<code>` (system) or `biz:<code>` (the tenant's). */
  readonly dictionaryKeys = new Map<string, Set<string>>();
  /** Room type labels of the `room_type` dictionary (住宅 …) to their keys. */
  readonly roomTypeByLabel = new Map<string, string>();
  /** CONTROL_STATUS label → key, with the sheet's own words 远程控制 and 本地预付费. */
  readonly controlStatusByLabel = new Map<string, string>([
    ["远程控制", "1"],
    ["本地预付费", "0"],
  ]);
  /** Choices of the `meter_protocol` and `collector_type` dictionaries: key, zh and en label. */
  readonly choices = new Map<string, DictionaryChoices>();

  addArea(area: AreaNode): void {
    this.areas.set(area.id, area);
    const children = this.areaChildren.get(area.parentId) ?? new Map<string, AreaNode>();
    this.areaChildren.set(area.parentId, children);
    children.set(area.name, area);
  }
  areaChild(parentId: string, name: string): AreaNode | undefined {
    return this.areaChildren.get(parentId)?.get(name);
  }
  /** The area and its ancestors from the root down; bounded, so a corrupt parent cycle cannot hang. */
  private chain(areaId: string): AreaNode[] {
    const chain: AreaNode[] = [];
    for (let a = this.areas.get(areaId); a && chain.length < 64; a = this.areas.get(a.parentId))
      chain.unshift(a);
    return chain;
  }
  /** The area's names from the root down, joined by `/` as the sheet writes them. */
  areaPath(areaId: string): string {
    return this.chain(areaId)
      .map((a) => a.name)
      .join("/");
  }
  /**
   * The `ancestors` of a new child of `parentId`, as the tree rules compute them: `0` for a root,
   * else the parent's ancestors followed by the parent. Derived from parent links, which every area
   * has, rather than read from a column.
   */
  childAncestors(parentId: string): string {
    return ["0", ...this.chain(parentId).map((a) => a.id)].join(",");
  }

  addRoom(room: RoomNode): void {
    this.rooms.set(roomKey(room.areaId, room.name), room);
    this.roomsById.set(room.id, room);
  }
  room(areaId: string, name: string): RoomNode | undefined {
    return this.rooms.get(roomKey(areaId, name));
  }
  roomById(roomId: string): RoomNode | undefined {
    return this.roomsById.get(roomId);
  }
  roomPath(room: RoomNode): string {
    return `${this.areaPath(room.areaId)}/${room.name}`;
  }

  addOwner(owner: OwnerNode): void {
    this.owners.set(owner.id, owner);
    if (owner.code) this.ownerByCode.set(owner.code, owner);
  }
  ownerWithCode(code: string): OwnerNode | undefined {
    return this.ownerByCode.get(code);
  }
  ownerOfRoom(roomId: string): OwnerNode | undefined {
    const ownerId = this.roomOwner.get(roomId);
    return ownerId === undefined ? undefined : this.owners.get(ownerId);
  }
  linkOwner(roomId: string, ownerId: string): void {
    this.roomOwner.set(roomId, ownerId);
  }

  addMeter(energy: EnergyType, code: string, id: string): void {
    this.meters[energy].set(code, id);
  }
  meterId(energy: EnergyType, code: string): string | undefined {
    return this.meters[energy].get(code);
  }
  /** The room a meter is installed in, if any. */
  roomOfMeter(energy: EnergyType, meterId: string): string | undefined {
    return this.meterRoom.get(linkKey(energy, meterId));
  }
  linkMeter(energy: EnergyType, meterId: string, roomId: string): void {
    this.meterRoom.set(linkKey(energy, meterId), roomId);
  }
}

/** A dictionary's entries in order, and each key, zh label and en label (compared loosely) to its key. */
export interface DictionaryChoices {
  entries: { key: string; label: string }[];
  byText: Map<string, string>;
}
/** How a label is compared: case, blanks and full-width slashes do not count ("dl/t698.45"). */
export const choiceText = (text: string) =>
  text
    .replace(/[\s\u3000]/g, "")
    .replace(/／/g, "/")
    .toLowerCase();
/** Dictionaries whose labels the sheets may name. */
const CHOICE_DICTS = ["meter_protocol", "collector_type", "modbus_model"];

/** Dictionary codes the given definitions' fields draw on, split by kind. */
function dictionaryCodes(defs: readonly ResourceDef[]) {
  const system = new Set<string>();
  const business = new Set<string>();
  for (const def of defs) {
    for (const field of Object.values(def.fields)) {
      if (field.dict) system.add(field.dict);
      if (field.dictBiz) business.add(field.dictBiz);
    }
  }
  return { system: [...system], business: [...business] };
}

/** Loads the tenant's live registry rows, dictionaries included, in eleven queries. */
export async function loadSnapshot(
  db: Queryable,
  tenantId: string,
  defs: readonly ResourceDef[],
): Promise<RegistrySnapshot> {
  const snapshot = new RegistrySnapshot();
  const live = "tenant_id = $1 and is_deleted = 0";
  const areas = await db.query<{ id: string; parent_id: string | null; area_name: string }>(
    `select id::text, parent_id::text, area_name from pms_area where ${live}`,
    [tenantId],
  );
  for (const a of areas) snapshot.addArea({ id: a.id, parentId: a.parent_id ?? "0", name: a.area_name });
  const rooms = await db.query<{ id: string; area_id: string; room_name: string }>(
    `select id::text, area_id::text, room_name from pms_room where ${live}`,
    [tenantId],
  );
  for (const r of rooms) snapshot.addRoom({ id: r.id, areaId: r.area_id, name: r.room_name });
  const owners = await db.query<{ id: string; owner_name: string; owner_code: string | null }>(
    `select id::text, owner_name, owner_code from pms_owner where ${live}`,
    [tenantId],
  );
  for (const o of owners) snapshot.addOwner({ id: o.id, name: o.owner_name, code: o.owner_code });
  const ownerRooms = await db.query<{ room_id: string; owner_id: string }>(
    `select room_id::text, owner_id::text from pms_owner_room where ${live}`,
    [tenantId],
  );
  for (const l of ownerRooms) snapshot.linkOwner(l.room_id, l.owner_id);
  for (const [energy, table] of [
    [1, "pms_meter"],
    [2, "pms_water"],
  ] as const) {
    const meters = await db.query<{ id: string; product_code: string }>(
      `select id::text, product_code from ${table} where ${live}`,
      [tenantId],
    );
    for (const m of meters) snapshot.addMeter(energy, m.product_code, m.id);
  }
  const roomMeters = await db.query<{ energy_type: number; meter_id: string; room_id: string }>(
    `select energy_type, meter_id::text, room_id::text from pms_room_meter where ${live}`,
    [tenantId],
  );
  for (const l of roomMeters) {
    if (l.energy_type === 1 || l.energy_type === 2) snapshot.linkMeter(l.energy_type, l.meter_id, l.room_id);
  }
  const collectors = await db.query<{ id: string; collector_code: string; transport: string }>(
    `select id::text, collector_code, transport from pms_collector where ${live}`,
    [tenantId],
  );
  for (const c of collectors) {
    snapshot.collectors.set(c.collector_code, c.id);
    if (c.transport === MODBUS_TCP_TRANSPORT) snapshot.modbusEndpoints.add(c.id);
  }
  for (const [target, table] of [
    [snapshot.chargingSchemes, "pms_charging_scheme"],
    [snapshot.alarmSchemes, "pms_alarm_scheme"],
  ] as const) {
    const schemes = await db.query<{ id: string; scheme_name: string; energy_type: number }>(
      `select id::text, scheme_name, energy_type from ${table} where ${live}`,
      [tenantId],
    );
    for (const s of schemes) {
      if (s.energy_type === 1 || s.energy_type === 2)
        target.set(s.scheme_name, { id: s.id, name: s.scheme_name, energyType: s.energy_type });
    }
  }
  await loadDictionaries(db, tenantId, defs, snapshot);
  return snapshot;
}

async function loadDictionaries(
  db: Queryable,
  tenantId: string,
  defs: readonly ResourceDef[],
  snapshot: RegistrySnapshot,
): Promise<void> {
  const codes = dictionaryCodes(defs);
  const entries = await db.query<{
    kind: string;
    code: string;
    dict_key: string;
    dict_value: string;
    dict_value_en: string | null;
  }>(
    `select * from (
       select 'dict' as kind, code, dict_key, dict_value, dict_value_en, sort, id from sys_dict
        where code = any($1::text[]) and parent_id > 0 and is_deleted = 0
       union all
       select 'biz', code, dict_key, dict_value, dict_value_en, sort, id from sys_dict_biz
        where code = any($2::text[]) and parent_id > 0 and is_deleted = 0 and tenant_id = $3) d
      order by sort, id`,
    [codes.system, codes.business, tenantId],
  );
  for (const e of entries) {
    const key = `${e.kind}:${e.code}`;
    const keys = snapshot.dictionaryKeys.get(key) ?? new Set<string>();
    snapshot.dictionaryKeys.set(key, keys);
    keys.add(e.dict_key);
    if (key === "dict:room_type") snapshot.roomTypeByLabel.set(e.dict_value, e.dict_key);
    if (key === "biz:CONTROL_STATUS") snapshot.controlStatusByLabel.set(e.dict_value, e.dict_key);
    if (e.kind === "dict" && CHOICE_DICTS.includes(e.code)) {
      const choices = snapshot.choices.get(e.code) ?? { entries: [], byText: new Map<string, string>() };
      snapshot.choices.set(e.code, choices);
      choices.entries.push({ key: e.dict_key, label: e.dict_value });
      for (const text of [e.dict_key, e.dict_value, e.dict_value_en]) {
        if (text && !choices.byText.has(choiceText(text))) choices.byText.set(choiceText(text), e.dict_key);
      }
    }
  }
}

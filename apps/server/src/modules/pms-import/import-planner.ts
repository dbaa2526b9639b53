import { resources } from "@meterline/contracts";
import { columnByName } from "../../crud/columns.ts";
import { nextId } from "../../db/ids.ts";
import { MODBUS_PROTOCOLS, MODBUS_TCP } from "../pms/modbus-meter-rules.ts";
import { type ColumnKey, headerOf, MAX_AREA_DEPTH, type RowText } from "./import-columns.ts";
import type { ImportPlan } from "./import-plan.ts";
import type { SheetRow } from "./import-sheet.ts";
import {
  type AreaNode,
  choiceText,
  type EnergyType,
  type OwnerNode,
  type RegistrySnapshot,
  type RoomNode,
  type SchemeNode,
} from "./registry-snapshot.ts";
import { checkPart, dictionaryReasons, type Labels, type Values } from "./row-values.ts";

const { area, room, owner, ownerRoom, roomMeter, meter, water } = resources;

const labelsOf = (map: Record<string, ColumnKey>): Labels =>
  Object.fromEntries(Object.entries(map).map(([field, key]) => [field, headerOf(key)]));
const AREA_LABELS = labelsOf({ areaName: "areaPath", parentId: "areaPath", areaType: "areaPath" });
const ROOM_LABELS = labelsOf({
  areaId: "areaPath",
  roomName: "roomName",
  roomCode: "roomCode",
  roomType: "roomType",
  floorArea: "floorArea",
});
const OWNER_LABELS = labelsOf({
  ownerName: "ownerName",
  ownerCode: "ownerCode",
  phone: "phone",
  idCard: "idCard",
});
const meterLabels = (address: ColumnKey) =>
  labelsOf({
    productCode: address,
    collectorId: "collectorCode",
    channel: "channel",
    chargingSchemeId: "chargingScheme",
    alarmSchemeId: "alarmScheme",
    controlStatus: "controlMode",
    protocol: "meterProtocol",
    modbusModel: "modbusModel",
    modbusSlave: "modbusSlave",
  });
const ENERGIES = [
  {
    energy: 1,
    def: meter,
    address: "meterCode",
    initial: "meterInitial",
    name: "电表",
    labels: meterLabels("meterCode"),
  },
  {
    energy: 2,
    def: water,
    address: "waterCode",
    initial: "waterInitial",
    name: "水表",
    labels: meterLabels("waterCode"),
  },
] as const;
/** A register reading as meters show it: kWh or m³ with at most two decimals. */
const READING = /^\d{1,10}(\.\d{1,2})?$/;
/** 远程控制 (CONTROL_STATUS 1): what a new site expects, so a blank cell means it. */
const REMOTE_CONTROL = "1";

/** CJ/T 188 speaks for water meters: never an electric meter's protocol. */
const isWaterProtocol = (key: string) => key.startsWith("cjt188");

/** Area type of a new level by its depth: park, building, unit, then floors all the way down. */
const areaTypeAt = (depth: number) => Math.min(depth, 4);
const SCHEME_SEPARATORS = /[,，、;；]/;
const PATH_SEPARATORS = /[/／]/;

/** What one row would add; kept apart until the whole row is known to be good. */
interface Draft {
  areas: { node: AreaNode; values: Values }[];
  room?: { node: RoomNode; values: Values };
  roomId?: string;
  owner?: { node: OwnerNode; values: Values };
  ownerLink?: { ownerId: string; ownerName: string; created: boolean; values: Values };
  meters: { energy: EnergyType; code: string; id: string; values: Values; initial?: string }[];
  meterLinks: { energy: EnergyType; meterId: string; values: Values }[];
}

/**
 * Decides, in memory, what every row of a registry sheet does. The rules:
 *
 * - 区域路径 names the area from the root down, levels separated by `/` (or `／`), at most
 *   MAX_AREA_DEPTH levels, none blank. Each level is the live area of that name under the level
 *   before it; a missing level is created with the area type of its depth (1 park, 2 building,
 *   3 unit, 4 and deeper floor). Existing areas are used whatever their type.
 * - 房间名称 is required. A room of that name in that area is reused as it is (its code, type and
 *   area are not changed); otherwise it is created with 房间编码, 房间类型 (a label such as 住宅 or a
 *   key of the `room_type` dictionary, 住宅 when blank) and 面积.
 * - The row names an owner when any of 业主姓名, 业主编号, 手机号码, 身份证号 is given.
 *   With 业主编号 the owner is the live owner with that code, or a new one with it; a code that
 *   already belongs to an owner of another name is a rejected row. Without it, the owner is the
 *   room's current owner when the names are equal, otherwise a new owner. An existing owner is never
 *   changed by the import. A room has one owner: a room whose owner is someone else is a rejected row;
 *   a room without an owner is linked to the row's owner.
 * - 电表表号 (12 digits) and 水表表号 (14 digits): an address seen in an earlier row of the same file
 *   is a rejected row. A stored meter is reused when it is installed in this room, linked to it when
 *   it is installed nowhere, and a rejected row when it is installed in another room. A new meter is
 *   created with the row's collector, channel and schemes and linked to the room.
 * - 电表规约 is a label (DL/T 698.45) or key of `meter_protocol` other than the water protocols; blank
 *   keeps the definition's default (DL/T 645-2007). It describes the row's new electric meter.
 * - 电表控制方式 is 远程控制 (blank) or 本地预付费 (or the tenant's CONTROL_STATUS label or key); 电表初始读数
 *   and 水表初始读数 are the registers at install, stored as the new meter's initial reading. They
 *   describe the row's electric or water meter, so a row without that address may not give them.
 * - 采集器注册码 must name a live collector of the tenant; 通道号 is 0–255 (1 when blank). Both describe
 *   the row's meters, so a row without a meter address may not give them.
 * - 收费方案 and 告警方案 name schemes of the tenant, at most one per energy type, several separated by
 *   `,`; each applies to the row's new meter of its energy type, and naming a scheme whose energy type
 *   has no meter address in the row is a rejected row.
 * - Every value passes the same checks as the engine's create (lengths, patterns, ranges,
 *   dictionaries), with reasons naming the sheet's column. A row is accepted only when all its parts
 *   are; a rejected row changes nothing, and later rows are judged as if it were absent (apart from
 *   the duplicate-address rule). A row whose every part already exists is accepted and creates
 *   nothing, so importing a file again creates nothing new.
 */
export class ImportPlanner {
  private readonly plan: ImportPlan = {
    total: 0,
    accepted: 0,
    unchanged: 0,
    rejected: [],
    areas: [],
    rooms: [],
    owners: [],
    ownerRooms: [],
    meters: [],
    waters: [],
    roomMeters: [],
    origValues: [],
    ownerLog: new Map(),
  };
  /** Row where each meter address was first seen, accepted or not: the duplicate rule. */
  private readonly firstSeen: Record<EnergyType, Map<string, number>> = { 1: new Map(), 2: new Map() };
  private readonly ancestorsColumn = area.tree.ancestors
    ? columnByName(area, "ancestors")?.column
    : undefined;

  /** The read time of the initial readings this import stores: the meters' install. */
  private readonly importedAt = new Date();

  constructor(
    private readonly snapshot: RegistrySnapshot,
    private readonly timeZone: string,
  ) {}

  planAll(rows: readonly SheetRow[]): ImportPlan {
    for (const row of rows) this.decide(row);
    return this.plan;
  }

  private decide(row: SheetRow): void {
    this.plan.total++;
    const t = row.text;
    const reasons = [...row.problems];
    const draft: Draft = { areas: [], meters: [], meterLinks: [] };
    const areaId = this.resolveArea(t.areaPath, draft, reasons);
    const roomValues = this.checkRoom(t, areaId, reasons);
    const ownerValues = this.checkOwner(t, reasons);
    const meters = this.checkMeters(row, reasons);
    if (areaId && roomValues) {
      const roomId = this.resolveRoom(areaId, roomValues, draft);
      if (ownerValues) this.resolveOwner(t, roomId, ownerValues, draft, reasons);
      for (const m of meters) this.resolveMeter(m, roomId, draft, reasons);
    }
    if (reasons.length > 0) {
      this.plan.rejected.push({ row: row.row, text: t, reason: [...new Set(reasons)].join("; ") });
    } else {
      this.commit(draft);
    }
  }

  /** The area id of the path, staging the levels that do not exist yet. */
  private resolveArea(path: string, draft: Draft, reasons: string[]): string | undefined {
    const header = headerOf("areaPath");
    if (path === "") return void reasons.push(`${header}: 不能为空`);
    const levels = path.split(PATH_SEPARATORS).map((level) => level.trim());
    if (levels.some((level) => level === "")) return void reasons.push(`${header}: 层级名称不能为空`);
    if (levels.length > MAX_AREA_DEPTH) return void reasons.push(`${header}: 最多 ${MAX_AREA_DEPTH} 级`);
    let parentId = "0";
    let ancestors = "0";
    for (const [index, name] of levels.entries()) {
      const known = draft.areas.length === 0 ? this.snapshot.areaChild(parentId, name) : undefined;
      if (known) {
        parentId = known.id;
        continue;
      }
      // Ancestors of a new level: the stored chain for the first one, then extended level by level.
      ancestors =
        draft.areas.length === 0 ? this.snapshot.childAncestors(parentId) : `${ancestors},${parentId}`;
      const check = checkPart(
        area,
        { parentId, areaName: name, areaType: areaTypeAt(index + 1) },
        AREA_LABELS,
        this.timeZone,
      );
      if (!check.values) return void reasons.push(...check.reasons);
      reasons.push(...dictionaryReasons(area, check.values, this.snapshot.dictionaryKeys, AREA_LABELS));
      const node = { id: nextId(), parentId, name };
      const values = this.ancestorsColumn
        ? { ...check.values, [this.ancestorsColumn]: ancestors }
        : check.values;
      draft.areas.push({ node, values });
      parentId = node.id;
    }
    return parentId;
  }

  private checkRoom(t: RowText, areaId: string | undefined, reasons: string[]): Values | undefined {
    const roomType = this.roomTypeKey(t.roomType, reasons);
    const body = {
      areaId: areaId ?? "0",
      roomName: t.roomName,
      roomCode: t.roomCode,
      roomType,
      floorArea: t.floorArea,
    };
    const check = checkPart(room, body, ROOM_LABELS, this.timeZone);
    reasons.push(...check.reasons);
    if (!check.values) return undefined;
    const bad = dictionaryReasons(room, check.values, this.snapshot.dictionaryKeys, ROOM_LABELS);
    reasons.push(...bad);
    return bad.length === 0 && roomType !== null ? check.values : undefined;
  }

  /** A room type given as its label (住宅) or its key (1); null when it is neither. */
  private roomTypeKey(text: string, reasons: string[]): string | undefined | null {
    if (text === "") return undefined;
    const key = this.snapshot.roomTypeByLabel.get(text);
    if (key !== undefined) return key;
    if ([...this.snapshot.roomTypeByLabel.values()].includes(text)) return text;
    const labels = [...this.snapshot.roomTypeByLabel.keys()].join("、");
    reasons.push(`${headerOf("roomType")}: [${text}] 不存在, 可选 ${labels}`);
    return null;
  }

  private checkOwner(t: RowText, reasons: string[]): Values | undefined {
    if (!(t.ownerName || t.ownerCode || t.phone || t.idCard)) return undefined;
    const body = { ownerName: t.ownerName, ownerCode: t.ownerCode, phone: t.phone, idCard: t.idCard };
    const check = checkPart(owner, body, OWNER_LABELS, this.timeZone);
    reasons.push(...check.reasons);
    if (!check.values) return undefined;
    const bad = dictionaryReasons(owner, check.values, this.snapshot.dictionaryKeys, OWNER_LABELS);
    reasons.push(...bad);
    return bad.length === 0 ? check.values : undefined;
  }

  /** The row's meters with their checked values; also records first sightings of addresses. */
  private checkMeters(row: SheetRow, reasons: string[]) {
    const t = row.text;
    const present = ENERGIES.filter((e) => t[e.address] !== "");
    if (present.length === 0) {
      for (const key of ["collectorCode", "channel"] as const) {
        if (t[key] !== "") reasons.push(`${headerOf(key)}: 本行没有电表表号或水表表号`);
      }
    }
    for (const key of [
      "controlMode",
      "meterInitial",
      "meterProtocol",
      "modbusModel",
      "modbusSlave",
    ] as const) {
      if (t[key] !== "" && t.meterCode === "") reasons.push(`${headerOf(key)}: 本行没有电表表号`);
    }
    if (t.waterInitial !== "" && t.waterCode === "")
      reasons.push(`${headerOf("waterInitial")}: 本行没有水表表号`);
    const controlStatus = this.controlStatusKey(t.controlMode, reasons);
    const protocol = this.protocolKey(t.meterProtocol, reasons);
    const modbus = this.modbusValues(t, protocol, reasons);
    let collectorId: string | undefined;
    if (t.collectorCode !== "") {
      collectorId = this.snapshot.collectors.get(t.collectorCode);
      if (!collectorId) reasons.push(`${headerOf("collectorCode")}: [${t.collectorCode}] 不存在`);
    }
    if (t.meterCode !== "") this.checkEndpoint(t, collectorId, protocol, reasons);
    const energies = new Set<EnergyType>(present.map((e) => e.energy));
    const charging = this.resolveSchemes(
      "chargingScheme",
      this.snapshot.chargingSchemes,
      energies,
      t,
      reasons,
    );
    const alarm = this.resolveSchemes("alarmScheme", this.snapshot.alarmSchemes, energies, t, reasons);
    const checked: { energy: EnergyType; code: string; values: Values; initial?: string }[] = [];
    for (const e of present) {
      const code = t[e.address];
      const header = headerOf(e.address);
      const initial = t[e.initial];
      if (initial !== "" && !READING.test(initial))
        reasons.push(`${headerOf(e.initial)}: [${initial}] 须为不小于 0 的读数, 最多 2 位小数`);
      const body = {
        productCode: code,
        collectorId,
        channel: t.channel,
        chargingSchemeId: charging[e.energy],
        alarmSchemeId: alarm[e.energy],
        ...(e.energy === 1
          ? {
              controlStatus: controlStatus ?? REMOTE_CONTROL,
              protocol: protocol ?? undefined,
              ...(modbus ?? {}),
            }
          : {}),
      };
      const check = checkPart(e.def, body, e.labels, this.timeZone);
      reasons.push(...check.reasons);
      // Only a well-formed address can repeat one: a malformed one is reported as malformed.
      if (check.reasons.some((reason) => reason.startsWith(`${header}: `))) continue;
      const first = this.firstSeen[e.energy].get(code);
      if (first === undefined) this.firstSeen[e.energy].set(code, row.row);
      // A duplicate is reported once, as a duplicate, not again as installed in the first row's room.
      else reasons.push(`${header}: [${code}] 与第 ${first} 行重复`);
      if (!check.values || first !== undefined) continue;
      const bad = dictionaryReasons(e.def, check.values, this.snapshot.dictionaryKeys, e.labels);
      reasons.push(...bad);
      if (
        bad.length === 0 &&
        controlStatus !== null &&
        (e.energy === 2 || (protocol !== null && modbus !== null))
      )
        checked.push({ energy: e.energy, code, values: check.values, initial: initial || undefined });
    }
    return checked;
  }

  /** 电表控制方式 by its label (远程控制, 本地预付费, or the tenant's own label) or key; null when unknown. */
  private controlStatusKey(text: string, reasons: string[]): string | undefined | null {
    if (text === "") return undefined;
    const key = this.snapshot.controlStatusByLabel.get(text);
    if (key !== undefined) return key;
    if ([...this.snapshot.controlStatusByLabel.values()].includes(text)) return text;
    const labels = [...this.snapshot.controlStatusByLabel.keys()].join("、");
    reasons.push(`${headerOf("controlMode")}: [${text}] 不存在, 可选 ${labels}`);
    return null;
  }

  /**
   * 电表规约 by a label (DL/T 698.45) or key of `meter_protocol`, compared loosely; undefined when
   * blank (the definition's default), null when unknown. Water protocols (CJ/T 188) are not offered.
   */
  private protocolKey(text: string, reasons: string[]): string | undefined | null {
    if (text === "") return undefined;
    const choices = this.snapshot.choices.get("meter_protocol");
    const key = choices?.byText.get(choiceText(text));
    if (key !== undefined && !isWaterProtocol(key)) return key;
    const labels = (choices?.entries ?? []).filter((e) => !isWaterProtocol(e.key)).map((e) => e.label);
    reasons.push(`${headerOf("meterProtocol")}: [${text}] 不存在, 可选 ${labels.join("、")}`);
    return null;
  }

  /** As the meter form: a Modbus TCP meter on a Modbus TCP collector, and only such meters there. */
  private checkEndpoint(
    t: RowText,
    collectorId: string | undefined,
    protocol: string | undefined | null,
    reasons: string[],
  ): void {
    if (protocol === null) return;
    const endpoint = collectorId !== undefined && this.snapshot.modbusEndpoints.has(collectorId);
    if (protocol === MODBUS_TCP && !endpoint)
      reasons.push(`${headerOf("collectorCode")}: Modbus TCP 电表须接在 Modbus TCP 直连的采集器下`);
    if (protocol !== MODBUS_TCP && endpoint)
      reasons.push(
        `${headerOf("meterProtocol")}: 采集器 [${t.collectorCode}] 为 Modbus TCP 直连, 只能接 Modbus TCP 电表`,
      );
  }

  /**
   * Modbus型号 (a key or label of the catalogue's `modbus_model` dictionary) and Modbus从站地址: both
   * required for a Modbus-RTU or Modbus TCP meter and only for one; null when a cell is wrong.
   */
  private modbusValues(
    t: RowText,
    protocol: string | undefined | null,
    reasons: string[],
  ): { modbusModel?: string; modbusSlave?: string } | null {
    const modbus = MODBUS_PROTOCOLS.includes(protocol);
    const before = reasons.length;
    for (const key of ["modbusModel", "modbusSlave"] as const) {
      if (modbus && t[key] === "") reasons.push(`${headerOf(key)}: Modbus-RTU 或 Modbus TCP 电表必填`);
      if (!modbus && protocol !== null && t[key] !== "")
        reasons.push(`${headerOf(key)}: 只用于电表规约为 Modbus-RTU 或 Modbus TCP 的电表`);
    }
    let modbusModel: string | undefined;
    if (modbus && t.modbusModel !== "") {
      const choices = this.snapshot.choices.get("modbus_model");
      modbusModel = choices?.byText.get(choiceText(t.modbusModel));
      if (modbusModel === undefined)
        reasons.push(
          `${headerOf("modbusModel")}: [${t.modbusModel}] 不存在, 可选 ${(choices?.entries ?? []).map((e) => e.label).join("、")}`,
        );
    }
    if (reasons.length > before) return null;
    return modbus ? { modbusModel, modbusSlave: t.modbusSlave } : {};
  }

  /** Scheme ids by energy type from a cell of scheme names. */
  private resolveSchemes(
    key: "chargingScheme" | "alarmScheme",
    schemes: ReadonlyMap<string, SchemeNode>,
    energies: ReadonlySet<EnergyType>,
    t: RowText,
    reasons: string[],
  ): Partial<Record<EnergyType, string>> {
    const header = headerOf(key);
    const chosen: Partial<Record<EnergyType, string>> = {};
    const names = t[key]
      .split(SCHEME_SEPARATORS)
      .map((n) => n.trim())
      .filter(Boolean);
    for (const name of names) {
      const scheme = schemes.get(name);
      if (!scheme) {
        reasons.push(`${header}: [${name}] 不存在`);
        continue;
      }
      const kind = ENERGIES.find((e) => e.energy === scheme.energyType)!.name;
      if (!energies.has(scheme.energyType))
        reasons.push(`${header}: [${name}] 是${kind}方案, 本行没有${kind}表号`);
      else if (chosen[scheme.energyType]) reasons.push(`${header}: ${kind}只能指定一个方案`);
      else chosen[scheme.energyType] = scheme.id;
    }
    return chosen;
  }

  private resolveRoom(areaId: string, values: Values, draft: Draft): string {
    const name = String(values.room_name);
    const known = draft.areas.length === 0 ? this.snapshot.room(areaId, name) : undefined;
    if (known) {
      draft.roomId = known.id;
    } else {
      const node = { id: nextId(), areaId, name };
      draft.room = { node, values };
      draft.roomId = node.id;
    }
    return draft.roomId;
  }

  private resolveOwner(t: RowText, roomId: string, values: Values, draft: Draft, reasons: string[]): void {
    const current = draft.room ? undefined : this.snapshot.ownerOfRoom(roomId);
    let chosen: OwnerNode | undefined;
    if (t.ownerCode !== "") {
      chosen = this.snapshot.ownerWithCode(t.ownerCode);
      if (chosen && chosen.name !== t.ownerName) {
        return void reasons.push(
          `${headerOf("ownerCode")}: [${t.ownerCode}] 已属于业主 [${chosen.name}], 与业主姓名 [${t.ownerName}] 不符`,
        );
      }
    } else if (current && current.name === t.ownerName) {
      chosen = current;
    }
    const created = !chosen;
    if (!chosen) {
      chosen = { id: nextId(), name: t.ownerName, code: t.ownerCode || null };
      draft.owner = { node: chosen, values };
    }
    if (current && current.id !== chosen.id) {
      return void reasons.push(
        `${headerOf("ownerName")}: 房间已有业主 [${current.name}], 不能再关联其他业主`,
      );
    }
    if (current) return;
    const link = checkPart(ownerRoom, { ownerId: chosen.id, roomId }, {}, this.timeZone);
    if (!link.values) return void reasons.push(...link.reasons);
    draft.ownerLink = { ownerId: chosen.id, ownerName: chosen.name, created, values: link.values };
  }

  private resolveMeter(
    m: { energy: EnergyType; code: string; values: Values; initial?: string },
    roomId: string,
    draft: Draft,
    reasons: string[],
  ): void {
    const { energy, code } = m;
    let meterId = this.snapshot.meterId(energy, code);
    if (meterId) {
      const installedIn = this.snapshot.roomOfMeter(energy, meterId);
      if (installedIn === roomId) return;
      if (installedIn) {
        const other = this.snapshot.roomById(installedIn);
        const where = other ? `房间 [${this.snapshot.roomPath(other)}]` : "其他房间";
        const header = headerOf(ENERGIES.find((e) => e.energy === energy)!.address);
        return void reasons.push(`${header}: [${code}] 已安装在${where}`);
      }
    } else {
      meterId = nextId();
      draft.meters.push({ energy, code, id: meterId, values: m.values, initial: m.initial });
    }
    const link = checkPart(roomMeter, { roomId, energyType: energy, meterId }, {}, this.timeZone);
    if (!link.values) return void reasons.push(...link.reasons);
    draft.meterLinks.push({ energy, meterId, values: link.values });
  }

  /** An accepted row: its new rows join the plan and the snapshot the next rows are judged against. */
  private commit(draft: Draft): void {
    const plan = this.plan;
    const { snapshot } = this;
    plan.accepted++;
    const empty =
      !draft.areas.length &&
      !draft.room &&
      !draft.owner &&
      !draft.ownerLink &&
      !draft.meters.length &&
      !draft.meterLinks.length;
    if (empty) plan.unchanged++;
    for (const a of draft.areas) {
      snapshot.addArea(a.node);
      plan.areas.push({ id: a.node.id, values: a.values });
    }
    const roomId = draft.roomId!;
    if (draft.room) {
      snapshot.addRoom(draft.room.node);
      plan.rooms.push({ id: roomId, values: draft.room.values });
    }
    if (draft.owner) {
      snapshot.addOwner(draft.owner.node);
      plan.owners.push({ id: draft.owner.node.id, values: draft.owner.values });
    }
    if (draft.ownerLink) {
      const { ownerId, ownerName, created } = draft.ownerLink;
      snapshot.linkOwner(roomId, ownerId);
      plan.ownerRooms.push({ id: nextId(), values: draft.ownerLink.values });
      const entry = plan.ownerLog.get(ownerId) ?? { ownerId, ownerName, created, rooms: [] };
      plan.ownerLog.set(ownerId, entry);
      entry.rooms.push({ roomId, room: snapshot.roomPath(snapshot.roomById(roomId)!) });
    }
    for (const m of draft.meters) {
      snapshot.addMeter(m.energy, m.code, m.id);
      (m.energy === 1 ? plan.meters : plan.waters).push({ id: m.id, values: m.values });
      // The register at install is where the first priced usage starts (account opening reads it).
      if (m.initial !== undefined) {
        plan.origValues.push({
          id: nextId(),
          values: {
            energy_type: m.energy,
            meter_id: m.id,
            total_value: m.initial,
            read_time: this.importedAt,
          },
        });
      }
    }
    for (const l of draft.meterLinks) {
      snapshot.linkMeter(l.energy, l.meterId, roomId);
      plan.roomMeters.push({ id: nextId(), values: l.values });
    }
  }
}

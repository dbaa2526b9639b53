import { resources } from "@meterline/contracts";
import { SqlParams } from "../../crud/sql.ts";
import { areasBelow } from "../pms/building-areas.ts";
import type { KeywordReadings } from "../pms/keyword-readings.ts";
import { roomLabelSql } from "../pms/room-label.ts";
import type { Visibility } from "./counter-search.ts";

/** Ranks of a hit, best first (CounterMatch in the same order). */
const RANK = { room: 0, owner: 1, meter: 2, partial: 3, all: 4 } as const;

/** One hit of a page as the statement answers it. */
export interface HitRow {
  room_id: string | null;
  owner_id: string | null;
  rank: number;
  total: string;
  tenant_id: string;
  tenant_name: string | null;
  room_name: string | null;
  room_code: string | null;
  label: string | null;
  meters: {
    energy_type: number;
    meter_id: string;
    product_code: string;
    switch_status: number | null;
    account_id: string | null;
    balance: string | null;
    alarm_level: number | null;
    control_status: number | null;
  }[];
}

/** LIKE's own characters taken literally. */
const literal = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);
const contains = (text: string) => `%${literal(text)}%`;

const METERS = [
  { def: resources.meter, energyType: 1 },
  { def: resources.water, energyType: 2 },
] as const;

/**
 * The statements of one counter search: the hits (room and owner pairs, or an owner without a room)
 * each reading finds, ranked, one page of them with every meter of the room and its open account.
 * Every value is bound; only aliases and the readings' shapes decide the SQL text.
 */
export class CounterHitsQuery {
  constructor(
    private readonly visible: Visibility,
    private readonly readings: KeywordReadings,
    /** The areas each place's building, then each building alone, may mean (counter-search.ts). */
    private readonly buildingAreas: string[][],
    private readonly alarmLevel: number | undefined,
    /** The tenant searched; null for the platform administrator naming none. */
    private readonly tenantId: string | null,
  ) {}

  /** One page of hits with their meters, and in every row the number of hits in all. */
  async page(size: number, offset: number): Promise<{ sql: SqlParams; text: string }> {
    const sql = new SqlParams();
    if (this.readings.text === "" && this.alarmLevel === undefined) {
      const ranked = await this.register(sql, size, offset);
      return { sql, text: `${ranked} ${await this.projection(sql, "true")}` };
    }
    const prefix = await this.hits(sql);
    const order = `h.rank, coalesce(r.tenant_id, o.tenant_id), k.sort_key, length(r.room_name), r.room_name,
                   o.owner_name, h.owner_id, h.room_id`;
    const ranked = `${prefix},
      area_keys (id, sort_key) as (
        select a.id, array[a.sort::bigint, a.id] from pms_area a
         where ${await this.visible.rows(resources.area, sql, "a")} and a.parent_id = 0
        union all
        select c.id, k.sort_key || array[c.sort::bigint, c.id] from pms_area c join area_keys k on c.parent_id = k.id
         where ${await this.visible.reached(resources.area, sql, "c")}),
      ranked as (
        select h.room_id, h.owner_id, h.rank, coalesce(r.tenant_id, o.tenant_id) as tenant_id,
               row_number() over (order by ${order}) as ord, count(*) over () as total
          from hits h
          left join pms_room r on r.id = h.room_id
          left join pms_owner o on o.id = h.owner_id
          left join area_keys k on k.id = r.area_id
         where ${this.levelFilter("h")})`;
    const inPage = `p.ord > ${sql.bind(offset)} and p.ord <= ${sql.bind(offset + size)}`;
    return { sql, text: `${ranked} ${await this.projection(sql, inPage)}` };
  }

  /** The number of hits alone, for a page past the end (whose statement has no row to carry it). */
  async count(): Promise<{ sql: SqlParams; text: string }> {
    const sql = new SqlParams();
    if (this.readings.text === "" && this.alarmLevel === undefined)
      return {
        sql,
        text: `select count(*)::text as n from pms_owner o where ${await this.visible.rows(resources.owner, sql, "o")}`,
      };
    const prefix = await this.hits(sql);
    return {
      sql,
      text: `${prefix} select count(*)::text as n from hits h where ${this.levelFilter("h")}`,
    };
  }

  /** The rows of `ranked` that `inPage` keeps, with their tenant, room and label, and each meter of the hit. */
  private async projection(sql: SqlParams, inPage: string): Promise<string> {
    return `select p.room_id::text as room_id, p.owner_id::text as owner_id, p.rank, p.total::text as total, p.tenant_id,
             (select tn.tenant_name from sys_tenant tn where tn.tenant_id = p.tenant_id and tn.is_deleted = 0) as tenant_name,
             r.room_name, r.room_code, case when r.id is not null then ${roomLabelSql("r")} end as label,
             coalesce((select json_agg(json_build_object(
                 'energy_type', x.energy_type, 'meter_id', x.meter_id::text, 'product_code', x.product_code,
                 'switch_status', x.switch_status, 'account_id', x.account_id::text, 'balance', x.balance::text,
                 'alarm_level', x.alarm_level, 'control_status', x.control_status)
                 order by x.energy_type, x.product_code)
               from (${await this.meterLines(sql, "p")}) x), '[]'::json) as meters
        from ranked p left join pms_room r on r.id = p.room_id
       where ${inPage}
       order by p.ord`;
  }

  /**
   * No keyword and no level: the register, owner by owner (by name, as the counter always listed
   * them), each of their rooms a hit, an owner without a room a hit alone. Paged by owner before
   * anything else is read, so opening the counter of a large site reads one page, not the site.
   */
  private async register(sql: SqlParams, size: number, offset: number): Promise<string> {
    const owners = await this.visible.rows(resources.owner, sql, "o");
    return `with owners_page as (
        select o.id, o.owner_name, o.tenant_id from pms_owner o where ${owners}
         order by o.owner_name, o.id limit ${sql.bind(size)} offset ${sql.bind(offset)}),
      ranked as (
        select ol.room_id, p.id as owner_id, ${RANK.all} as rank, p.tenant_id,
               row_number() over (order by p.owner_name, p.id, ol.label, length(ol.room_name), ol.room_name, ol.room_id) as ord,
               (select count(*) from pms_owner o where ${owners}) as total
          from owners_page p
          left join lateral (
            select l.room_id, lr.room_name, pms_area_label(lr.area_id) as label from pms_owner_room l
              join pms_room lr on lr.id = l.room_id and ${await this.visible.reached(resources.room, sql, "lr")}
             where l.owner_id = p.id and ${await this.visible.reached(resources.ownerRoom, sql, "l")}) ol on true)`;
  }

  /** `with recursive matched …, hits …`: each (room, owner) found, at the best rank any reading found it. */
  private async hits(sql: SqlParams): Promise<string> {
    const levels =
      this.alarmLevel === undefined ? "" : `at_level (room_id, owner_id) as (${await this.atLevel(sql)}), `;
    const sources =
      this.readings.text === ""
        ? [await this.atLevelHits(sql)]
        : [await this.rooms(sql), await this.owners(sql), ...(await this.meters(sql))];
    return `with recursive ${levels}matched (room_id, owner_id, rank) as (${sources.join(" union all ")}),
      hits as (select m.room_id, m.owner_id, min(m.rank) as rank from matched m group by m.room_id, m.owner_id)`;
  }

  /** A level and no keyword: the rooms of the meters at that level with their owners (the level's few accounts lead). */
  private async atLevelHits(sql: SqlParams): Promise<string> {
    return `select al.room_id, case when al.room_id is null then al.owner_id else ro.owner_id end, ${RANK.all}
        from at_level al ${await this.roomOwner(sql, "al.room_id", "ro")}`;
  }

  /**
   * `left join lateral … as`: the room's owner (one at most), if live. The owner is looked up by id
   * in a sub-select of its own: joined, the planner (without statistics) hashes every owner for
   * each room instead.
   */
  private async roomOwner(sql: SqlParams, room: string, as: string): Promise<string> {
    return `left join lateral (
        select l.owner_id from pms_owner_room l
         where l.room_id = ${room} and ${await this.visible.reached(resources.ownerRoom, sql, "l")}
           and (select lo.is_deleted from pms_owner lo where lo.id = l.owner_id) = 0 limit 1) ${as} on true`;
  }

  /** Rooms by building and room, by their own name or code, or loosely: their rank is the best that fits. */
  private async rooms(sql: SqlParams): Promise<string> {
    const { places, buildings, roomTexts, roomInArea, text } = this.readings;
    const exact: string[] = [];
    const loose: string[] = [];
    places.forEach((place, i) => {
      const areas = this.buildingAreas[i] ?? [];
      if (areas.length === 0) return;
      const inBuilding = `r.area_id in (${areasBelow(sql, areas)})`;
      exact.push(`r.room_name ilike ${sql.bind(literal(place.room))} and ${inBuilding}`);
      loose.push(`r.room_name ilike ${sql.bind(`${literal(place.room)}%`)} and ${inBuilding}`);
    });
    buildings.forEach((_, j) => {
      const areas = this.buildingAreas[places.length + j] ?? [];
      if (areas.length > 0) loose.push(`r.area_id in (${areasBelow(sql, areas)})`);
    });
    const texts = sql.bind(roomTexts.map(literal));
    exact.push(`r.room_name ilike any(${texts}::text[]) or r.room_code ilike any(${texts}::text[])`);
    if (text.length >= 2) {
      const part = sql.bind(contains(text));
      loose.push(`r.room_name ilike ${part} or r.room_code ilike ${part}`);
    }
    if (roomInArea)
      loose.push(`r.room_name ilike ${sql.bind(`${literal(roomInArea.room)}%`)}
        and pms_area_label(r.area_id) ilike all(${sql.bind(roomInArea.areaWords.map(contains))}::text[])`);
    const isExact = exact.map((c) => `(${c})`).join(" or ");
    return `select r.id, ro.owner_id, case when ${isExact} then ${RANK.room} else ${RANK.partial} end
        from pms_room r ${await this.roomOwner(sql, "r.id", "ro")}
       where ${await this.visible.rows(resources.room, sql, "r")}
         and (${[...exact, ...loose].map((c) => `(${c})`).join(" or ")})`;
  }

  /** Owners by name, code or phone (whole, or its last digits): each of their rooms, or none. */
  private async owners(sql: SqlParams): Promise<string> {
    const { ownerName, phone, text } = this.readings;
    const found = [`o.owner_code ilike ${sql.bind(literal(text))}`];
    if (ownerName !== undefined) found.push(`o.owner_name ilike ${sql.bind(contains(ownerName))}`);
    if (phone?.whole) found.push(`o.phone = ${sql.bind(phone.digits)}`);
    else if (phone) found.push(`o.phone like ${sql.bind(`%${phone.digits}`)}`);
    return `select ol.room_id, o.id, ${RANK.owner} from pms_owner o
        left join lateral (
          select l.room_id from pms_owner_room l
            join pms_room lr on lr.id = l.room_id and ${await this.visible.reached(resources.room, sql, "lr")}
           where l.owner_id = o.id and ${await this.visible.reached(resources.ownerRoom, sql, "l")}) ol on true
       where ${await this.visible.rows(resources.owner, sql, "o")} and (${found.join(" or ")})`;
  }

  /**
   * Meters by number, whole or its last digits: the room it is installed in with that room's owner,
   * or, installed nowhere, the owner of its open account.
   */
  private async meters(sql: SqlParams): Promise<string[]> {
    const digits = this.readings.meterDigits;
    if (digits === undefined) return [];
    const wholeCode = sql.bind(digits);
    const tail = sql.bind(`%${digits}`);
    const branches: string[] = [];
    for (const { def, energyType } of METERS) {
      // The room link by `is_deleted = 0`: all three columns of its partial unique index are bound.
      branches.push(`select ml.room_id, case when ml.room_id is null then mao.id else mo.owner_id end, ${RANK.meter}
          from ${def.table} t
          left join lateral (
            select rm.room_id from pms_room_meter rm
              join pms_room mr on mr.id = rm.room_id and ${await this.visible.reached(resources.room, sql, "mr")}
             where rm.tenant_id = t.tenant_id and rm.energy_type = ${energyType} and rm.meter_id = t.id
               and rm.is_deleted = 0 limit 1) ml on true
          ${await this.roomOwner(sql, "ml.room_id", "mo")}
          left join pms_account ma on ma.tenant_id = t.tenant_id and ma.energy_type = ${energyType}
                and ma.meter_id = t.id and ma.status = 1
          left join pms_owner mao on mao.id = ma.owner_id and ${await this.visible.reached(resources.owner, sql, "mao")}
         where ${await this.visible.rows(def, sql, "t")}
           and (t.product_code = ${wholeCode} or t.product_code like ${tail})
           and (ml.room_id is not null or mao.id is not null)`);
    }
    return branches;
  }

  /**
   * With alarmLevel: only hits with a meter whose open account is at that level, the room it is
   * installed in or (for an owner without a room) the account's owner.
   */
  private levelFilter(hit: string): string {
    if (this.alarmLevel === undefined) return "true";
    return `(${hit}.room_id in (select room_id from at_level where room_id is not null)
      or (${hit}.room_id is null and ${hit}.owner_id in (select owner_id from at_level)))`;
  }

  /** The rooms and owners of the open accounts at the level asked: few, found once rather than per hit. */
  private async atLevel(sql: SqlParams): Promise<string> {
    const level = sql.bind(this.alarmLevel);
    const tenant = this.tenantId === null ? "true" : `a.tenant_id = ${sql.bind(this.tenantId)}`;
    const branches: string[] = [];
    for (const { def, energyType } of METERS)
      branches.push(`select rm.room_id, a.owner_id from pms_account a
          join ${def.table} t on t.id = a.meter_id and ${await this.visible.reached(def, sql, "t")}
          left join pms_room_meter rm on rm.tenant_id = a.tenant_id and rm.energy_type = ${energyType}
                and rm.meter_id = a.meter_id and rm.is_deleted = 0
         where ${tenant} and a.status = 1 and a.energy_type = ${energyType} and a.alarm_level = ${level}`);
    return branches.join(" union all ");
  }

  /**
   * The meters of hit `hit`, each with its open account: the meters installed in its room, or for an
   * owner without a room those of the owner's open accounts.
   */
  private async meterLines(sql: SqlParams, hit: string): Promise<string> {
    const branches: string[] = [];
    const columns = (energyType: number) =>
      `${energyType} as energy_type, t.id as meter_id, t.product_code, t.switch_status, a.id as account_id,
       a.balance, a.alarm_level, a.control_status`;
    const account = (energyType: number) =>
      `left join pms_account a on a.tenant_id = t.tenant_id and a.energy_type = ${energyType}
             and a.meter_id = t.id and a.status = 1`;
    for (const { def, energyType } of METERS) {
      branches.push(`select ${columns(energyType)} from pms_room_meter rm
          join ${def.table} t on t.id = rm.meter_id and ${await this.visible.reached(def, sql, "t")}
          ${account(energyType)}
         where rm.room_id = ${hit}.room_id and rm.energy_type = ${energyType}
           and ${await this.visible.reached(resources.roomMeter, sql, "rm")}`);
      branches.push(`select ${columns(energyType)} from pms_account oa
          join ${def.table} t on t.id = oa.meter_id and ${await this.visible.reached(def, sql, "t")}
          ${account(energyType)}
         where ${hit}.room_id is null and oa.status = 1 and oa.owner_id = ${hit}.owner_id
           and oa.tenant_id = (select ow.tenant_id from pms_owner ow where ow.id = ${hit}.owner_id)
           and oa.energy_type = ${energyType}`);
    }
    return branches.join(" union all ");
  }
}

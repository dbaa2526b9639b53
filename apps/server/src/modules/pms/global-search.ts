import type {
  CollectorHit,
  GlobalSearchResult,
  MeterHit,
  OwnerHit,
  ResourceDef,
  RoomHit,
} from "@meterline/contracts";
import type { FastifyRequest } from "fastify";
import { scopePredicate, scopeRules } from "../../crud/data-scope.ts";
import { visibleRows } from "../../crud/scope.ts";
import { SqlParams } from "../../crud/sql.ts";
import type { Queryable } from "../../db/client.ts";
import { areasBelow, areasNaming } from "./building-areas.ts";
import { readKeyword } from "./keyword-readings.ts";

/**
 * The text each kind is matched on, exactly the expressions the trigram indexes of
 * migrations/after-resources/001_search_indexes.sql are built on (a different expression would
 * leave the index unused). Fields are joined by a space: a word, having none, never spans two.
 * Text and words are lower-cased and compared with LIKE: ILIKE folds case character by character
 * and costs several times more on the rows an index cannot rule out.
 */
const roomText = (alias: string) => `lower(${alias}.room_name || ' ' || coalesce(${alias}.room_code, ''))`;
const OWNER_TEXT =
  "lower(o.owner_name || ' ' || coalesce(o.owner_code, '') || ' ' || coalesce(o.phone, '') || ' ' || coalesce(o.id_card, ''))";
const METER_TEXT = "lower(t.product_code || ' ' || coalesce(t.meter_name, ''))";
const COLLECTOR_TEXT = "lower(coalesce(c.collector_code, '') || ' ' || coalesce(c.collector_name, ''))";

/** What one search asks: its words (already split and bounded), the rows per kind, the tenant. */
export interface SearchQuery {
  words: string[];
  limit: number;
  tenantId: string;
}

/** The registry definitions the caller may read; a kind missing here is answered empty. */
export interface ReadableKinds {
  room?: ResourceDef;
  area?: ResourceDef;
  owner?: ResourceDef;
  meter?: ResourceDef;
  water?: ResourceDef;
  collector?: ResourceDef;
}

/** `%word%` (lower case) with LIKE's own characters taken literally. */
const containing = (word: string) => `%${escapeLike(word.toLowerCase())}%`;
const endingWith = (word: string) => `%${escapeLike(word.toLowerCase())}`;
const escapeLike = (word: string) => word.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Finds rooms, owners, meters and collectors whose text holds every word, each kind its own
 * bounded statement (at most four round trips besides the permission read).
 */
export class GlobalSearch {
  constructor(
    private readonly db: Queryable,
    private readonly request: FastifyRequest,
    private readonly query: SearchQuery,
  ) {}

  async run(kinds: ReadableKinds): Promise<GlobalSearchResult> {
    return {
      rooms: kinds.room && kinds.area ? await this.rooms(kinds.room, kinds.area) : [],
      owners: kinds.owner ? await this.owners(kinds.owner) : [],
      meters: kinds.meter || kinds.water ? await this.meters(kinds.meter, kinds.water) : [],
      collectors: kinds.collector ? await this.collectors(kinds.collector) : [],
    };
  }

  /** Tenant, soft delete and the caller's data scope, as the registry's own reads apply them. */
  private async visible(def: ResourceDef, sql: SqlParams, alias: string): Promise<string[]> {
    const user = this.request.user!;
    const conditions = visibleRows(def, user, sql, { alias, tenantId: this.query.tenantId });
    if (def.dataScope) {
      const scope = scopePredicate(
        def,
        this.request,
        await scopeRules(this.db, this.request, def.name),
        sql,
        alias,
      );
      if (scope) conditions.push(scope);
    }
    return conditions;
  }

  /** `text like %w1% and text like %w2% …`: every word somewhere in the (lower-cased) text. */
  private everyWord(text: string, sql: SqlParams): string {
    return this.query.words.map((w) => `${text} like ${sql.bind(containing(w))}`).join(" and ");
  }

  /**
   * Rooms whose path and own name together hold every word ("2号楼 305": 305 of building 2).
   * Candidates come from the index (a word in the room's own name or code) or from areas whose
   * path alone holds every word (all rooms of "2号楼"); the full path then decides. A building and
   * room as a desk says them ("2栋305", "2-305", "2#305", read as the counter reads them) find
   * that room whatever the building's own spelling, and come first.
   */
  private async rooms(room: ResourceDef, area: ResourceDef): Promise<RoomHit[]> {
    const places = readKeyword(this.query.words.join(" "))?.places ?? [];
    const placeAreas = await areasNaming(
      this.db,
      places.map((place) => place.building),
      async (areaSql) => (await this.visible(area, areaSql, "a")).join(" and "),
    );
    const sql = new SqlParams();
    const spoken = places.flatMap((place, i) => {
      const ids = placeAreas[i] ?? [];
      return ids.length === 0
        ? []
        : [
            `(s.room_name ilike ${sql.bind(escapeLike(place.room))} and s.area_id in (${areasBelow(sql, ids)}))`,
          ];
    });
    const roots = await this.visible(area, sql, "a");
    const children = await this.visible(area, sql, "c");
    const byName = await this.visible(room, sql, "n");
    const byArea = await this.visible(room, sql, "b");
    const rooms = await this.visible(room, sql, "r");
    const bySpoken = spoken.length > 0 ? await this.visible(room, sql, "s") : [];
    const anyWordInName = this.query.words.map((w) => `${roomText("n")} like ${sql.bind(containing(w))}`);
    const areaHoldsAll = this.everyWord("lower(p.path)", sql);
    const fullText = `(lower(p.path) || ' ' || ${roomText("r")})`;
    const exact = sql.bind(this.query.words.map((w) => w.toLowerCase()));
    const rows = await this.db.query<{
      id: string;
      room_name: string;
      room_code: string | null;
      area_id: string;
      path: string;
    }>(
      // The paths of the tenant's areas, level by level from the parks down (a few hundred rows);
      // the two candidate sets each use an index (trigram on the name, btree on the area).
      `with recursive paths (id, path) as (
         select a.id, a.area_name::text from pms_area a where ${roots.join(" and ")} and a.parent_id = 0
         union all
         select c.id, p.path || ' / ' || c.area_name from pms_area c join paths p on c.parent_id = p.id
          where ${children.join(" and ")}),
       candidates (id, spoken) as (
         select n.id, false from pms_room n where ${byName.join(" and ")} and (${anyWordInName.join(" or ")})
         union all
         select b.id, false from pms_room b
          where ${byArea.join(" and ")} and b.area_id in (select p.id from paths p where ${areaHoldsAll})
         ${spoken.length > 0 ? `union all select s.id, true from pms_room s where ${bySpoken.join(" and ")} and (${spoken.join(" or ")})` : ""}),
       found (id, spoken) as (select c.id, bool_or(c.spoken) from candidates c group by c.id)
       select r.id::text as id, r.room_name, r.room_code, r.area_id::text as area_id,
              p.path || ' / ' || r.room_name as path
         from found k join pms_room r on r.id = k.id join paths p on p.id = r.area_id
        where ${rooms.join(" and ")} and (k.spoken or ${this.everyWord(fullText, sql)})
        order by k.spoken desc, (lower(r.room_name) = any(${exact}::text[])) desc, p.path, r.room_name, r.id
        limit ${sql.bind(this.query.limit)}`,
      sql.values,
    );
    return rows.map((r) => ({
      id: r.id,
      roomName: r.room_name,
      roomCode: r.room_code,
      areaId: r.area_id,
      path: r.path,
    }));
  }

  /** Owners by name, code, phone or id-card number; an exact phone or name comes first. */
  private async owners(owner: ResourceDef): Promise<OwnerHit[]> {
    const sql = new SqlParams();
    const conditions = await this.visible(owner, sql, "o");
    const exact = sql.bind(this.query.words.map((w) => w.toLowerCase()));
    const rows = await this.db.query<{
      id: string;
      owner_name: string;
      owner_code: string | null;
      phone: string | null;
      id_card_tail: string | null;
    }>(
      `select o.id::text as id, o.owner_name, o.owner_code, o.phone, right(o.id_card, 4) as id_card_tail
         from pms_owner o
        where ${conditions.join(" and ")} and ${this.everyWord(OWNER_TEXT, sql)}
        order by (lower(o.owner_name) = any(${exact}::text[]) or o.phone = any(${exact}::text[])
                  or lower(o.owner_code) = any(${exact}::text[])) desc, o.owner_name, o.id
        limit ${sql.bind(this.query.limit)}`,
      sql.values,
    );
    return rows.map((r) => ({
      id: r.id,
      ownerName: r.owner_name,
      ownerCode: r.owner_code,
      phone: r.phone,
      idCardTail: r.id_card_tail,
    }));
  }

  /**
   * Electric and water meters together. A number typed in part is usually its last digits (what
   * is printed large on the meter): numbers ending in a word come first.
   */
  private async meters(meter?: ResourceDef, water?: ResourceDef): Promise<MeterHit[]> {
    const sql = new SqlParams();
    const suffixes = sql.bind(this.query.words.map(endingWith));
    const limit = sql.bind(this.query.limit);
    const branches: string[] = [];
    for (const [def, energyType] of [
      [meter, 1],
      [water, 2],
    ] as const) {
      if (!def) continue;
      const conditions = await this.visible(def, sql, "t");
      // Each kind sorted and cut on its own, so the merge below sorts at most twice the limit.
      branches.push(
        `(select t.id::text as id, ${energyType} as energy_type, t.product_code, t.meter_name,
                 (t.product_code like any(${suffixes}::text[])) as by_tail
            from ${def.table} t
           where ${conditions.join(" and ")} and ${this.everyWord(METER_TEXT, sql)}
           order by by_tail desc, t.product_code limit ${limit})`,
      );
    }
    const rows = await this.db.query<{
      id: string;
      energy_type: number;
      product_code: string;
      meter_name: string | null;
    }>(
      `select id, energy_type, product_code, meter_name from (${branches.join(" union all ")}) m
        order by by_tail desc, product_code, energy_type limit ${limit}`,
      sql.values,
    );
    return rows.map((r) => ({
      id: r.id,
      energyType: r.energy_type === 2 ? 2 : 1,
      productCode: r.product_code,
      meterName: r.meter_name,
    }));
  }

  private async collectors(collector: ResourceDef): Promise<CollectorHit[]> {
    const sql = new SqlParams();
    const conditions = await this.visible(collector, sql, "c");
    const rows = await this.db.query<{ id: string; collector_code: string; collector_name: string }>(
      `select c.id::text as id, c.collector_code, c.collector_name from pms_collector c
        where ${conditions.join(" and ")} and ${this.everyWord(COLLECTOR_TEXT, sql)}
        order by c.collector_code, c.id limit ${sql.bind(this.query.limit)}`,
      sql.values,
    );
    return rows.map((r) => ({ id: r.id, collectorCode: r.collector_code, collectorName: r.collector_name }));
  }
}

import type { Queryable } from "../../db/client.ts";
import { roomLabelSql } from "./room-label.ts";
import type { Branch, Leaf } from "./tree-builder.ts";

/** Which rooms a room tree lists. */
export type RoomFilter = "all" | "withoutOwner" | { withoutMeterOf: 1 | 2 };
/** Which electric (or, for `openableAny`, electric and water) meters a meter tree lists. */
export type MeterFilter =
  | "all"
  | "unbound"
  | "unboundWater"
  | "openable"
  | "openableAny"
  | "closable"
  | "closableWater";

const ELECTRIC = 1;
const WATER = 2;

/** The reviewed SQL behind the registry's trees, pickers and topology; always inside one tenant. */
export class RegistryRepository {
  constructor(
    private readonly db: Queryable,
    private readonly tenantId: string,
  ) {}

  async areas(): Promise<Branch[]> {
    const rows = await this.db.query<{ id: string; parent_id: string; area_name: string }>(
      `select id::text as id, parent_id::text as parent_id, area_name from pms_area
        where tenant_id = $1 and is_deleted = 0 order by sort, id`,
      [this.tenantId],
    );
    return rows.map((r) => ({ id: r.id, parentId: r.parent_id, title: r.area_name, type: "area" }));
  }

  async rooms(filter: RoomFilter = "all"): Promise<Leaf[]> {
    const params: unknown[] = [this.tenantId];
    let where = "";
    if (filter === "withoutOwner") {
      where = `and not exists (select 1 from pms_owner_room l where l.room_id = r.id and l.is_deleted = 0)`;
    } else if (typeof filter === "object") {
      params.push(filter.withoutMeterOf);
      where = `and not exists (select 1 from pms_room_meter m where m.room_id = r.id and m.energy_type = $2 and m.is_deleted = 0)`;
    }
    const rows = await this.db.query<{ id: string; area_id: string; room_name: string }>(
      `select r.id::text as id, r.area_id::text as area_id, ${roomLabelSql("r")} as room_name from pms_room r
        where r.tenant_id = $1 and r.is_deleted = 0 ${where} order by r.room_name, r.id`,
      params,
    );
    return rows.map((r) => ({ id: r.id, parentId: r.area_id, title: r.room_name, type: "room" }));
  }

  /** Owners under the first room they live in; owners without a room get parent "0". */
  async ownersByRoom(): Promise<Leaf[]> {
    const rows = await this.db.query<{ id: string; room_id: string | null; owner_name: string }>(
      `select o.id::text as id, min(l.room_id)::text as room_id, o.owner_name
         from pms_owner o left join pms_owner_room l on l.owner_id = o.id and l.is_deleted = 0
        where o.tenant_id = $1 and o.is_deleted = 0
        group by o.id, o.owner_name order by o.owner_name, o.id`,
      [this.tenantId],
    );
    return rows.map((r) => ({ id: r.id, parentId: r.room_id ?? "0", title: r.owner_name, type: "owner" }));
  }

  /** Owners with no room yet, for the picker that links one to a room. */
  async ownersWithoutRoom(): Promise<Leaf[]> {
    const rows = await this.db.query<{ id: string; owner_name: string; owner_code: string | null }>(
      `select o.id::text as id, o.owner_name, o.owner_code from pms_owner o
        where o.tenant_id = $1 and o.is_deleted = 0
          and not exists (select 1 from pms_owner_room l where l.owner_id = o.id and l.is_deleted = 0)
        order by o.owner_name, o.id limit 5000`,
      [this.tenantId],
    );
    return rows.map((r) => ({
      id: r.id,
      parentId: "0",
      title: r.owner_code ? `${r.owner_name} (${r.owner_code})` : r.owner_name,
      type: "owner",
    }));
  }

  /**
   * Meters as leaves of the rooms they are installed in (unbound ones under their collector).
   * `openable`: account not opened, in a room that has an owner; `closable`: account opened
   * (`closableWater`: the water meters whose account is opened).
   */
  async meters(filter: MeterFilter): Promise<Leaf[]> {
    const kinds =
      filter === "openableAny"
        ? [ELECTRIC, WATER]
        : filter === "unboundWater" || filter === "closableWater"
          ? [WATER]
          : [ELECTRIC];
    const leaves: Leaf[] = [];
    for (const kind of kinds) {
      const table = kind === ELECTRIC ? "pms_meter" : "pms_water";
      const conditions = ["t.tenant_id = $1", "t.is_deleted = 0"];
      if (filter === "unbound" || filter === "unboundWater") {
        conditions.push("rm.id is null");
        // A node's master or common-area meter (公区表) counts a building, never a room: not offered.
        conditions.push(
          `not exists (select 1 from pms_metering_node n where n.tenant_id = t.tenant_id and n.master_meter_id = t.id
              and n.energy_type = $2 and n.is_deleted = 0)`,
          `not exists (select 1 from pms_metering_node_meter l where l.tenant_id = t.tenant_id and l.meter_id = t.id
              and l.energy_type = $2 and l.meter_role = 2 and l.is_deleted = 0)`,
        );
      }
      if (filter === "openable" || filter === "openableAny") {
        conditions.push("t.account_status = 0", "rm.id is not null");
        conditions.push(
          "exists (select 1 from pms_owner_room l where l.room_id = rm.room_id and l.is_deleted = 0)",
        );
      }
      if (filter === "closable" || filter === "closableWater") conditions.push("t.account_status = 1");
      const rows = await this.db.query<{
        id: string;
        parent: string | null;
        product_code: string;
        meter_name: string | null;
      }>(
        `select t.id::text as id, coalesce(rm.room_id, t.collector_id)::text as parent, t.product_code, t.meter_name
           from ${table} t
           left join pms_room_meter rm on rm.meter_id = t.id and rm.energy_type = $2 and rm.is_deleted = 0
          where ${conditions.join(" and ")} order by t.product_code`,
        [this.tenantId, kind],
      );
      for (const r of rows) {
        leaves.push({
          id: r.id,
          parentId: r.parent ?? "0",
          title: r.meter_name ? `${r.product_code} ${r.meter_name}` : r.product_code,
          type: kind === ELECTRIC ? "meter" : "water",
        });
      }
    }
    return leaves;
  }

  async collectors(): Promise<Branch[]> {
    const rows = await this.db.query<{ id: string; collector_name: string; collector_code: string }>(
      `select id::text as id, collector_name, collector_code from pms_collector
        where tenant_id = $1 and is_deleted = 0 order by collector_code`,
      [this.tenantId],
    );
    return rows.map((r) => ({
      id: r.id,
      parentId: "0",
      title: `${r.collector_name} (${r.collector_code})`,
      type: "collector",
    }));
  }
}

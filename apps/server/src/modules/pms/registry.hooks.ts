import type { ResourceDef } from "@meterline/contracts";
import { NetworkListError, parseNetworks } from "@meterline/gateway";
import { badParam, badRequest } from "../../contract/errors.ts";
import { type Column, columnByName } from "../../crud/columns.ts";
import type { HookContext, ResourceHooks } from "../../crud/hooks.ts";
import type { SqlParams } from "../../crud/sql.ts";
import { checkModbusEndpoint } from "./modbus-endpoint-rules.ts";
import { checkModbusMeter } from "./modbus-meter-rules.ts";
import { changedFields, writeOwnerLog } from "./owner-log.ts";
import { roomLabelSql } from "./room-label.ts";

/** The ids of an area and every area below it, as a sub-select (the bound area id is `area`). */
export const areaSubtree = (area: string) =>
  `select a.id from pms_area a where a.is_deleted = 0
     and (a.id = ${area}::bigint or (',' || a.ancestors || ',') like '%,' || ${area}::text || ',%')`;

/** `areaId` filters take the area and every area below it: a building lists all its floors' rooms. */
export function areaAndBelow(value: string, sql: SqlParams, column = "t.area_id"): string {
  if (!/^\d{1,19}$/.test(value)) return "false";
  return `${column} in (${areaSubtree(sql.bind(value))})`;
}

export const roomHooks: ResourceHooks = { customFilters: { areaId: areaAndBelow } };

/**
 * Rows that name a room, by area: those of every room in the area and below. Room meters (also the
 * export of the filtered page), and readings and daily usage (the room the meter was in when read).
 * An `exists` in the row's tenant, which PostgreSQL turns into a join: an `in` naming the row's
 * tenant inside was run again for every row (a building's daily usage took 5 s on the embedded
 * database with the demo's 60 days, and past the console's timeout beside a busy fleet).
 */
export const byRoomAreaHooks: ResourceHooks = {
  customFilters: {
    areaId(value, sql) {
      const inArea = areaAndBelow(value, sql, "r.area_id");
      return inArea === "false"
        ? "false"
        : `exists (select 1 from pms_room r where r.tenant_id = t.tenant_id and r.id = t.room_id and ${inArea})`;
    },
  },
};

/**
 * A DTU announces itself by its registration id alone, so the id must name one collector across
 * all tenants, not only within one.
 */
export const collectorHooks: ResourceHooks = {
  customFilters: { areaId: areaAndBelow },
  async beforeWrite(ctx, values, id) {
    const { db, def } = ctx;
    checkNetworks(values, def);
    await checkModbusEndpoint(ctx, def, values, id);
    const code = values.get(columnByName(def, "collectorCode")!);
    if (code === undefined) return;
    const taken = await db.query(
      `select 1 from ${def.table} where collector_code = $1 and is_deleted = 0 and id <> $2`,
      [code, id ?? "0"],
    );
    if (taken.length) throw badRequest(`collectorCode: 注册码 [${String(code)}] 已存在`);
  },
};

/** The gateway reads allowed source networks with the same parser: a list it cannot read is refused here. */
function checkNetworks(values: Map<Column, unknown>, def: ResourceDef): void {
  const networks = values.get(columnByName(def, "allowedNetworks")!);
  if (typeof networks !== "string") return;
  try {
    parseNetworks(networks);
  } catch (error) {
    if (error instanceof NetworkListError) throw badRequest(`allowedNetworks: ${error.message}`);
    throw error;
  }
}

const OWNER_FIELDS = "owner_name, owner_code, owner_type, phone, id_card, balance, tenant_id";
interface OwnerSnapshot {
  owner_name: string;
  owner_code: string | null;
  owner_type: number;
  phone: string | null;
  id_card: string | null;
  balance: string;
  tenant_id: string;
}
const snapshot = async (ctx: HookContext, id: string) =>
  (await ctx.db.query<OwnerSnapshot>(`select ${OWNER_FIELDS} from pms_owner where id = $1`, [id]))[0];
const visibleFields = ({ tenant_id: _, ...rest }: OwnerSnapshot) => rest;

/**
 * Every change of an owner is logged with its old and new values, in the write's transaction (a
 * failed write rolls its log entry back with it); money must be zero to remove one.
 */
export const ownerHooks: ResourceHooks = {
  customFilters: {
    /** The members of one owner group (the binding dialog's right-hand list). */
    ownerGroupId(value, sql) {
      if (!/^\d{1,19}$/.test(value)) return "false";
      return `exists (select 1 from pms_owner_group_rel g
                 where g.tenant_id = t.tenant_id and g.owner_id = t.id and g.group_id = ${sql.bind(value)}::bigint)`;
    },
  },
  /**
   * Owners come out with their group (and the relation id that unbinds them; an owner is in one
   * group at most) and their rooms, read in the owners' own statement.
   */
  labelColumns: {
    // Each in the owner's own tenant, as every label (crud/reference-names.ts).
    relationId:
      "select r.id from pms_owner_group_rel r where r.tenant_id = t.tenant_id and r.owner_id = t.id",
    ownerGroupId:
      "select r.group_id from pms_owner_group_rel r where r.tenant_id = t.tenant_id and r.owner_id = t.id",
    ownerGroupName: `select g.group_name from pms_owner_group_rel r
                      join pms_owner_group g on g.tenant_id = r.tenant_id and g.id = r.group_id
                      where r.tenant_id = t.tenant_id and r.owner_id = t.id`,
    roomNames: `select string_agg(${roomLabelSql("r")}, ',' order by r.room_name)
                  from pms_owner_room l
                  join pms_room r on r.tenant_id = l.tenant_id and r.id = l.room_id and r.is_deleted = 0
                 where l.tenant_id = t.tenant_id and l.owner_id = t.id and l.is_deleted = 0`,
  },
  async beforeWrite(ctx, values, id) {
    if (!id) return;
    const before = await snapshot(ctx, id);
    if (!before) return;
    const written = Object.fromEntries([...values].map(([column, value]) => [column.column, value]));
    const old = Object.fromEntries(
      Object.keys(written).map((key) => [key, before[key as keyof OwnerSnapshot]]),
    );
    const content = changedFields(old, written);
    if (Object.keys(content).length === 0) return;
    await writeOwnerLog(ctx.db, ctx.user, {
      tenantId: before.tenant_id,
      ownerId: id,
      action: "update",
      content,
    });
  },
  async afterWrite(ctx, id, mode) {
    if (mode !== "create") return;
    const after = (await snapshot(ctx, id))!;
    await writeOwnerLog(ctx.db, ctx.user, {
      tenantId: after.tenant_id,
      ownerId: id,
      action: "create",
      content: visibleFields(after),
    });
  },
  async beforeRemove(ctx, ids) {
    const owners = await ctx.db.query<{ id: string; owner_name: string; balance: string; tenant_id: string }>(
      "select id::text as id, owner_name, balance::text as balance, tenant_id from pms_owner where id = any($1::bigint[])",
      [ids],
    );
    const funded = owners.find((o) => Number(o.balance) !== 0);
    if (funded)
      throw badRequest(`业主 [${funded.owner_name}] 余额为 ${funded.balance},请先退款或清零后再删除`);
    await ctx.db.query("delete from pms_owner_group_rel where owner_id = any($1::bigint[])", [ids]);
    for (const owner of owners) {
      await writeOwnerLog(ctx.db, ctx.user, {
        tenantId: owner.tenant_id,
        ownerId: owner.id,
        action: "remove",
        content: { ownerName: owner.owner_name },
      });
    }
  },
};

/** Writes the owner-room link `id` into its owner's log as bound or unbound. */
async function logRoomLink(ctx: HookContext, id: string, action: "bindRoom" | "unbindRoom"): Promise<void> {
  const [link] = await ctx.db.query<{
    owner_id: string;
    room_id: string;
    room_name: string;
    tenant_id: string;
  }>(
    `select l.owner_id::text as owner_id, l.room_id::text as room_id, r.room_name, l.tenant_id
       from pms_owner_room l join pms_room r on r.id = l.room_id where l.id = $1`,
    [id],
  );
  if (!link) return;
  await writeOwnerLog(ctx.db, ctx.user, {
    tenantId: link.tenant_id,
    ownerId: link.owner_id,
    action,
    content: { roomId: link.room_id, roomName: link.room_name },
  });
}

/** Linking an owner to a room, or unlinking, lands in that owner's log. */
export const ownerRoomHooks: ResourceHooks = {
  afterWrite: (ctx, id) => logRoomLink(ctx, id, "bindRoom"),
  async beforeRemove(ctx, ids) {
    for (const id of ids) await logRoomLink(ctx, id, "unbindRoom");
  },
};

/**
 * `areaId` on meters: those linked to a room in the area or below, in the meter's own tenant (an
 * area of another tenant names none). A batch aimed at a building or a park reads its meters this
 * way, through the list's own tenant and data-scope predicates.
 */
export const meterInArea =
  (energyType: 1 | 2) =>
  (value: string, sql: SqlParams): string => {
    if (!/^\d{1,19}$/.test(value)) throw badParam("areaId");
    return `exists (select 1 from pms_room_meter rm join pms_room r on r.id = rm.room_id and r.is_deleted = 0
        where rm.meter_id = t.id and rm.energy_type = ${energyType} and rm.is_deleted = 0
          and rm.tenant_id = t.tenant_id and r.tenant_id = t.tenant_id
          and r.area_id in (${areaSubtree(sql.bind(value))}))`;
  };

/** A meter whose account is open still holds an owner's money: close the account first. */
export const meterHooks = (table: "pms_meter" | "pms_water"): ResourceHooks => ({
  customFilters: { areaId: meterInArea(table === "pms_meter" ? 1 : 2) },
  // Electric meters only: Modbus DIN-rail meters need a catalogue model and a slave address.
  ...(table === "pms_meter"
    ? {
        beforeWrite: (ctx: HookContext, values: Map<Column, unknown>, id?: string) =>
          checkModbusMeter(ctx, ctx.def, values, id),
      }
    : {}),
  async beforeRemove(ctx, ids) {
    const [open] = await ctx.db.query<{ product_code: string }>(
      `select product_code from ${table} where id = any($1::bigint[]) and account_status = 1 limit 1`,
      [ids],
    );
    if (open) throw badRequest(`表 [${open.product_code}] 已开户,请先销户再删除`);
  },
});

/** A group with members is not removed: they would silently lose it. */
export const ownerGroupHooks: ResourceHooks = {
  async beforeRemove(ctx, ids) {
    const [row] = await ctx.db.query<{ n: string }>(
      "select count(*)::text as n from pms_owner_group_rel where group_id = any($1::bigint[])",
      [ids],
    );
    if (Number(row?.n ?? 0) > 0) throw badRequest(`业主分组中还有 ${row!.n} 位业主,请先解绑`);
  },
};

import { page } from "../../contract/envelope.ts";
import { badParam } from "../../contract/errors.ts";
import { optionalId, optionalString, paging } from "../../contract/params.ts";
import { SqlParams } from "../../crud/sql.ts";
import type { Queryable } from "../../db/client.ts";
import { areaAndBelow } from "./registry.hooks.ts";
import { roomLabelSql } from "./room-label.ts";

const TENANT_NAME_OF_RM = `(select tn.tenant_name from sys_tenant tn
  where tn.tenant_id = rm.tenant_id and tn.is_deleted = 0) as tenant_name`;

interface RoomMeterRow {
  id: string;
  room_id: string;
  room_name: string;
  area_id: string;
  area_name: string;
  energy_type: number;
  meter_id: string;
  product_code: string;
  meter_name: string | null;
  account_status: number | null;
  switch_status: number | null;
  online_status: number | null;
  owner_id: string | null;
  owner_name: string | null;
  tenant_name?: string | null;
}

/**
 * Room meters joined with what an operator reads beside them (spec §7 roommeter/roomMeterPage):
 * room, area, meter address and state, and the room's owner. Filters: roomId, areaId (and below),
 * energyType, productCode (contains).
 */
export async function roomMeterPage(
  db: Queryable,
  tenantId: string,
  params: Record<string, unknown>,
  /** Rows name their tenant (the platform administrator's screens), in the same statement. */
  withTenantName = false,
) {
  const { current, size, offset } = paging(params);
  const sql = new SqlParams();
  const where = [`rm.tenant_id = ${sql.bind(tenantId)}`, "rm.is_deleted = 0", "m.id is not null"];
  const roomId = optionalId(params, "roomId");
  if (roomId) where.push(`rm.room_id = ${sql.bind(roomId)}::bigint`);
  const areaId = optionalId(params, "areaId");
  if (areaId) {
    where.push(areaAndBelow(areaId, sql, "r.area_id"));
  }
  const energyType = optionalString(params, "energyType");
  if (energyType !== undefined) {
    if (energyType !== "1" && energyType !== "2") throw badParam("energyType");
    where.push(`rm.energy_type = ${sql.bind(Number(energyType))}`);
  }
  const code = optionalString(params, "productCode");
  if (code) where.push(`m.product_code like ${sql.bind(`%${code.replace(/[\\%_]/g, (c) => `\\${c}`)}%`)}`);
  const from = `from pms_room_meter rm
    join pms_room r on r.id = rm.room_id
    join pms_area a on a.id = r.area_id
    left join lateral (
      select e.id, e.product_code, e.meter_name, e.account_status, e.switch_status, e.online_status
        from pms_meter e where rm.energy_type = 1 and e.id = rm.meter_id and e.is_deleted = 0
      union all
      select w.id, w.product_code, w.meter_name, w.account_status, w.switch_status, w.online_status
        from pms_water w where rm.energy_type = 2 and w.id = rm.meter_id and w.is_deleted = 0
    ) m on true
    left join lateral (
      select o.id, o.owner_name from pms_owner_room l join pms_owner o on o.id = l.owner_id and o.is_deleted = 0
       where l.room_id = rm.room_id and l.is_deleted = 0 limit 1
    ) o on true
    where ${where.join(" and ")}`;
  const [count] = await db.query<{ n: string }>(`select count(*)::text as n ${from}`, sql.values);
  const rows = await db.query<RoomMeterRow>(
    `select rm.id::text as id, rm.room_id::text as room_id, ${roomLabelSql("r")} as room_name, r.area_id::text as area_id, a.area_name,
            rm.energy_type, m.id::text as meter_id, m.product_code, m.meter_name, m.account_status, m.switch_status,
            m.online_status, o.id::text as owner_id, o.owner_name${withTenantName ? `, ${TENANT_NAME_OF_RM}` : ""}
       ${from} order by a.area_name, r.room_name, rm.energy_type
      limit ${sql.bind(size)} offset ${sql.bind(offset)}`,
    sql.values,
  );
  const records = rows.map((r) => ({
    id: r.id,
    roomId: r.room_id,
    roomName: r.room_name,
    areaId: r.area_id,
    areaName: r.area_name,
    energyType: r.energy_type,
    meterId: r.meter_id,
    productCode: r.product_code,
    meterName: r.meter_name ?? "",
    accountStatus: r.account_status,
    switchStatus: r.switch_status,
    onlineStatus: r.online_status,
    ownerId: r.owner_id ?? "",
    ownerName: r.owner_name ?? "",
    ...(withTenantName ? { tenantName: r.tenant_name ?? "" } : {}),
  }));
  return page(records, Number(count?.n ?? 0), current, size);
}

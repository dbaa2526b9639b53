import {
  type MeterOverview,
  type OwnerOverview,
  type ResourceDef,
  type RoomOverview,
  readCodesOf,
  resources,
} from "@meterline/contracts";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { formatDateTime } from "../../contract/dates.ts";
import { ok } from "../../contract/envelope.ts";
import { missingParam, notFound } from "../../contract/errors.ts";
import { optionalId, readParams } from "../../contract/params.ts";
import { NOT_FOUND_MESSAGE } from "../../crud/context.ts";
import { scopePredicate, scopeRules } from "../../crud/data-scope.ts";
import { requirePermission } from "../../crud/permissions.ts";
import { visibleRows } from "../../crud/scope.ts";
import { and, SqlParams } from "../../crud/sql.ts";
import type { Db } from "../../db/client.ts";
import { yuan } from "../money/money-reads.ts";
import {
  areaPathOf,
  type MeterKey,
  metersOf,
  openAlarms,
  recentCommands,
  recentReadings,
  recentRecharges,
  usageOf,
} from "./detail-overview.db.ts";
import { registryTenant } from "./registry-access.ts";

const base = "/api/blade-pms";

/**
 * The subject of a detail page as the caller may see it: the resource's read permission, then
 * the row by id within the caller's tenant (or the one the platform administrator names) and data
 * scope. Another tenant's id answers 404 as the engine's detail does.
 */
async function visibleSubject<T>(
  db: Db,
  request: FastifyRequest,
  def: ResourceDef,
  select: (where: string, sql: SqlParams) => string,
): Promise<{ row: T; tenantId: string }> {
  const user = await requirePermission(db, request, readCodesOf(def));
  const params = readParams(request);
  const id = optionalId(params, "id");
  if (!id) throw missingParam("id");
  const tenantId = registryTenant(user, params);
  const sql = new SqlParams();
  const conditions = visibleRows(def, user, sql, { tenantId });
  if (def.dataScope) {
    const scope = scopePredicate(def, request, await scopeRules(db, request, def.name), sql);
    if (scope) conditions.push(scope);
  }
  conditions.push(`t.id = ${sql.bind(id)}`);
  const [row] = await db.query<T & { tenant_id: string }>(select(and(conditions), sql), sql.values);
  if (!row) throw notFound(NOT_FOUND_MESSAGE);
  return { row, tenantId: row.tenant_id };
}

const keysOf = (meters: readonly MeterKey[]): MeterKey[] =>
  meters.map((m) => ({ energyType: m.energyType, id: m.id }));

/** A meter as the detail answers it: its configuration stays on the meter page only. */
const withoutExtra = <M extends { extra: unknown }>({ extra: _, ...meter }: M) => meter;

/**
 * One page per room, owner and meter (issue 11): `room/overview`, `owner/overview`,
 * `meter/overview` and `water/overview`, each one answer with the labels joined and a fixed number
 * of queries whatever the number of meters: the subject, its meters with live readings and
 * accounts, the latest readings, commands (or recharges), the open alarms and the usage per day and month.
 */
export async function detailOverviewRoutes(app: FastifyInstance, opts: { db: Db; timeZone: string }) {
  const { db, timeZone } = opts;

  app.get(
    `${base}/room/overview`,
    { config: { resource: "room" }, schema: { tags: ["room"], summary: "Everything about one room" } },
    async (request) => {
      const { row, tenantId } = await visibleSubject<{
        id: string;
        room_name: string;
        room_code: string | null;
        room_type: number;
        floor_area: string | null;
        area_id: string;
        area_path: string | null;
        owners: { id: string; owner_name: string; phone: string | null }[];
      }>(
        db,
        request,
        resources.room,
        (where) =>
          `select t.id::text, t.tenant_id, t.room_name, t.room_code, t.room_type, t.floor_area::text,
                  t.area_id::text, ${areaPathOf("ar")} as area_path,
                  coalesce((select json_agg(json_build_object('id', o.id::text, 'owner_name', o.owner_name, 'phone', o.phone)
                                            order by o.owner_name)
                              from pms_owner_room orr join pms_owner o on o.id = orr.owner_id and o.is_deleted = 0
                             where orr.room_id = t.id and orr.is_deleted = 0), '[]'::json) as owners
             from pms_room t left join pms_area ar on ar.id = t.area_id where ${where}`,
      );
      const meters = await metersOf(
        db,
        tenantId,
        "select energy_type, meter_id from pms_room_meter where tenant_id = $1 and room_id = $2 and is_deleted = 0",
        [row.id],
        timeZone,
      );
      const keys = keysOf(meters);
      return ok<RoomOverview>({
        room: {
          id: row.id,
          roomName: row.room_name,
          roomCode: row.room_code ?? "",
          roomType: row.room_type,
          floorArea: row.floor_area,
          areaId: row.area_id,
          areaPath: row.area_path ?? "",
        },
        owners: row.owners.map((o) => ({ id: o.id, ownerName: o.owner_name, phone: o.phone ?? "" })),
        meters: meters.map(withoutExtra),
        readings: await recentReadings(db, tenantId, keys, timeZone),
        commands: await recentCommands(db, tenantId, keys, timeZone),
        alarms: await openAlarms(db, tenantId, keys, timeZone),
        usage: await usageOf(db, tenantId, keys, timeZone),
      });
    },
  );

  app.get(
    `${base}/owner/overview`,
    { config: { resource: "owner" }, schema: { tags: ["owner"], summary: "Everything about one owner" } },
    async (request) => {
      const { row, tenantId } = await visibleSubject<{
        id: string;
        owner_name: string;
        owner_code: string | null;
        owner_type: number;
        phone: string | null;
        balance: string;
        create_time: Date;
        rooms: { id: string; room_name: string; area_path: string | null }[];
      }>(
        db,
        request,
        resources.owner,
        (where) =>
          `select t.id::text, t.tenant_id, t.owner_name, t.owner_code, t.owner_type, t.phone, t.create_time,
                  coalesce((select sum(a.balance) from pms_account a where a.owner_id = t.id and a.status = 1), 0)::text as balance,
                  coalesce((select json_agg(json_build_object('id', r.id::text, 'room_name', r.room_name,
                                                              'area_path', ${areaPathOf("ar")}) order by r.room_name)
                              from pms_owner_room orr join pms_room r on r.id = orr.room_id and r.is_deleted = 0
                              left join pms_area ar on ar.id = r.area_id
                             where orr.owner_id = t.id and orr.is_deleted = 0), '[]'::json) as rooms
             from pms_owner t where ${where}`,
      );
      // The meters of the owner's rooms, and any meter whose open account is the owner's.
      const meters = await metersOf(
        db,
        tenantId,
        `select rm.energy_type, rm.meter_id from pms_room_meter rm
           join pms_owner_room orr on orr.room_id = rm.room_id and orr.is_deleted = 0
          where rm.tenant_id = $1 and orr.owner_id = $2 and rm.is_deleted = 0
         union
         select energy_type, meter_id from pms_account where tenant_id = $1 and owner_id = $2 and status = 1`,
        [row.id],
        timeZone,
      );
      return ok<OwnerOverview>({
        owner: {
          id: row.id,
          ownerName: row.owner_name,
          ownerCode: row.owner_code ?? "",
          ownerType: row.owner_type,
          phone: row.phone ?? "",
          balance: yuan(row.balance) ?? "0.00",
          createTime: formatDateTime(new Date(row.create_time), timeZone),
        },
        rooms: row.rooms.map((r) => ({ id: r.id, roomName: r.room_name, areaPath: r.area_path ?? "" })),
        meters: meters.map(withoutExtra),
        recharges: await recentRecharges(db, tenantId, row.id, timeZone),
        alarms: await openAlarms(db, tenantId, keysOf(meters), timeZone),
        usage: await usageOf(db, tenantId, keysOf(meters), timeZone),
      });
    },
  );

  for (const def of [resources.meter, resources.water]) {
    const energyType = def === resources.meter ? 1 : 2;
    app.get(
      `${base}/${def.path}/overview`,
      {
        config: { resource: def.name },
        schema: {
          tags: [def.name],
          summary: `Everything about one ${def.name === "meter" ? "electric" : "water"} meter`,
        },
      },
      async (request) => {
        const { row, tenantId } = await visibleSubject<{ id: string }>(
          db,
          request,
          def,
          (where) => `select t.id::text, t.tenant_id from ${def.table} t where ${where}`,
        );
        const [meter] = await metersOf(
          db,
          tenantId,
          `select ${energyType} as energy_type, $2::bigint as meter_id`,
          [row.id],
          timeZone,
        );
        if (!meter) throw notFound(NOT_FOUND_MESSAGE);
        const keys = keysOf([meter]);
        const extra = meter.extra;
        const text = (key: string) => (typeof extra[key] === "string" ? (extra[key] as string) : "");
        const count = (key: string) => (typeof extra[key] === "number" ? (extra[key] as number) : null);
        const installed = extra.installTime;
        // The room's owners, the one the account is held by first.
        const owners = await db.query<{ id: string; owner_name: string; phone: string | null }>(
          `select o.id::text, o.owner_name, o.phone from pms_owner_room orr
             join pms_owner o on o.id = orr.owner_id and o.is_deleted = 0
            where orr.tenant_id = $1 and orr.room_id = $2 and orr.is_deleted = 0 order by o.owner_name`,
          [tenantId, meter.roomId ?? "0"],
        );
        return ok<MeterOverview>({
          meter: {
            ...withoutExtra(meter),
            protocol: text("protocol"),
            meterType: count("meterType"),
            controlStatus: count("controlStatus"),
            ctRatio: count("ctRatio"),
            channel: count("channel"),
            modbusModel: text("modbusModel") || null,
            modbusSlave: count("modbusSlave"),
            chargingSchemeName: text("chargingSchemeName"),
            alarmSchemeName: text("alarmSchemeName"),
            installTime:
              typeof installed === "string" && installed
                ? formatDateTime(new Date(installed), timeZone)
                : null,
            remark: text("remark"),
          },
          owners: owners.map((o) => ({ id: o.id, ownerName: o.owner_name, phone: o.phone ?? "" })),
          readings: await recentReadings(db, tenantId, keys, timeZone),
          commands: await recentCommands(db, tenantId, keys, timeZone),
          alarms: await openAlarms(db, tenantId, keys, timeZone),
          usage: await usageOf(db, tenantId, keys, timeZone),
        });
      },
    );
  }
}

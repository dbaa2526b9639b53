import { readCodesOf, resources } from "@meterline/contracts";
import type { FastifyInstance } from "fastify";
import { formatDateTime } from "../../contract/dates.ts";
import { ok, page } from "../../contract/envelope.ts";
import { badParam } from "../../contract/errors.ts";
import { idList, optionalId, optionalString, paging, readParams } from "../../contract/params.ts";
import { requirePermission } from "../../crud/permissions.ts";
import type { Db, Queryable } from "../../db/client.ts";
import { type CurrentUser, isAdministrator } from "../auth/current-user.ts";
import { outcomeMessage } from "../operations/switching.ts";
import { OwnerGroupService } from "./owner-group.service.ts";
import { registryTenant } from "./registry-access.ts";
import { roomMeterPage } from "./room-meter-page.ts";
import { topology } from "./topology.ts";

const base = "/api/blade-pms";
const readCodes = (name: keyof typeof resources) => readCodesOf(resources[name]);

/** The registry calls beyond plain CRUD (spec §7): topology, owner log, owner groups, room meters. */
export async function registryOperationRoutes(app: FastifyInstance, opts: { db: Db; timeZone: string }) {
  const { db, timeZone } = opts;

  app.get(
    `${base}/area/topologyDiagram`,
    {
      schema: {
        tags: ["area"],
        summary: "Area → room → meter → collector graph, below areaId or for the tenant",
      },
    },
    async (request) => {
      const user = await requirePermission(db, request, [...readCodes("area"), "area_topology"]);
      const params = readParams(request);
      return ok(await topology(db, registryTenant(user, params), optionalId(params, "areaId")));
    },
  );

  app.get(
    `${base}/owner/getOwnerLog`,
    { schema: { tags: ["owner"], summary: "An owner's change log (or the tenant's), newest first" } },
    async (request) => {
      const user = await requirePermission(db, request, readCodes("owner"));
      const params = readParams(request);
      const { current, size, offset } = paging(params);
      const tenantId = registryTenant(user, params);
      const ownerId = optionalId(params, "ownerId") ?? null;
      const where = "l.tenant_id = $1 and ($2::bigint is null or l.owner_id = $2::bigint)";
      const [count] = await db.query<{ n: string }>(
        `select count(*)::text as n from pms_owner_log l where ${where}`,
        [tenantId, ownerId],
      );
      const rows = await db.query<{
        id: string;
        owner_id: string;
        owner_name: string | null;
        action: string;
        content: string;
        create_user_name: string | null;
        create_time: Date;
      }>(
        `select l.id::text as id, l.owner_id::text as owner_id, o.owner_name, l.action, l.content,
                l.create_user_name, l.create_time
           from pms_owner_log l left join pms_owner o on o.id = l.owner_id
          where ${where} order by l.create_time desc, l.id desc limit $3 offset $4`,
        [tenantId, ownerId, size, offset],
      );
      const records = rows.map((r) => ({
        id: r.id,
        ownerId: r.owner_id,
        ownerName: r.owner_name ?? "",
        action: r.action,
        content: r.content,
        createUserName: r.create_user_name ?? "",
        createTime: formatDateTime(r.create_time, timeZone),
      }));
      return ok(page(records, Number(count?.n ?? 0), current, size));
    },
  );

  app.get(
    `${base}/ownerGroup/unbindOwnerGroup`,
    { schema: { tags: ["ownerGroup"], summary: "Owners in no group, for the binding transfer list" } },
    async (request) => {
      const user = await requirePermission(db, request, [...readCodes("ownerGroup"), "ownerGroup_bind"]);
      const params = readParams(request);
      const name = optionalString(params, "ownerName");
      const rows = await db.query<{
        id: string;
        owner_name: string;
        owner_code: string | null;
        phone: string | null;
      }>(
        `select o.id::text as id, o.owner_name, o.owner_code, o.phone from pms_owner o
          where o.tenant_id = $1 and o.is_deleted = 0
            and not exists (select 1 from pms_owner_group_rel r where r.owner_id = o.id)
            and ($2::text is null or o.owner_name ilike '%' || $2::text || '%')
          order by o.owner_name, o.id limit 2000`,
        [registryTenant(user, params), name ?? null],
      );
      return ok(
        rows.map((r) => ({
          id: r.id,
          ownerName: r.owner_name,
          ownerCode: r.owner_code ?? "",
          phone: r.phone ?? "",
        })),
      );
    },
  );

  const groups = (user: CurrentUser, tx: Queryable) => new OwnerGroupService(tx, user, user.tenantId);

  app.post(
    `${base}/ownerGroup/bindOwner`,
    { schema: { tags: ["ownerGroup"], summary: "Add owners (childIdList) to a group (pid)" } },
    async (request) => {
      const user = await requirePermission(db, request, ["ownerGroup_bind"]);
      const params = readParams(request);
      const groupId = optionalId(params, "pid");
      if (!groupId) throw badParam("pid");
      const ownerIds = idList(params, "childIdList");
      const bound = await db.transaction((tx) => groups(user, tx).bind(groupId, ownerIds));
      return ok({ bound });
    },
  );

  app.post(
    `${base}/ownerGroup/unbindOwner`,
    { schema: { tags: ["ownerGroup"], summary: "Remove one owner from its group by relationId" } },
    async (request) => {
      const user = await requirePermission(db, request, ["ownerGroup_bind"]);
      const relationId = optionalId(readParams(request), "relationId");
      if (!relationId) throw badParam("relationId");
      await db.transaction((tx) => groups(user, tx).unbind(relationId));
      return ok({});
    },
  );

  app.post(
    `${base}/ownerGroup/closeMeter`,
    {
      schema: {
        tags: ["ownerGroup"],
        summary: "Queue a cut of supply for every meter of the group's owners",
      },
    },
    async (request) => {
      const user = await requirePermission(db, request, ["ownerGroup_close"]);
      const groupId = optionalId(readParams(request), "id");
      if (!groupId) throw badParam("id");
      const batch = await db.transaction((tx) => groups(user, tx).closeMeters(groupId));
      return ok(batch, outcomeMessage(batch, "断电"));
    },
  );

  app.get(
    `${base}/roommeter/roomMeterPage`,
    {
      schema: { tags: ["roomMeter"], summary: "Room meters with their room, area, meter address and owner" },
    },
    async (request) => {
      const user = await requirePermission(db, request, readCodes("roomMeter"));
      const params = readParams(request);
      return ok(await roomMeterPage(db, registryTenant(user, params), params, isAdministrator(user)));
    },
  );
}

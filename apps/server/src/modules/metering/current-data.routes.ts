import { permissionCodes, resources } from "@meterline/contracts";
import type { FastifyInstance } from "fastify";
import { ok } from "../../contract/envelope.ts";
import { badRequest, notFound } from "../../contract/errors.ts";
import { idList, optionalString, readParams } from "../../contract/params.ts";
import { requirePermission } from "../../crud/permissions.ts";
import type { Db } from "../../db/client.ts";
import { registryTenant } from "../pms/registry-access.ts";

const NOT_FOUND = "ids: 实时数据不存在";

/**
 * `metercurrentdata/remove` and `/submit` (spec §7), with rules that lose nothing. The table is the
 * readings sink's latest values per meter, so nothing in it is deleted or typed over:
 * - remove hides rows from the lists, stamped with who and when; the meter's next poll clears
 *   the flag (the sink writes `hidden = 0`), so a meter that still answers shows again;
 * - submit edits the operator's remark of an existing row, nothing else.
 * Another tenant's id reads as absent (404), and then nothing changes.
 */
export async function currentDataRoutes(app: FastifyInstance, opts: { db: Db }) {
  const def = resources.meterCurrentData;
  const base = `/api/${def.service}/${def.path}`;
  const codes = permissionCodes(def);
  const operatorOf = (user: { realName?: string; userName?: string; account: string }) =>
    (user.realName || user.userName || user.account).slice(0, 64);

  app.post(
    `${base}/remove`,
    { schema: { tags: [def.name], summary: "Hide rows from the lists" } },
    async (request) => {
      const user = await requirePermission(opts.db, request, [codes.remove]);
      const params = readParams(request);
      const ids = idList(params, "ids");
      const tenantId = registryTenant(user, params);
      await opts.db.transaction(async (tx) => {
        const rows = await tx.query<{ id: string }>(
          `select id::text from pms_meter_current_data
          where tenant_id = $1 and id = any($2::bigint[]) and coalesce(hidden, 0) = 0 for update`,
          [tenantId, ids],
        );
        // All or nothing: one id the caller cannot see (or hid already) fails the call, nothing hidden.
        if (rows.length !== new Set(ids).size) throw notFound(NOT_FOUND);
        await tx.query(
          `update pms_meter_current_data set hidden = 1, hide_user = $3, hide_time = now()
          where tenant_id = $1 and id = any($2::bigint[])`,
          [tenantId, ids, operatorOf(user)],
        );
      });
      return ok({});
    },
  );

  app.post(
    `${base}/submit`,
    { schema: { tags: [def.name], summary: "Edit a row's remark" } },
    async (request) => {
      const user = await requirePermission(opts.db, request, [codes.edit]);
      const params = readParams(request);
      const id = optionalString(params, "id");
      if (!id) throw badRequest("id: 此记录由系统写入,不能手工新增;提交须带 id,只修改已有记录的备注");
      if (!/^\d{1,19}$/.test(id)) throw badRequest("id: 应为数字");
      const remark = optionalString(params, "remark")?.trim() ?? "";
      if (remark.length > 255) throw badRequest("remark: 备注不能超过 255 个字");
      const changed = await opts.db.query<{ id: string }>(
        `update pms_meter_current_data set remark = $3
        where tenant_id = $1 and id = $2 and coalesce(hidden, 0) = 0 returning id::text`,
        [registryTenant(user, params), id, remark === "" ? null : remark],
      );
      if (changed.length === 0) throw notFound("id: 实时数据不存在");
      return ok({ id });
    },
  );
}

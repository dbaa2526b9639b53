import { resourceBase, resources } from "@meterline/contracts";
import type { FastifyInstance } from "fastify";
import { done } from "../../contract/envelope.ts";
import { badRequest, notFound } from "../../contract/errors.ts";
import { optionalId, readParams } from "../../contract/params.ts";
import { requirePermission } from "../../crud/permissions.ts";
import type { Db } from "../../db/client.ts";
import { sendObject } from "./send-object.ts";
import type { AttachObject, StorageService } from "./storage.service.ts";

const ENABLE = "oss_enable";
const DOWNLOAD = "attach_download";

/**
 * The object-storage calls beside the plain CRUD: enable one configuration of the caller's tenant
 * once its storage answers (the one enabled before stays enabled otherwise), and download an
 * attachment.
 */
export async function storageRoutes(app: FastifyInstance, opts: { db: Db; storage: StorageService }) {
  const { db, storage } = opts;

  app.post(
    `${resourceBase(resources.oss)}/enable`,
    { schema: { tags: ["oss"], summary: "Enable one storage configuration of the tenant" } },
    async (request) => {
      const caller = await requirePermission(db, request, [ENABLE], resources.oss.guard);
      const id = optionalId(readParams(request), "id");
      if (!id) throw badRequest("id: 不能为空");
      const [row] = await db.query(
        "select 1 from blade_oss where id = $1 and tenant_id = $2 and is_deleted = 0",
        [id, caller.tenantId],
      );
      if (!row) throw notFound("id: 存储配置不存在");
      // Tested before anything changes: an unreachable storage is refused and the enabled one stays.
      await storage.check(caller.tenantId, id);
      await db.transaction(async (tx) => {
        await tx.query(
          `update blade_oss set status = case when id = $1 then 2 else 1 end, update_user = nullif($3, '')::bigint, update_time = now()
            where tenant_id = $2 and is_deleted = 0 and (status = 2 or id = $1)`,
          [id, caller.tenantId, caller.userId],
        );
      });
      return done();
    },
  );

  app.get(
    `${resourceBase(resources.attach)}/download`,
    { compress: false, schema: { tags: ["attach"], summary: "Download an attachment (Range honoured)" } },
    async (request, reply) => {
      const caller = await requirePermission(db, request, [DOWNLOAD]);
      const id = optionalId(readParams(request), "id");
      if (!id) throw badRequest("id: 不能为空");
      const [row] = await db.query<AttachObject>(
        "select id, oss_id, object_key, content_type, original_name from blade_attach where id = $1 and tenant_id = $2",
        [id, caller.tenantId],
      );
      if (!row) throw notFound("id: 附件不存在");
      return sendObject(request, reply, storage, row, "attachment");
    },
  );
}

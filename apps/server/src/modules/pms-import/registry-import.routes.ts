import multipart from "@fastify/multipart";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { ok } from "../../contract/envelope.ts";
import { badRequest } from "../../contract/errors.ts";
import { requirePermission } from "../../crud/permissions.ts";
import type { Db } from "../../db/client.ts";
import { MAX_IMPORT_BYTES } from "./import-columns.ts";
import { readImportSheet } from "./import-sheet.ts";
import { importTemplate } from "./import-template.ts";
import { previewImport, runImport } from "./registry-import.ts";

const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
/** The button code of the import (seeded under the room menu); operators, not only admins, hold it. */
const PERMISSION = ["room_import"];
const MAX_MB = MAX_IMPORT_BYTES / 1024 / 1024;

/** The uploaded .xlsx of the `file` field; every way it can be wrong answers 400 naming `file`. */
async function uploadedSheet(request: FastifyRequest) {
  if (!request.isMultipart()) throw badRequest("file: 请以 multipart/form-data 上传 .xlsx 文件");
  const part = await request.file().catch(() => {
    throw badRequest("file: 上传内容无法解析");
  });
  if (part?.fieldname !== "file") throw badRequest("file: 请选择要导入的文件");
  if (!part.filename.toLowerCase().endsWith(".xlsx")) throw badRequest("file: 只能导入 .xlsx 文件");
  const content = await part.toBuffer().catch(() => {
    throw badRequest(`file: 文件不能超过 ${MAX_MB}MB`);
  });
  return readImportSheet(content);
}

/**
 * Excel import of the registry: one row makes the area path, the room, its owner and its meters
 * with their links. The preview answers what an import would do without writing; the import does
 * it in one transaction and hands back the rejected rows as a sheet. Both act in the caller's tenant.
 */
export async function registryImportRoutes(app: FastifyInstance, opts: { db: Db; timeZone: string }) {
  await app.register(multipart, { limits: { fileSize: MAX_IMPORT_BYTES, files: 1, fields: 5, parts: 6 } });
  const tags = ["room"];

  app.get(
    "/api/blade-pms/room/import-template",
    { schema: { tags, summary: "The registry import template" } },
    async (request, reply) => {
      await requirePermission(opts.db, request, PERMISSION);
      const types = await opts.db.query<{ dict_value: string }>(
        `select dict_value from sys_dict where code = 'room_type' and parent_id > 0 and is_deleted = 0
          order by sort, id`,
      );
      return reply
        .header("content-type", XLSX)
        .header(
          "content-disposition",
          `attachment; filename*=UTF-8''${encodeURIComponent("房间档案导入模板.xlsx")}`,
        )
        .send(await importTemplate(types.map((t) => t.dict_value)));
    },
  );

  app.post(
    "/api/blade-pms/room/import-preview",
    { schema: { tags, summary: "What importing a registry sheet would do, without writing" } },
    async (request) => {
      const caller = await requirePermission(opts.db, request, PERMISSION);
      const rows = await uploadedSheet(request);
      return ok(await previewImport(opts.db, caller, rows, opts.timeZone));
    },
  );

  app.post(
    "/api/blade-pms/room/import",
    { schema: { tags, summary: "Import areas, rooms, owners and meters from a registry sheet" } },
    async (request) => {
      const caller = await requirePermission(opts.db, request, PERMISSION);
      const rows = await uploadedSheet(request);
      const result = await runImport(opts.db, caller, rows, opts.timeZone);
      return ok(result, `导入完成: 成功 ${result.imported} 行, 未导入 ${result.rejected} 行`);
    },
  );
}

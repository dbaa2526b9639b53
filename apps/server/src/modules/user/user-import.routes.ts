import multipart from "@fastify/multipart";
import type { FastifyInstance } from "fastify";
import { ok } from "../../contract/envelope.ts";
import { badRequest } from "../../contract/errors.ts";
import { optionalString, readParams } from "../../contract/params.ts";
import { requirePermission } from "../../crud/permissions.ts";
import type { Db } from "../../db/client.ts";
import { importTemplate, importUsers, readUserSheet } from "./user-import.ts";

const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/** Excel import of users with a template and a sheet of the rejected rows (contract §10.1). */
export async function userImportRoutes(app: FastifyInstance, opts: { db: Db; timeZone: string }) {
  await app.register(multipart, { limits: { fileSize: 5 * 1024 * 1024, files: 1, fields: 5, parts: 6 } });
  const tags = ["user"];

  app.get(
    "/api/blade-user/export-template",
    { schema: { tags, summary: "The user import template" } },
    async (request, reply) => {
      await requirePermission(opts.db, request, ["user_import"], "admin");
      return reply
        .header("content-type", XLSX)
        .header(
          "content-disposition",
          `attachment; filename*=UTF-8''${encodeURIComponent("用户导入模板.xlsx")}`,
        )
        .send(await importTemplate());
    },
  );

  app.post(
    "/api/blade-user/import-user",
    { schema: { tags, summary: "Import users from an Excel sheet" } },
    async (request) => {
      const caller = await requirePermission(opts.db, request, ["user_import"], "admin");
      if (!request.isMultipart()) throw badRequest("file: 请以 multipart/form-data 上传 .xlsx 文件");
      const part = await request.file().catch(() => {
        throw badRequest("file: 上传内容无法解析");
      });
      if (!part) throw badRequest("file: 请选择要导入的文件");
      if (!part.filename.toLowerCase().endsWith(".xlsx")) throw badRequest("file: 只能导入 .xlsx 文件");
      const content = await part.toBuffer().catch(() => {
        throw badRequest("file: 文件不能超过 5MB");
      });
      const covered = optionalString(readParams(request), "isCovered") === "1";
      const sheet = await readUserSheet(content);
      const result = await opts.db.transaction((tx) =>
        importUsers(tx, caller, sheet, { covered, timeZone: opts.timeZone }),
      );
      return ok(result, `导入完成: 新增 ${result.created},更新 ${result.updated},未导入 ${result.rejected}`);
    },
  );
}

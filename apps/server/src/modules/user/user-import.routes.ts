import type { FastifyInstance } from "fastify";
import { optionalString, readParams } from "../../contract/params.ts";
import { requirePermission } from "../../crud/permissions.ts";
import { sheetImportRoutes } from "../../crud/sheet-import-routes.ts";
import type { Db } from "../../db/client.ts";
import { importTemplate, importUsers, readUserSheet } from "./user-import.ts";

/** Excel import of users with a template and a sheet of the rejected rows (contract §10.1). */
export async function userImportRoutes(
  app: FastifyInstance,
  opts: { db: Db; timeZone: string; production: boolean },
) {
  await sheetImportRoutes(app, {
    tags: ["user"],
    maxBytes: 5 * 1024 * 1024,
    authorize: (request) => requirePermission(opts.db, request, ["user_import"], "admin"),
    template: {
      path: "/api/blade-user/export-template",
      summary: "The user import template",
      fileName: "用户导入模板.xlsx",
      build: importTemplate,
    },
    uploads: [
      {
        path: "/api/blade-user/import-user",
        summary: "Import users from an Excel sheet",
        handle: async (content, caller, request) => {
          const covered = optionalString(readParams(request), "isCovered") === "1";
          const sheet = await readUserSheet(content);
          const result = await opts.db.transaction((tx) =>
            importUsers(tx, caller, sheet, { covered, timeZone: opts.timeZone, production: opts.production }),
          );
          return {
            data: result,
            message: `导入完成: 新增 ${result.created},更新 ${result.updated},未导入 ${result.rejected}`,
          };
        },
      },
    ],
  });
}

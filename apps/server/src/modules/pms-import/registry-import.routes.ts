import type { FastifyInstance } from "fastify";
import { requirePermission } from "../../crud/permissions.ts";
import { sheetImportRoutes } from "../../crud/sheet-import-routes.ts";
import type { Db } from "../../db/client.ts";
import { MAX_IMPORT_BYTES } from "./import-columns.ts";
import { readImportSheet } from "./import-sheet.ts";
import { importTemplate } from "./import-template.ts";
import { previewImport, runImport } from "./registry-import.ts";

/** The button code of the import (seeded under the room menu); operators, not only admins, hold it. */
const PERMISSION = ["room_import"];

/**
 * Excel import of the registry: one row makes the area path, the room, its owner and its meters
 * with their links. The preview answers what an import would do without writing; the import does
 * it in one transaction and hands back the rejected rows as a sheet. Both act in the caller's tenant.
 */
export async function registryImportRoutes(app: FastifyInstance, opts: { db: Db; timeZone: string }) {
  await sheetImportRoutes(app, {
    tags: ["room"],
    maxBytes: MAX_IMPORT_BYTES,
    field: "file",
    authorize: (request) => requirePermission(opts.db, request, PERMISSION),
    template: {
      path: "/api/blade-pms/room/import-template",
      summary: "The registry import template",
      fileName: "房间档案导入模板.xlsx",
      build: async () => {
        const types = await opts.db.query<{ dict_value: string }>(
          `select dict_value from sys_dict where code = 'room_type' and parent_id > 0 and is_deleted = 0
            order by sort, id`,
        );
        return importTemplate(types.map((t) => t.dict_value));
      },
    },
    uploads: [
      {
        path: "/api/blade-pms/room/import-preview",
        summary: "What importing a registry sheet would do, without writing",
        handle: async (content, caller) => ({
          data: await previewImport(opts.db, caller, await readImportSheet(content), opts.timeZone),
        }),
      },
      {
        path: "/api/blade-pms/room/import",
        summary: "Import areas, rooms, owners and meters from a registry sheet",
        handle: async (content, caller) => {
          const result = await runImport(opts.db, caller, await readImportSheet(content), opts.timeZone);
          return {
            data: result,
            message: `导入完成: 成功 ${result.imported} 行, 未导入 ${result.rejected} 行`,
          };
        },
      },
    ],
  });
}

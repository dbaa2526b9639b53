import type { FastifyInstance } from "fastify";
import type { FieldCipher } from "../../crud/field-cipher.ts";
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
export async function registryImportRoutes(
  app: FastifyInstance,
  opts: { db: Db; timeZone: string; cipher: FieldCipher },
) {
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
        const labels = async (code: string) =>
          (
            await opts.db.query<{ dict_key: string; dict_value: string }>(
              `select dict_key, dict_value from sys_dict where code = $1 and parent_id > 0 and is_deleted = 0
                order by sort, id`,
              [code],
            )
          )
            // CJ/T 188 is the water meters' protocol, never offered for the 电表规约 column.
            .filter((entry) => !entry.dict_key.startsWith("cjt188"))
            .map((entry) => entry.dict_value);
        return importTemplate(await labels("room_type"), {
          meterProtocols: await labels("meter_protocol"),
          collectorTypes: await labels("collector_type"),
          modbusModels: await labels("modbus_model"),
        });
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
          const result = await runImport(
            opts.db,
            caller,
            await readImportSheet(content),
            opts.timeZone,
            opts.cipher,
          );
          return {
            data: result,
            message: `导入完成: 成功 ${result.imported} 行, 未导入 ${result.rejected} 行`,
          };
        },
      },
    ],
  });
}

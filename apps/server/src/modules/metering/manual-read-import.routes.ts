import { resources } from "@meterline/contracts";
import type { FastifyInstance } from "fastify";
import { requirePermission } from "../../crud/permissions.ts";
import { sheetImportRoutes } from "../../crud/sheet-import-routes.ts";
import type { Db } from "../../db/client.ts";
import { importManualReads, MAX_READ_IMPORT_BYTES, manualReadTemplate } from "./manual-read-import.ts";
import type { EnergyKind } from "./reading-corrections.ts";

/**
 * Excel import of reads taken on site: `dataread/import-template` and `dataread/import` (the water
 * log's alike), behind the screens' import buttons (`dataRead_import`, `dataReadOther_import`,
 * `waterDataRead_import`). Each kind is its own plugin: the multipart parser is registered per scope.
 */
export async function manualReadImportRoutes(app: FastifyInstance, opts: { db: Db; timeZone: string }) {
  const screens: [EnergyKind, string, string[]][] = [
    ["electric", resources.dataRead.path, ["dataRead_import", "dataReadOther_import"]],
    ["water", resources.waterDataRead.path, ["waterDataRead_import"]],
  ];
  for (const [kind, path, codes] of screens) {
    await app.register(async (scope) => {
      await sheetImportRoutes(scope, {
        tags: [path],
        maxBytes: MAX_READ_IMPORT_BYTES,
        field: "file",
        authorize: (request) => requirePermission(opts.db, request, codes),
        template: {
          path: `/api/blade-pms/${path}/import-template`,
          summary: "The template of reads taken on site",
          fileName: kind === "electric" ? "电表人工抄读导入模板.xlsx" : "水表人工抄读导入模板.xlsx",
          build: () => manualReadTemplate(kind),
        },
        uploads: [
          {
            path: `/api/blade-pms/${path}/import`,
            summary: "Import reads taken on site, each as a manual submit",
            handle: async (content, caller) => {
              const result = await importManualReads(opts.db, opts.timeZone, caller, kind, content);
              return {
                data: result,
                message: `导入完成: 成功 ${result.imported} 行, 未导入 ${result.rejected} 行`,
              };
            },
          },
        ],
      });
    });
  }
}

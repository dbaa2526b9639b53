import { readCodesOf, type TreeNode } from "@meterline/contracts";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { ok, page } from "../../contract/envelope.ts";
import { badParam, badRequest, notFound } from "../../contract/errors.ts";
import { optionalString, paging, readParams, requiredString } from "../../contract/params.ts";
import { requirePermission } from "../../crud/permissions.ts";
import { sendWorkbook, sheetImportRoutes } from "../../crud/sheet-import-routes.ts";
import type { Db } from "../../db/client.ts";
import { RegionRepository, type RegionRow } from "./region.repository.ts";
import {
  followsParent,
  importRegions,
  MAX_REGION_ROWS,
  readRegionSheet,
  regionWorkbook,
} from "./region-excel.ts";

const base = "/api/blade-system/region";
const CODE = /^\d{2,12}$/;

const toVo = (r: RegionRow) => ({
  code: r.code,
  parentCode: r.parent_code,
  ancestors: r.ancestors,
  name: r.name,
  regionLevel: r.region_level,
  sort: r.sort,
  remark: r.remark ?? "",
  hasChildren: Boolean(r.has_children),
});

const toNode = (r: RegionRow): TreeNode => ({
  id: r.code,
  parentId: r.parent_code,
  title: r.name,
  key: r.code,
  value: r.code,
  hasChildren: Boolean(r.has_children),
});

/** Administrative regions, keyed by code and loaded a level at a time (contract §10.8). */
export async function regionRoutes(app: FastifyInstance, opts: { db: Db }) {
  const { db } = opts;
  const repo = new RegionRepository(db);
  const tags = ["region"];
  // Regions are read by the region screen only; no other form picks them.
  const requireRead = (request: FastifyRequest) =>
    requirePermission(db, request, readCodesOf({ name: "region" }));
  const code = (params: Record<string, unknown>, name: string, fallback?: string) => {
    const value = optionalString(params, name) ?? fallback;
    if (!value || !CODE.test(value)) throw badParam(name);
    return value;
  };

  app.get(
    `${base}/lazy-tree`,
    { schema: { tags, summary: "One level of regions as tree nodes" } },
    async (request) => {
      await requireRead(request);
      return ok((await repo.children(code(readParams(request), "parentCode", "00"))).map(toNode));
    },
  );
  app.get(`${base}/lazy-list`, { schema: { tags, summary: "One level of regions" } }, async (request) => {
    await requireRead(request);
    return ok((await repo.children(code(readParams(request), "parentCode", "00"))).map(toVo));
  });
  app.get(
    `${base}/select`,
    { schema: { tags, summary: "Children of a region, for cascading selects" } },
    async (request) => {
      await requireRead(request);
      return ok((await repo.children(code(readParams(request), "code", "00"))).map(toVo));
    },
  );
  app.get(`${base}/list`, { schema: { tags, summary: "Page of regions" } }, async (request) => {
    await requireRead(request);
    const params = readParams(request);
    const { current, size, offset } = paging(params);
    const levelText = optionalString(params, "regionLevel");
    const level = levelText === undefined ? undefined : Number(levelText);
    if (level !== undefined && !Number.isInteger(level)) throw badParam("regionLevel");
    const filters = { name: optionalString(params, "name"), code: optionalString(params, "code"), level };
    const { total, rows } = await repo.page(filters, size, offset);
    return ok(page(rows.map(toVo), total, current, size));
  });
  app.get(`${base}/detail`, { schema: { tags, summary: "One region by code" } }, async (request) => {
    await requireRead(request);
    const region = await repo.one(code(readParams(request), "code"));
    if (!region) throw notFound("行政区划不存在");
    const parent = await repo.one(region.parent_code);
    return ok({ ...toVo(region), parentName: parent?.name ?? "" });
  });

  app.post(`${base}/submit`, { schema: { tags, summary: "Add or update a region" } }, async (request) => {
    // Either write permission first: a caller without them learns nothing from validation.
    await requirePermission(db, request, ["region_add", "region_edit"], "administrator");
    const body = (request.body ?? {}) as Record<string, unknown>;
    const regionCode = code(body, "code");
    const parentCode = code(body, "parentCode");
    const existing = await repo.one(regionCode);
    await requirePermission(db, request, [existing ? "region_edit" : "region_add"], "administrator");
    const name = requiredString(body, "name").trim();
    if (name.length > 64) throw badRequest("name: 长度不能超过64个字符");
    if (!followsParent(regionCode, parentCode)) throw badRequest("code: 区划编号须以上级编号开头");
    const parent = await repo.one(parentCode);
    if (!parent) throw badRequest("parentCode: 上级区划不存在");
    const sort = Number(optionalString(body, "sort") ?? 1);
    if (!Number.isInteger(sort)) throw badParam("sort");
    await repo.save({ code: regionCode, parent, name, sort, remark: optionalString(body, "remark") ?? null });
    return ok({ code: regionCode });
  });

  app.get(
    `${base}/export-region`,
    { schema: { tags, summary: "Regions under a code (or all) as an Excel sheet" } },
    async (request, reply) => {
      await requirePermission(db, request, ["region_export"], "administrator");
      const params = readParams(request);
      const root = optionalString(params, "code") ? code(params, "code") : undefined;
      const rows = await repo.under(root, MAX_REGION_ROWS + 1);
      if (rows.length > MAX_REGION_ROWS)
        throw badRequest(`code: 一次最多导出 ${MAX_REGION_ROWS} 条, 请选择更小的范围`);
      return sendWorkbook(reply, "行政区划.xlsx", await regionWorkbook(rows));
    },
  );
  await sheetImportRoutes(app, {
    tags,
    maxBytes: 5 * 1024 * 1024,
    authorize: (request) => requirePermission(db, request, ["region_import"], "administrator"),
    template: {
      path: `${base}/export-template`,
      summary: "The region import template",
      fileName: "行政区划导入模板.xlsx",
      build: () => regionWorkbook([]),
    },
    uploads: [
      {
        path: `${base}/import-region`,
        summary: "Add or update regions from an Excel sheet",
        handle: async (content) => {
          const sheet = await readRegionSheet(content);
          const result = await db.transaction((tx) => importRegions(new RegionRepository(tx), sheet));
          return {
            data: result,
            message: `导入完成: 新增 ${result.created},更新 ${result.updated},未导入 ${result.rejected}`,
          };
        },
      },
    ],
  });

  app.post(
    `${base}/remove`,
    { schema: { tags, summary: "Remove a region without children" } },
    async (request) => {
      await requirePermission(db, request, ["region_delete"], "administrator");
      const regionCode = code(readParams(request), "id");
      const region = await repo.one(regionCode);
      if (!region) throw notFound("行政区划不存在");
      if (region.has_children) throw badRequest("请先删除子节点!");
      await repo.remove(regionCode);
      return ok({});
    },
  );
}

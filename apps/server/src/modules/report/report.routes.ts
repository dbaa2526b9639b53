import type { FastifyInstance } from "fastify";
import { formatDateTime } from "../../contract/dates.ts";
import { done, ok, page } from "../../contract/envelope.ts";
import { badRequest, notFound } from "../../contract/errors.ts";
import { idList, optionalId, optionalString, paging, readParams } from "../../contract/params.ts";
import { requirePermission } from "../../crud/permissions.ts";
import type { Db } from "../../db/client.ts";
import { nextId } from "../../db/ids.ts";
import { type MoneySheet, sendMoneySheet } from "../money/money-sheet.ts";
import {
  findReportFile,
  insertReportFile,
  listReportFiles,
  type ReportFileRow,
  type ResultRow,
  removeReportFiles,
  updateReportFile,
} from "./report.repository.ts";
import { EXPORT_LIMIT, RUN_LIMIT, runForCaller } from "./report.service.ts";
import { CHART_TYPES, DATASETS, GROUP_LABELS, MEASURE_FNS } from "./report-catalog.ts";
import { parseDefinition } from "./report-definition.ts";
import { reportPdf } from "./report-pdf.ts";

const base = "/api/blade-report/report/rest";
const tags = ["report"];

const LIST = ["report_list", "report_list_view"];
const ADD = "report_list_add";
const EDIT = "report_list_edit";
const DELETE = "report_list_delete";
const VIEW = "report_list_view";
const EXPORT = "report_list_export";

/** The contract's blade_report_file row (content as base64) plus the definition read from it. */
function view(row: ReportFileRow, timeZone: string) {
  const content = Buffer.from(row.content);
  let definition: unknown = null;
  try {
    definition = JSON.parse(content.toString("utf8"));
  } catch {
    // A row written by something else than this console stays listed, without a definition.
  }
  return {
    id: row.id,
    name: row.name,
    content: content.toString("base64"),
    definition,
    builtin: row.tenant_id === null,
    createTime: formatDateTime(row.create_time, timeZone),
    updateTime: formatDateTime(row.update_time, timeZone),
    isDeleted: row.is_deleted,
  };
}

const bodyOf = (body: unknown): Record<string, unknown> =>
  typeof body === "object" && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};

/**
 * report/rest (contract §15) without UReport: list and remove as the family has them, detail,
 * submit of a definition built in the console, run (table and chart data) and export as Excel or
 * PDF. Definitions are data checked against the catalogue (report-catalog.ts); no SQL is accepted.
 */
export async function reportRoutes(app: FastifyInstance, opts: { db: Db; timeZone: string }) {
  const { db, timeZone } = opts;

  app.get(
    `${base}/list`,
    { schema: { tags, summary: "Report definitions of the tenant and the shipped ones" } },
    async (request) => {
      const caller = await requirePermission(db, request, LIST);
      const params = readParams(request);
      const { current, size, offset } = paging(params, 200);
      const { rows, total } = await listReportFiles(
        db,
        caller.tenantId,
        optionalString(params, "name"),
        size,
        offset,
      );
      return ok(
        page(
          rows.map((r) => view(r, timeZone)),
          total,
          current,
          size,
        ),
      );
    },
  );

  app.get(`${base}/detail`, { schema: { tags, summary: "One report definition" } }, async (request) => {
    const caller = await requirePermission(db, request, LIST);
    const id = optionalId(readParams(request), "id");
    if (!id) throw badRequest("id: 不能为空");
    const row = await findReportFile(db, caller.tenantId, id);
    if (!row) throw notFound("id: 报表不存在");
    return ok(view(row, timeZone));
  });

  app.get(
    `${base}/catalog`,
    { schema: { tags, summary: "Datasets, group keys, measures, filters and charts a definition may use" } },
    async (request) => {
      await requirePermission(db, request, LIST);
      return ok({
        datasets: Object.entries(DATASETS).map(([key, d]) => ({
          key,
          label: d.label,
          dated: d.dated,
          groups: d.groups.map((g) => ({ key: g, label: GROUP_LABELS[g] })),
          columns: Object.entries(d.columns).map(([column, c]) => ({ key: column, label: c.label })),
          filters: Object.entries(d.filters).map(([filter, f]) => ({
            key: filter,
            label: f.label,
            values: f.values.map((value) => ({ value, label: f.valueLabels[value] })),
          })),
        })),
        fns: MEASURE_FNS,
        charts: CHART_TYPES,
      });
    },
  );

  app.post(
    `${base}/submit`,
    { schema: { tags, summary: "Create or update a report definition" } },
    async (request) => {
      const body = bodyOf(request.body);
      const id = optionalId(body, "id");
      const caller = await requirePermission(db, request, [id ? EDIT : ADD]);
      const name = typeof body.name === "string" ? body.name.trim() : "";
      if (!name) throw badRequest("name: 不能为空");
      if (name.length > 100) throw badRequest("name: 最多 100 个字符");
      const content = Buffer.from(JSON.stringify(parseDefinition(body.definition)), "utf8");
      if (id) {
        const updated = await updateReportFile(db, { id, tenantId: caller.tenantId, name, content });
        if (!updated) {
          const row = await findReportFile(db, caller.tenantId, id);
          if (row) throw badRequest("id: 内置报表不能修改,请另存为新报表");
          throw notFound("id: 报表不存在");
        }
        return ok({ id });
      }
      const created = nextId();
      await insertReportFile(db, {
        id: created,
        tenantId: caller.tenantId,
        name,
        content,
        userId: caller.userId,
      });
      return ok({ id: created });
    },
  );

  app.post(
    `${base}/remove`,
    { schema: { tags, summary: "Remove report definitions of the tenant (ids)" } },
    async (request) => {
      const caller = await requirePermission(db, request, [DELETE]);
      const ids = idList(readParams(request), "ids");
      if (!(await removeReportFiles(db, caller.tenantId, ids)))
        throw badRequest("ids: 内置报表或不存在的报表不能删除");
      return done();
    },
  );

  app.post(
    `${base}/run`,
    { schema: { tags, summary: "Run a saved report (id) or a definition; table rows and chart data" } },
    async (request) => {
      const caller = await requirePermission(db, request, [VIEW]);
      const body = { ...readParams(request), ...bodyOf(request.body) };
      const result = await runForCaller(
        db,
        request,
        caller,
        {
          ...(optionalId(body, "id") ? { id: optionalId(body, "id") } : {}),
          definition: body.definition,
          dateFrom: body.dateFrom,
          dateTo: body.dateTo,
        },
        timeZone,
        RUN_LIMIT,
      );
      return ok(result);
    },
  );

  app.get(
    `${base}/export`,
    { compress: false, schema: { tags, summary: "A saved report as .xlsx or .pdf (format)" } },
    async (request, reply) => {
      const caller = await requirePermission(db, request, [EXPORT]);
      const params = readParams(request);
      const id = optionalId(params, "id");
      if (!id) throw badRequest("id: 不能为空");
      const format = optionalString(params, "format") ?? "xlsx";
      if (format !== "xlsx" && format !== "pdf") throw badRequest("format: 只能是 xlsx 或 pdf");
      const result = await runForCaller(
        db,
        request,
        caller,
        { id, dateFrom: params.dateFrom, dateTo: params.dateTo },
        timeZone,
        EXPORT_LIMIT,
      );
      const note = result.truncated ? `仅导出前 ${EXPORT_LIMIT} 行,请缩小查询范围` : undefined;
      if (result.truncated) reply.header("x-export-truncated", String(EXPORT_LIMIT));
      const file = `${result.name}-${new Date().toISOString().slice(0, 10)}`;
      if (format === "pdf") {
        const stream = await reportPdf(result, note);
        return reply
          .header("content-type", "application/pdf")
          .header("content-disposition", `attachment; filename*=UTF-8''${encodeURIComponent(`${file}.pdf`)}`)
          .send(stream);
      }
      const sheet: MoneySheet<ResultRow> = {
        title: result.name,
        columns: result.columns.map((c) => ({
          header: c.zh,
          value: (r) => r[c.key] ?? null,
          money: c.measure,
          width: 18,
        })),
        count: result.rows.length,
        rows: async (limit, offset) => result.rows.slice(offset, offset + limit),
      };
      return sendMoneySheet(db, request, reply, sheet);
    },
  );
}

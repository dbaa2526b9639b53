import type { FastifyRequest } from "fastify";
import { badRequest, notFound } from "../../contract/errors.ts";
import type { Db } from "../../db/client.ts";
import type { CurrentUser } from "../auth/current-user.ts";
import { itemScopeOf } from "../operations/batch-jobs/item-scope.ts";
import { findReportFile, type ReportFileRow, type ResultRow, runReport } from "./report.repository.ts";
import { DATASETS, GROUP_LABELS } from "./report-catalog.ts";
import { parseDefinition, type ReportDefinition, reportDay } from "./report-definition.ts";

/** Rows a run shows at most: a report is a summary, not a dump. */
export const RUN_LIMIT = 1_000;
/** Rows an export writes at most (the file says when it stopped there). */
export const EXPORT_LIMIT = 10_000;

const FN_LABELS = {
  sum: { zh: "合计", en: "Sum" },
  count: { zh: "计数", en: "Count" },
  avg: { zh: "平均", en: "Average" },
  max: { zh: "最大", en: "Max" },
} as const;

export interface ResultColumn {
  key: string;
  zh: string;
  en: string;
  /** A measure (a number as exact text) rather than a group value. */
  measure: boolean;
}

export interface ReportResult {
  name: string;
  definition: ReportDefinition;
  columns: ResultColumn[];
  rows: ResultRow[];
  /** True when the rows stop at the bound and there were more. */
  truncated: boolean;
}

/** The stored definition of a row (the bytes of its JSON), checked again: the catalogue may have changed. */
export function definitionOf(row: ReportFileRow): ReportDefinition {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(row.content).toString("utf8"));
  } catch {
    throw badRequest("content: 报表定义无法解析");
  }
  return parseDefinition(parsed, "content");
}

export function columnsOf(definition: ReportDefinition): ResultColumn[] {
  const dataset = DATASETS[definition.dataset]!;
  return [
    ...definition.groupBy.map((key, i) => ({ key: `g${i}`, ...GROUP_LABELS[key], measure: false })),
    ...definition.measures.map((m, i) => {
      const column = dataset.columns[m.column]!.label;
      const fn = FN_LABELS[m.fn];
      return { key: `m${i}`, zh: `${column.zh}${fn.zh}`, en: `${fn.en} of ${column.en}`, measure: true };
    }),
  ];
}

/**
 * Runs a report for the caller: a saved one by id (the tenant's or a template) or a definition not
 * saved yet (the designer's preview), the date range of the call over the saved one, within the
 * caller's tenant and data scope.
 */
export async function runForCaller(
  db: Db,
  request: FastifyRequest,
  caller: CurrentUser,
  source: { id?: string; definition?: unknown; dateFrom?: unknown; dateTo?: unknown },
  timeZone: string,
  limit: number,
): Promise<ReportResult> {
  let name = "报表";
  let definition: ReportDefinition;
  if (source.id) {
    const row = await findReportFile(db, caller.tenantId, source.id);
    if (!row) throw notFound("id: 报表不存在");
    name = row.name;
    definition = definitionOf(row);
  } else if (source.definition !== undefined) {
    definition = parseDefinition(source.definition);
  } else throw badRequest("id: 不能为空");
  const dateFrom = reportDay(source.dateFrom, "dateFrom");
  const dateTo = reportDay(source.dateTo, "dateTo");
  if (dateFrom || dateTo)
    definition = parseDefinition({
      ...definition,
      ...(dateFrom ? { dateFrom } : {}),
      ...(dateTo ? { dateTo } : {}),
    });
  const scope = await itemScopeOf(db, request);
  const { rows, more } = await runReport(db, {
    definition,
    tenantId: caller.tenantId,
    timeZone,
    scope,
    limit,
  });
  return { name, definition, columns: columnsOf(definition), rows, truncated: more };
}

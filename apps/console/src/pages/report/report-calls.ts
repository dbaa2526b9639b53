import type { Page } from "@meterline/contracts";
import { api } from "../../app/api.ts";
import { withToken } from "../../app/download.ts";

const base = "/api/blade-report/report/rest";

export interface Label {
  zh: string;
  en: string;
}

export type ChartType = "bar" | "line" | "pie" | "table";
export type MeasureFn = "sum" | "count" | "avg" | "max";

/** A report definition: keys of the server's catalogue and filter values, never SQL. */
export interface ReportDefinition {
  dataset: string;
  groupBy: string[];
  measures: { column: string; fn: MeasureFn }[];
  filters: { key: string; value: string }[];
  dateFrom?: string;
  dateTo?: string;
  chart: ChartType;
}

export interface ReportItem {
  id: string;
  name: string;
  builtin: boolean;
  definition: ReportDefinition | null;
  createTime: string;
  updateTime: string;
}

export interface CatalogDataset {
  key: string;
  label: Label;
  dated: boolean;
  groups: { key: string; label: Label }[];
  columns: { key: string; label: Label }[];
  filters: { key: string; label: Label; values: { value: string; label: Label }[] }[];
}

export interface Catalog {
  datasets: CatalogDataset[];
  fns: MeasureFn[];
  charts: ChartType[];
}

export interface ResultColumn extends Label {
  key: string;
  measure: boolean;
}

export interface ReportResult {
  name: string;
  definition: ReportDefinition;
  columns: ResultColumn[];
  rows: Record<string, string | null>[];
  truncated: boolean;
}

export const loadReports = (query: { current: number; size: number; name?: string }) =>
  api.get<Page<ReportItem>>(`${base}/list`, query);

export const loadCatalog = () => api.get<Catalog>(`${base}/catalog`);

export const saveReport = (body: { id?: string; name: string; definition: ReportDefinition }) =>
  api.post<{ id: string }>(`${base}/submit`, body);

export const removeReports = (ids: string) => api.post<unknown>(`${base}/remove`, undefined, { ids });

/** Runs a saved report (id) or a definition not saved yet. */
export const runReport = (body: {
  id?: string;
  definition?: ReportDefinition;
  dateFrom?: string;
  dateTo?: string;
}) => api.post<ReportResult>(`${base}/run`, body);

/** The download address of a saved report as .xlsx or .pdf. */
export const reportExportPath = (
  id: string,
  format: "xlsx" | "pdf",
  range: { dateFrom?: string; dateTo?: string },
) => withToken(`${base}/export`, { id, format, ...range });

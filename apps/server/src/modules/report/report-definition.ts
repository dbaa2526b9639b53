import { badRequest } from "../../contract/errors.ts";
import {
  CHART_TYPES,
  type ChartType,
  DATASETS,
  type GroupKey,
  MEASURE_FNS,
  type MeasureFn,
} from "./report-catalog.ts";

/** A report as the console builds it: keys of the catalogue and filter values, never SQL. */
export interface ReportDefinition {
  dataset: string;
  groupBy: GroupKey[];
  measures: { column: string; fn: MeasureFn }[];
  filters: { key: string; value: string }[];
  dateFrom?: string;
  dateTo?: string;
  chart: ChartType;
}

const MAX_GROUPS = 3;
const MAX_MEASURES = 6;
const MAX_FILTERS = 10;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

function list(value: unknown, field: string, max: number): unknown[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw badRequest(`${field}: 必须是数组`);
  if (value.length > max) throw badRequest(`${field}: 最多 ${max} 项`);
  return value;
}

/** A calendar day `yyyy-MM-dd` that exists, or undefined when empty. */
export function reportDay(value: unknown, field: string): string | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  if (typeof value !== "string" || !DAY.test(value)) throw badRequest(`${field}: 日期格式应为 yyyy-MM-dd`);
  const date = new Date(`${value}T00:00:00Z`);
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value)
    throw badRequest(`${field}: 日期不存在`);
  return value;
}

/**
 * Checks a definition against the catalogue, key by key, and returns it in its own shape (nothing
 * the caller sent beyond it survives). Every refusal is a 400 naming the field.
 */
export function parseDefinition(input: unknown, field = "definition"): ReportDefinition {
  if (!isObject(input)) throw badRequest(`${field}: 必须是对象`);
  const datasetKey = input.dataset;
  if (typeof datasetKey !== "string" || !Object.hasOwn(DATASETS, datasetKey))
    throw badRequest(`${field}.dataset: 未知的数据集`);
  const dataset = DATASETS[datasetKey]!;

  const groupBy = list(input.groupBy, `${field}.groupBy`, MAX_GROUPS).map((key, i) => {
    if (typeof key !== "string" || !(dataset.groups as readonly string[]).includes(key))
      throw badRequest(`${field}.groupBy[${i}]: 数据集不支持该分组`);
    return key as GroupKey;
  });
  if (new Set(groupBy).size !== groupBy.length) throw badRequest(`${field}.groupBy: 分组不能重复`);

  const measures = list(input.measures, `${field}.measures`, MAX_MEASURES).map((m, i) => {
    if (!isObject(m)) throw badRequest(`${field}.measures[${i}]: 必须是对象`);
    if (typeof m.column !== "string" || !Object.hasOwn(dataset.columns, m.column))
      throw badRequest(`${field}.measures[${i}].column: 数据集没有该数值列`);
    if (typeof m.fn !== "string" || !(MEASURE_FNS as readonly string[]).includes(m.fn))
      throw badRequest(`${field}.measures[${i}].fn: 只能是 sum、count、avg、max`);
    return { column: m.column, fn: m.fn as MeasureFn };
  });
  if (measures.length === 0) throw badRequest(`${field}.measures: 至少选择一个指标`);

  const filters = list(input.filters, `${field}.filters`, MAX_FILTERS).map((f, i) => {
    if (!isObject(f)) throw badRequest(`${field}.filters[${i}]: 必须是对象`);
    if (typeof f.key !== "string" || !Object.hasOwn(dataset.filters, f.key))
      throw badRequest(`${field}.filters[${i}].key: 数据集没有该筛选条件`);
    const value = typeof f.value === "number" ? String(f.value) : f.value;
    if (typeof value !== "string" || !dataset.filters[f.key]!.values.includes(value))
      throw badRequest(`${field}.filters[${i}].value: 不是该筛选条件允许的值`);
    return { key: f.key, value };
  });

  const dateFrom = reportDay(input.dateFrom, `${field}.dateFrom`);
  const dateTo = reportDay(input.dateTo, `${field}.dateTo`);
  if (!dataset.dated && (dateFrom || dateTo)) throw badRequest(`${field}.dateFrom: 该数据集没有日期`);
  if (dateFrom && dateTo && dateFrom > dateTo) throw badRequest(`${field}.dateTo: 不能早于开始日期`);

  const chart = input.chart ?? "table";
  if (typeof chart !== "string" || !(CHART_TYPES as readonly string[]).includes(chart))
    throw badRequest(`${field}.chart: 只能是 bar、line、pie、table`);

  return {
    dataset: datasetKey,
    groupBy,
    measures,
    filters,
    ...(dateFrom ? { dateFrom } : {}),
    ...(dateTo ? { dateTo } : {}),
    chart: chart as ChartType,
  };
}

import { badRequest } from "../../contract/errors.ts";
import { readWorkbookSheets } from "../../xlsx/read-workbook.ts";
import type { SheetBounds, SheetCell, SheetData } from "../../xlsx/sheet-bounds.ts";
import { headerKey } from "../../xlsx/stream-rows.ts";
import { COLLECTOR_COLUMNS, COLLECTOR_SHEET_HEADERS, type CollectorKey } from "./collector-columns.ts";
import {
  type ColumnKey,
  headerOf,
  IMPORT_COLUMNS,
  MAX_IMPORT_ROWS,
  REQUIRED_COLUMNS,
  type RowText,
} from "./import-columns.ts";
import {
  headersOf,
  NODE_COLUMNS,
  NODE_METER_COLUMNS,
  NODE_METER_REQUIRED,
  NODE_REQUIRED,
  type NodeKey,
  type NodeMeterKey,
  type TopologyColumn,
} from "./topology-columns.ts";

/** One non-blank data row: its number in the sheet (header = 1), its text, and cells unreadable as text. */
export interface SheetRow {
  row: number;
  text: RowText;
  problems: string[];
}

/**
 * Bounds of a registry sheet. Its 10,000 rows of 15 columns are about 10 MB of sheet XML with
 * Excel's styles; 64 MB leaves room for that and refuses archives that inflate far beyond it.
 */
export const REGISTRY_SHEET_BOUNDS: SheetBounds = {
  maxInflatedBytes: 64 * 1024 * 1024,
  maxEntries: 500,
  maxRows: MAX_IMPORT_ROWS,
  maxColumns: 64,
  maxCellChars: 1000,
};

/** A non-blank row of a topology sheet, read like a room row. */
export interface TopologySheetRow<K extends string> {
  row: number;
  text: Record<K, string>;
  problems: string[];
}

/** What a registry upload holds: the room, node, node-meter and collector sheets, each possibly empty. */
export interface ImportSheets {
  rooms: SheetRow[];
  collectors?: TopologySheetRow<CollectorKey>[];
  nodes: TopologySheetRow<NodeKey>[];
  nodeMeters: TopologySheetRow<NodeMeterKey>[];
}

const requiredOf = <K extends string>(columns: readonly TopologyColumn<K>[], keys: readonly K[]) =>
  keys.map((key) => headersOf(columns.find((c) => c.key === key)!));

/**
 * Reads the registry sheet, the topology sheets and the collector sheet: for each, the first worksheet that carries its
 * required headers; a file must hold at least one of them. Problems of the file as a whole (not an
 * .xlsx, no such sheet, a bound crossed) answer 400 naming `file`; problems of single cells stay
 * with their row so the rest of the file still imports.
 */
export async function readImportSheet(file: Buffer): Promise<ImportSheets> {
  const [rooms, nodes, nodeMeters, collectors] = await readWorkbookSheets(file, REGISTRY_SHEET_BOUNDS, [
    REQUIRED_COLUMNS.map(headerOf),
    requiredOf(NODE_COLUMNS, NODE_REQUIRED),
    requiredOf(NODE_METER_COLUMNS, NODE_METER_REQUIRED),
    COLLECTOR_SHEET_HEADERS,
  ]);
  if (!rooms && !nodes && !nodeMeters && !collectors)
    throw badRequest(`file: 缺少列 ${REQUIRED_COLUMNS.map(headerOf).join("、")}`);
  return {
    rooms: rooms ? roomRows(rooms) : [],
    nodes: nodes ? topologyRows(nodes, NODE_COLUMNS) : [],
    nodeMeters: nodeMeters ? topologyRows(nodeMeters, NODE_METER_COLUMNS) : [],
    collectors: collectors ? topologyRows(collectors, COLLECTOR_COLUMNS) : [],
  };
}

/** Rows of a topology sheet by the columns' headers or aliases; unknown columns are ignored. */
function topologyRows<K extends string>(
  sheet: SheetData,
  columns: readonly TopologyColumn<K>[],
): TopologySheetRow<K>[] {
  const byHeader = new Map<string, number>();
  sheet.headers.forEach((header, at) => {
    const key = headerKey(header ?? "");
    if (key && !byHeader.has(key)) byHeader.set(key, at);
  });
  const index = new Map<K, number>();
  for (const column of columns) {
    const at = headersOf(column)
      .map((h) => byHeader.get(headerKey(h)))
      .find((found) => found !== undefined);
    if (at !== undefined) index.set(column.key, at);
  }
  const rows: TopologySheetRow<K>[] = [];
  for (const { row, cells } of sheet.rows) {
    const text = {} as Record<K, string>;
    const problems: string[] = [];
    for (const column of columns) {
      const at = index.get(column.key);
      const cell = at === undefined ? "" : cellText(cells[at] ?? null);
      if (cell === undefined) {
        problems.push(`${column.header}: 数字位数过多已失真, 请将该列设为文本格式后重新填写`);
        text[column.key] = "";
      } else text[column.key] = cell;
    }
    if (problems.length === 0 && Object.values<string>(text).every((v) => v === "")) continue;
    rows.push({ row, text, problems });
  }
  return rows;
}

function roomRows(sheet: SheetData): SheetRow[] {
  const index = headerIndex(sheet.headers);
  const rows: SheetRow[] = [];
  for (const { row, cells } of sheet.rows) {
    const text = {} as RowText;
    const problems: string[] = [];
    for (const { key } of IMPORT_COLUMNS) {
      const at = index.get(key);
      const cell = at === undefined ? "" : cellText(cells[at] ?? null);
      if (cell === undefined) {
        problems.push(`${headerOf(key)}: 数字位数过多已失真, 请将该列设为文本格式后重新填写`);
        text[key] = "";
      } else text[key] = cell;
    }
    if (problems.length === 0 && Object.values(text).every((v) => v === "")) continue;
    rows.push({ row, text, problems });
  }
  return rows;
}

/** Column number of each known header in the sheet's first row; a trailing `*` (required mark) is ignored. */
function headerIndex(headers: readonly string[]): Map<ColumnKey, number> {
  const byHeader = new Map<string, number>();
  headers.forEach((header, at) => {
    const key = headerKey(header ?? "");
    if (key && !byHeader.has(key)) byHeader.set(key, at);
  });
  const index = new Map<ColumnKey, number>();
  for (const { key, header } of IMPORT_COLUMNS) {
    const at = byHeader.get(header);
    if (at !== undefined) index.set(key, at);
  }
  return index;
}

/**
 * A cell as trimmed text. `undefined` when the cell is a whole number beyond 2^53: Excel stored a
 * long code (an id card, say) as a number and its last digits are already gone.
 */
function cellText(value: SheetCell): string | undefined {
  if (value === null) return "";
  if (typeof value === "number") {
    if (Number.isInteger(value) && !Number.isSafeInteger(value)) return undefined;
    return String(value);
  }
  if (typeof value === "string") return value.trim();
  if (value instanceof Date) return value.toISOString();
  return String(value);
}

import { ApiError, badRequest } from "../../contract/errors.ts";
import type { Db } from "../../db/client.ts";
import { loadExcel } from "../../xlsx/excel.ts";
import { readWorkbook } from "../../xlsx/read-workbook.ts";
import type { SheetBounds, SheetCell } from "../../xlsx/sheet-bounds.ts";
import { headerKey } from "../../xlsx/stream-rows.ts";
import type { CurrentUser } from "../auth/current-user.ts";
import { storeRejectedRows } from "../file/rejected-rows-sheet.ts";
import { REGISTER } from "./reading-corrections.routes.ts";
import { type EnergyKind, ReadingCorrections } from "./reading-corrections.ts";

/** The sheet's columns; electric sheets carry the four band registers too (optional). */
const BASE_COLUMNS = [
  { header: "表号", key: "productCode", width: 18, note: "必填, 本租户已登记的表号; 请保持文本格式" },
  { header: "总示数", key: "totalValue", width: 14, note: "必填, 非负数, 最多两位小数; 不能低于之前的抄读" },
  {
    header: "抄读时间",
    key: "readTime",
    width: 22,
    note: "必填, yyyy-MM-dd HH:mm:ss, 不能晚于现在; 同一表同一时间已有抄读的行不重复导入",
  },
] as const;
const BAND_COLUMNS = [
  { header: "尖示数", key: "tipValue", width: 12, note: "选填" },
  { header: "峰示数", key: "peakValue", width: 12, note: "选填" },
  { header: "平示数", key: "peaceValue", width: 12, note: "选填" },
  { header: "谷示数", key: "lowValue", width: 12, note: "选填" },
] as const;
const columnsOf = (kind: EnergyKind) =>
  kind === "electric" ? [...BASE_COLUMNS, ...BAND_COLUMNS] : [...BASE_COLUMNS];

export const MAX_READ_IMPORT_ROWS = 5000;
/** A few thousand short rows are well under a megabyte; 4 MB leaves room for Excel's styles. */
export const MAX_READ_IMPORT_BYTES = 4 * 1024 * 1024;
const BOUNDS: SheetBounds = {
  maxInflatedBytes: 32 * 1024 * 1024,
  maxEntries: 500,
  maxRows: MAX_READ_IMPORT_ROWS,
  maxColumns: 64,
  maxCellChars: 200,
};
/** The wall-clock forms the service takes; it checks the date itself and that it is not in the future. */
const TIME = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2})?$/;
const METER_TABLE = { electric: "pms_meter", water: "pms_water" } as const;
const LOG_TABLE = { electric: "pms_data_read", water: "pms_water_data_read" } as const;
const SHEET_NAME = { electric: "电表人工抄读", water: "水表人工抄读" } as const;

export interface ManualReadImportResult {
  imported: number;
  rejected: number;
  /** Link to a sheet of the rejected rows with their reasons; empty when none. */
  rejectedFile: string;
}

/** The template: the columns with an example row (codes as text) and a sheet of notes. */
export async function manualReadTemplate(kind: EnergyKind): Promise<Buffer> {
  const columns = columnsOf(kind);
  const book = new (await loadExcel()).Workbook();
  const sheet = book.addWorksheet(SHEET_NAME[kind]);
  sheet.columns = columns.map((c) => ({ header: c.header, key: c.key, width: c.width }));
  // Excel drops leading zeros of numbers and turns times into its own dates: keep both as text.
  sheet.getColumn(1).numFmt = "@";
  sheet.getColumn(3).numFmt = "@";
  sheet.addRow([kind === "electric" ? "000000000001" : "00000000000001", "123.45", "2025-03-10 08:00:00"]);
  sheet.getRow(1).font = { bold: true };
  const notes = book.addWorksheet("填写说明");
  notes.columns = [
    { header: "列", width: 12 },
    { header: "说明", width: 90 },
  ];
  for (const c of columns) notes.addRow([c.header, c.note]);
  notes.addRow(["行数", `一次最多 ${MAX_READ_IMPORT_ROWS} 行; 有问题的行不导入, 结果中可下载这些行及原因`]);
  notes.getRow(1).font = { bold: true };
  return Buffer.from(await book.xlsx.writeBuffer());
}

/**
 * Imports reads taken on site: each good row is entered exactly as a manual submit (the same
 * service, so the same order checks and day recomputation), one row at a time. A row naming a
 * meter the tenant does not have, an invalid register or time, or a read the service refuses is
 * handed back with its reason. Importing the same sheet again adds nothing: a row whose meter
 * already has a (not voided) read at that very time is rejected as a duplicate.
 */
export async function importManualReads(
  db: Db,
  timeZone: string,
  caller: CurrentUser,
  kind: EnergyKind,
  file: Buffer,
): Promise<ManualReadImportResult> {
  const columns = columnsOf(kind);
  const sheet = await readWorkbook(
    file,
    BOUNDS,
    BASE_COLUMNS.map((c) => c.header),
  );
  if (!sheet) throw badRequest(`file: 缺少列 ${BASE_COLUMNS.map((c) => c.header).join("、")}`);
  const at = new Map<string, number>();
  sheet.headers.forEach((header, index) => {
    const key = headerKey(header ?? "");
    if (key && !at.has(key)) at.set(key, index);
  });
  const corrections = new ReadingCorrections(db, timeZone);
  const tenantId = caller.tenantId;
  let imported = 0;
  const rejected: string[][] = [];
  for (const { cells } of sheet.rows) {
    const text = columns.map((c) => {
      const index = at.get(c.header);
      return index === undefined ? "" : cellText(cells[index] ?? null, c.key === "readTime");
    });
    if (text.every((v) => v === "")) continue;
    try {
      await importRow(db, { corrections, timeZone }, caller, tenantId, kind, text);
      imported++;
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      rejected.push([...text, error.message]);
    }
  }
  const rejectedFile = rejected.length
    ? (
        await storeRejectedRows(db, caller, {
          fileName: `未导入的${SHEET_NAME[kind]}.xlsx`,
          columns: [
            ...columns.map((c, i) => ({ header: c.header, width: c.width, text: i === 0 || i === 2 })),
            { header: "失败原因", width: 60 },
          ],
          rows: rejected,
        })
      ).link
    : "";
  return { imported, rejected: rejected.length, rejectedFile };
}

async function importRow(
  db: Db,
  { corrections, timeZone }: { corrections: ReadingCorrections; timeZone: string },
  caller: CurrentUser,
  tenantId: string,
  kind: EnergyKind,
  [productCode = "", totalValue = "", readTime = "", ...bands]: string[],
) {
  if (!productCode) throw badRequest("表号: 不能为空");
  if (!totalValue) throw badRequest("总示数: 不能为空");
  if (!REGISTER.test(totalValue)) throw badRequest("总示数: 应为非负数,最多两位小数");
  const wrongBand = bands.find((b) => b !== "" && !REGISTER.test(b));
  if (wrongBand !== undefined) throw badRequest(`分时示数: ${wrongBand} 应为非负数,最多两位小数`);
  if (!readTime) throw badRequest("抄读时间: 不能为空");
  if (!TIME.test(readTime)) throw badRequest("抄读时间: 应为 yyyy-MM-dd HH:mm:ss");
  const [meter] = await db.query<{ id: string }>(
    `select id::text from ${METER_TABLE[kind]} where tenant_id = $1 and product_code = $2 and is_deleted = 0`,
    [tenantId, productCode],
  );
  if (!meter) throw badRequest(`表号: 本租户没有表 ${productCode}`);
  const [same] = await db
    .query(
      `select 1 from ${LOG_TABLE[kind]}
      where tenant_id = $1 and meter_id = $2 and coalesce(voided, 0) = 0
        and read_time = ($3::timestamp at time zone $4)`,
      [tenantId, meter.id, readTime, timeZone],
    )
    .catch(() => {
      throw badRequest("抄读时间: 应为有效的 yyyy-MM-dd HH:mm:ss");
    });
  if (same) throw badRequest(`抄读时间: 表 ${productCode} 在 ${readTime} 已有抄读, 不重复导入`);
  await corrections.submit(caller, tenantId, kind, {
    meterId: meter.id,
    readTime,
    totalValue,
    bands: bands.map((b) => (b === "" ? null : b)),
  });
}

/**
 * A cell as trimmed text. A time Excel stored as a date is the wall clock written as UTC (how the
 * sheet reader hands dates back), so it is printed back in UTC, not converted.
 */
function cellText(value: SheetCell, isTime: boolean): string {
  if (value === null || value === undefined) return "";
  if (value instanceof Date) return value.toISOString().slice(0, 19).replace("T", " ");
  const text = String(value).trim();
  return isTime ? text.replaceAll("/", "-") : text;
}

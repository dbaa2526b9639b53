import { PassThrough } from "node:stream";
import type { FastifyReply, FastifyRequest } from "fastify";
import { exportLimit, readerKeepsUp, sendStream } from "../../crud/export-routes.ts";
import type { Db } from "../../db/client.ts";
import { loadExcel } from "../../xlsx/excel.ts";
import { safeCell } from "../../xlsx/safe-cell.ts";

/** One column of a money sheet: its Chinese header and how a row fills it. */
export interface SheetColumn<R> {
  header: string;
  value: (row: R) => string | number | null;
  /** Yuan as text ("12.30"): written as a number shown with 2 decimals. */
  money?: boolean;
  width?: number;
}

/** Rows read per round trip: memory holds one chunk, never the whole export. */
const CHUNK = 1_000;

const moneyCell = (value: string | number | null) => (value === null || value === "" ? null : Number(value));

export interface MoneySheet<R> {
  title: string;
  columns: SheetColumn<R>[];
  /** Rows the search holds (the sheet stops at the export bound and says so). */
  count: number;
  /** Rows of the search in order, `limit` from `offset`. */
  rows: (limit: number, offset: number) => Promise<R[]>;
  /** The last row: 合计 and the totals of the whole search, by header. */
  totals?: Record<string, string | number | null>;
}

/**
 * Streams a money screen's search as .xlsx, like the generic exports (crud/export-routes.ts):
 * bounded by `export.maxRows`, written chunk by chunk, headers in Chinese, amounts as numbers with
 * two decimals, every text cell through safeCell so nothing typed into a name runs as a formula.
 */
export async function sendMoneySheet<R>(
  db: Db,
  request: FastifyRequest,
  reply: FastifyReply,
  sheetOf: MoneySheet<R>,
) {
  const limit = await exportLimit(db);
  const cut = sheetOf.count > limit;
  const stream = new PassThrough();
  const book = new (await loadExcel()).stream.xlsx.WorkbookWriter({
    stream,
    useStyles: true,
    useSharedStrings: false,
  });
  // Excel refuses these characters and more than 31 of them in a sheet's name.
  const sheet = book.addWorksheet(sheetOf.title.replace(/[:\\/?*[\]]/g, " ").slice(0, 31));
  sheet.columns = sheetOf.columns.map((c, i) => ({
    header: c.header,
    key: String(i),
    width: c.width ?? 14,
    ...(c.money ? { style: { numFmt: "0.00" } } : {}),
  }));
  sheet.getRow(1).font = { bold: true };
  sheet.getRow(1).commit();
  const cells = (row: R) =>
    sheetOf.columns.map((c) => (c.money ? moneyCell(c.value(row)) : safeCell(c.value(row))));
  const write = async () => {
    const wanted = Math.min(sheetOf.count, limit);
    for (let at = 0; at < wanted; at += CHUNK) {
      const rows = await sheetOf.rows(Math.min(CHUNK, wanted - at), at);
      for (const row of rows) sheet.addRow(cells(row)).commit();
      if (!(await readerKeepsUp(stream))) return;
      if (rows.length < CHUNK) break;
    }
    if (cut) sheet.addRow([`仅导出前 ${limit} 行,请缩小查询范围`]).commit();
    if (sheetOf.totals) {
      const totals = sheetOf.totals;
      const row = sheetOf.columns.map((c, i) => {
        const value = totals[c.header];
        if (value === undefined) return i === 0 ? "合计" : null;
        return c.money ? moneyCell(value) : value;
      });
      const added = sheet.addRow(row);
      added.font = { bold: true };
      added.commit();
    }
    sheet.commit();
    await book.commit();
  };
  const file = `${sheetOf.title}-${new Date().toISOString().slice(0, 10)}.xlsx`;
  sendStream(reply, stream, file, cut ? limit : undefined);
  write().catch((error: unknown) => {
    request.log.error({ err: error }, "export failed mid-stream");
    stream.destroy(error as Error);
  });
  return reply;
}

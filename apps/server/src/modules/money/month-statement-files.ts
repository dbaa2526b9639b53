import { PassThrough } from "node:stream";
import type { FastifyReply, FastifyRequest } from "fastify";
import { readerKeepsUp, sendStream } from "../../crud/export-routes.ts";
import type { Queryable } from "../../db/client.ts";
import { loadExcel } from "../../xlsx/excel.ts";
import { safeCell } from "../../xlsx/safe-cell.ts";
import { pdfDocument } from "../report/report-pdf.ts";
import {
  type AccountMonthView,
  accountMonthView,
  type MonthStatementTotals,
  monthDays,
  type ResolvedStatement,
  scopeBatches,
} from "./month-statement.ts";
import { energyLabel, SCOPE_LABEL, summaryLines } from "./month-statement-labels.ts";

/** The accounts' columns of both files: header, width, the view's field and whether it is money. */
const ACCOUNT_COLUMNS: {
  header: string;
  width: number;
  value: (r: AccountMonthView) => string;
  money?: boolean;
}[] = [
  { header: "业主", width: 12, value: (r) => r.ownerName },
  { header: "房间", width: 16, value: (r) => r.roomName },
  { header: "能源", width: 6, value: (r) => energyLabel(r.energyType) },
  { header: "表号", width: 16, value: (r) => r.productCode },
  { header: "期初余额", width: 12, value: (r) => r.openingBalance, money: true },
  { header: "开户预存", width: 10, value: (r) => r.deposit, money: true },
  { header: "充值", width: 10, value: (r) => r.recharge, money: true },
  { header: "退费", width: 10, value: (r) => r.refund, money: true },
  { header: "冲正", width: 10, value: (r) => r.correction, money: true },
  { header: "用量冲正", width: 10, value: (r) => r.usageCorrection, money: true },
  { header: "用量", width: 10, value: (r) => r.usage, money: true },
  { header: "用量费用", width: 12, value: (r) => r.usageCharge, money: true },
  { header: "月固定费", width: 10, value: (r) => r.fee, money: true },
  { header: "公摊", width: 10, value: (r) => r.apportion, money: true },
  { header: "期末余额", width: 12, value: (r) => r.closingBalance, money: true },
];

/** The file's title: the scope's name, what it is, and the month. */
export const statementTitle = (s: ResolvedStatement) =>
  `${s.name} ${SCOPE_LABEL[s.kind]}月度对账单 ${s.month}`;

const number = (text: string) => (text === "" ? null : Number(text));

/**
 * The statement as .xlsx: a 汇总 sheet (the month's lines, usage by tier and band) and a 账户 sheet
 * of every account of the scope with a 合计 row, written batch by batch as the accounts are read.
 * Amounts are numbers shown with two decimals; text cells go through safeCell.
 */
export async function sendStatementSheet(
  db: Queryable,
  request: FastifyRequest,
  reply: FastifyReply,
  s: ResolvedStatement,
  totals: MonthStatementTotals,
) {
  const stream = new PassThrough();
  const book = new (await loadExcel()).stream.xlsx.WorkbookWriter({
    stream,
    useStyles: true,
    useSharedStrings: false,
  });
  const write = async () => {
    const summary = book.addWorksheet("汇总");
    summary.columns = [
      { header: "项目", key: "label", width: 28 },
      { header: "用量", key: "usage", width: 14, style: { numFmt: "0.00" } },
      { header: "金额(元)", key: "amount", width: 14, style: { numFmt: "0.00" } },
    ];
    summary.getRow(1).font = { bold: true };
    const { from, to } = monthDays(s.month);
    summary.addRow([safeCell(statementTitle(s)), null, null]).commit();
    summary.addRow([`${from} ~ ${to}`, null, null]).commit();
    for (const line of summaryLines(totals))
      summary.addRow([safeCell(line.label), number(line.usage), number(line.amount)]).commit();
    summary.addRow([`账户数 ${totals.accounts}`, null, null]).commit();
    summary.commit();

    const accounts = book.addWorksheet("账户");
    accounts.columns = ACCOUNT_COLUMNS.map((c, i) => ({
      header: c.header,
      key: String(i),
      width: c.width,
      ...(c.money ? { style: { numFmt: "0.00" } } : {}),
    }));
    accounts.getRow(1).font = { bold: true };
    accounts.getRow(1).commit();
    for await (const rows of scopeBatches(db, s)) {
      for (const row of rows.map(accountMonthView))
        accounts
          .addRow(ACCOUNT_COLUMNS.map((c) => (c.money ? number(c.value(row)) : safeCell(c.value(row)))))
          .commit();
      if (!(await readerKeepsUp(stream))) return;
    }
    const sum = accounts.addRow([
      "合计",
      null,
      null,
      null,
      number(totals.openingBalance),
      number(totals.deposit),
      number(totals.recharge),
      number(totals.refund),
      number(totals.correction),
      number(totals.usageCorrection),
      null,
      number(totals.usageCharge),
      number(totals.fee),
      number(totals.apportion),
      number(totals.closingBalance),
    ]);
    sum.font = { bold: true };
    sum.commit();
    accounts.commit();
    await book.commit();
  };
  sendStream(reply, stream, `${statementTitle(s)}.xlsx`, undefined);
  write().catch((error: unknown) => {
    request.log.error({ err: error }, "statement export failed mid-stream");
    stream.destroy(error as Error);
  });
  return reply;
}

/** Accounts a PDF lists; a larger scope's PDF ends with a note to take the sheet instead. */
export const PDF_ACCOUNT_LIMIT = 2000;

/**
 * The statement as a PDF (A4 landscape): title, month, the summary lines, then the accounts (at
 * most PDF_ACCOUNT_LIMIT, read batch by batch) with the header repeated on every page.
 */
export async function statementPdf(db: Queryable, s: ResolvedStatement, totals: MonthStatementTotals) {
  const { doc, text } = await pdfDocument(statementTitle(s));
  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;
  const bottom = doc.page.height - doc.page.margins.bottom;
  const rowHeight = 16;
  const { from, to } = monthDays(s.month);
  doc.fontSize(16).text(text(statementTitle(s)), left, doc.page.margins.top, { width });
  doc.fontSize(9).text(text(`${from} ~ ${to}    账户数 ${totals.accounts}`), left, doc.y + 4, { width });

  let y = doc.y + 8;
  const row = (cells: string[], widths: number[], rightFrom: number) => {
    if (y + rowHeight > bottom) {
      doc.addPage();
      y = doc.page.margins.top;
    }
    let x = left;
    cells.forEach((value, i) => {
      doc.text(text(value), x + 2, y + 3, {
        width: widths[i]! - 4,
        height: rowHeight - 3,
        lineBreak: false,
        ellipsis: true,
        align: i >= rightFrom ? "right" : "left",
      });
      x += widths[i]!;
    });
    doc
      .moveTo(left, y + rowHeight)
      .lineTo(left + widths.reduce((a, b) => a + b, 0), y + rowHeight)
      .lineWidth(0.5)
      .stroke("#999999");
    y += rowHeight;
  };

  doc.fontSize(9);
  const summaryWidths = [220, 100, 100];
  row(["项目", "用量", "金额(元)"], summaryWidths, 1);
  for (const line of summaryLines(totals)) row([line.label, line.usage, line.amount], summaryWidths, 1);

  y += rowHeight;
  doc.fontSize(8);
  const widths = ACCOUNT_COLUMNS.map(
    (c) => (c.width / ACCOUNT_COLUMNS.reduce((t, k) => t + k.width, 0)) * width,
  );
  const header = ACCOUNT_COLUMNS.map((c) => c.header);
  row(header, widths, 4);
  let listed = 0;
  for await (const rows of scopeBatches(db, s)) {
    for (const account of rows.map(accountMonthView)) {
      if (listed >= PDF_ACCOUNT_LIMIT) break;
      if (y + rowHeight > bottom) {
        doc.addPage();
        y = doc.page.margins.top;
        row(header, widths, 4);
      }
      row(
        ACCOUNT_COLUMNS.map((c) => c.value(account)),
        widths,
        4,
      );
      listed++;
    }
    if (listed >= PDF_ACCOUNT_LIMIT) break;
  }
  if (totals.accounts > listed)
    doc.text(text(`仅列出前 ${listed} 个账户,全部账户请导出 Excel`), left, y + 4, { width });
  doc.end();
  return doc;
}

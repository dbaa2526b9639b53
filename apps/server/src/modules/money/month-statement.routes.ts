import type { FastifyInstance } from "fastify";
import { ok } from "../../contract/envelope.ts";
import { paging, readParams } from "../../contract/params.ts";
import { requirePermission } from "../../crud/permissions.ts";
import type { Db } from "../../db/client.ts";
import { registryTenant } from "../pms/registry-access.ts";
import { monthStatement, monthStatementRequest, monthTotals, resolveStatement } from "./month-statement.ts";
import { sendStatementSheet, statementPdf, statementTitle } from "./month-statement-files.ts";

const base = "/api/blade-pms/statement";
const tags = ["money"];

/** Menu and button codes of 月度对账单 (seed 050). */
export const MONTH_STATEMENT_CODES = {
  read: "monthStatement",
  excel: "monthStatement_export",
  pdf: "monthStatement_pdf",
} as const;

/**
 * 月度对账单: a month of billed money for an account, owner, room, building or the whole site,
 * from the ledger (rules in month-statement.ts), as JSON with a page of its accounts, as Excel and as PDF.
 */
export async function monthStatementRoutes(app: FastifyInstance, opts: { db: Db; timeZone: string }) {
  const { db, timeZone } = opts;
  const resolve = async (request: Parameters<typeof readParams>[0], code: string) => {
    const user = await requirePermission(db, request, [code]);
    const params = readParams(request);
    const asked = monthStatementRequest(params);
    return { params, statement: await resolveStatement(db, registryTenant(user, params), asked, timeZone) };
  };

  app.get(
    `${base}/month`,
    {
      schema: {
        tags,
        summary:
          "A month's statement (month yyyy-MM, scope account|owner|room|building|site, scopeId): balances, money in and out, usage by tier and band, one page of accounts",
      },
    },
    async (request) => {
      const { params, statement } = await resolve(request, MONTH_STATEMENT_CODES.read);
      return ok(await monthStatement(db, statement, paging(params, 500)));
    },
  );
  app.get(
    `${base}/monthExport`,
    {
      compress: false,
      schema: { tags, summary: "A month's statement as .xlsx: the summary and every account" },
    },
    async (request, reply) => {
      const { statement } = await resolve(request, MONTH_STATEMENT_CODES.excel);
      return sendStatementSheet(db, request, reply, statement, await monthTotals(db, statement));
    },
  );
  app.get(
    `${base}/monthPdf`,
    {
      compress: false,
      schema: { tags, summary: "A month's statement as .pdf: the summary and its accounts" },
    },
    async (request, reply) => {
      const { statement } = await resolve(request, MONTH_STATEMENT_CODES.pdf);
      const pdf = await statementPdf(db, statement, await monthTotals(db, statement));
      return reply
        .header("content-type", "application/pdf")
        .header(
          "content-disposition",
          `attachment; filename*=UTF-8''${encodeURIComponent(`${statementTitle(statement)}.pdf`)}`,
        )
        .send(pdf);
    },
  );
}

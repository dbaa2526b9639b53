import type { FastifyInstance } from "fastify";
import { notFound } from "../../contract/errors.ts";
import { readParams } from "../../contract/params.ts";
import { requirePermission } from "../../crud/permissions.ts";
import type { Db } from "../../db/client.ts";
import { listTenant, registryTenant } from "../pms/registry-access.ts";
import { accountOperationsSheet, rechargeSheet, statementSheet } from "./money-exports.ts";
import { sendMoneySheet } from "./money-sheet.ts";
import { accountStatement, statementRequest } from "./statement.ts";

const pms = "/api/blade-pms";
const tags = ["money"];

/** Excel exports of the money screens: the same parameters as their pages, each with its own button. */
export async function moneyExportRoutes(app: FastifyInstance, opts: { db: Db; timeZone: string }) {
  const { db, timeZone } = opts;

  app.get(
    `${pms}/datarecharge/export`,
    { schema: { tags, summary: "Recharges of the current search as .xlsx, with money in and out" } },
    async (request, reply) => {
      const user = await requirePermission(db, request, ["dataRecharge_export"]);
      const params = readParams(request);
      const sheet = await rechargeSheet(db, listTenant(user, params), params, timeZone);
      return sendMoneySheet(db, request, reply, sheet);
    },
  );
  for (const [path, closing, code] of [
    ["dataopenaccount", false, "dataOpenAccount_export"],
    ["datacloseaccount", true, "dataCloseAccount_export"],
  ] as const) {
    app.get(
      `${pms}/${path}/export`,
      {
        schema: {
          tags,
          summary: closing
            ? "Account closings of the current search as .xlsx, with refunds and debts"
            : "Account openings of the current search as .xlsx, with deposits",
        },
      },
      async (request, reply) => {
        const user = await requirePermission(db, request, [code]);
        const params = readParams(request);
        const tenantId = listTenant(user, params);
        const sheet = await accountOperationsSheet(db, tenantId, params, closing, timeZone);
        return sendMoneySheet(db, request, reply, sheet);
      },
    );
  }
  app.get(
    `${pms}/account/statementExport`,
    {
      schema: {
        tags,
        summary: "An account's statement (as account/statement) as .xlsx, with the period's totals",
      },
    },
    async (request, reply) => {
      const user = await requirePermission(db, request, ["accountStatement_export"]);
      const params = readParams(request);
      const { accountId, from, to } = statementRequest(params);
      const statement = await accountStatement(
        db,
        registryTenant(user, params),
        accountId,
        from,
        to,
        timeZone,
      );
      if (!statement) throw notFound();
      return sendMoneySheet(db, request, reply, statementSheet(statement));
    },
  );
}

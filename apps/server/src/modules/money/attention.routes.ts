import type { FastifyInstance } from "fastify";
import { ok } from "../../contract/envelope.ts";
import { readParams } from "../../contract/params.ts";
import { requirePermission } from "../../crud/permissions.ts";
import type { Db } from "../../db/client.ts";
import type { NoticeQueue } from "../notices/notice-queue.ts";
import { listTenant } from "../pms/registry-access.ts";
import {
  attentionFilter,
  attentionPage,
  attentionRows,
  MAX_REMINDERS,
  reminderIds,
  remindOwners,
} from "./attention.ts";
import { attentionSheet } from "./attention-sheet.ts";
import { sendMoneySheet } from "./money-sheet.ts";

const pms = "/api/blade-pms";
const tags = ["money"];
/** Who may read the list: the screen, or either of its buttons. */
const READ_CODES = ["attention", "attention_export", "attention_remind"];

/**
 * 待关注账户: the accounts at a balance alarm level, or whose supply is cut within N days at their
 * recent pace, with room, owner, phone and how long the balance lasts; its Excel export; and the
 * balance reminder SMS to their owners through the tenant's channel.
 */
export async function attentionRoutes(
  app: FastifyInstance,
  opts: { db: Db; timeZone: string; queue?: () => NoticeQueue | undefined },
) {
  const { db, timeZone } = opts;

  app.get(
    `${pms}/attention/page`,
    {
      schema: {
        tags,
        summary:
          "Accounts needing attention: by alarm level, or supply cut within cutWithinDays at the recent pace",
      },
    },
    async (request) => {
      const user = await requirePermission(db, request, READ_CODES);
      const params = readParams(request);
      const filter = attentionFilter(params, listTenant(user, params), timeZone);
      return ok(await attentionPage(db, request, filter, params));
    },
  );

  app.get(
    `${pms}/attention/export`,
    { schema: { tags, summary: "The accounts of the current search as .xlsx" } },
    async (request, reply) => {
      const user = await requirePermission(db, request, ["attention_export"]);
      const params = readParams(request);
      const filter = attentionFilter(params, listTenant(user, params), timeZone);
      return sendMoneySheet(db, request, reply, attentionSheet(await attentionRows(db, request, filter)));
    },
  );

  app.post(
    `${pms}/attention/remind`,
    {
      schema: {
        tags,
        summary: `Queue a balance reminder SMS to the owners of the ticked accounts (accountIds) or of the whole search (at most ${MAX_REMINDERS})`,
      },
    },
    async (request) => {
      const user = await requirePermission(db, request, ["attention_remind"]);
      const params = readParams(request);
      const filter = {
        ...attentionFilter(params, listTenant(user, params), timeZone),
        accountIds: reminderIds(params),
      };
      const listed = await attentionRows(db, request, filter);
      const rows = await listed.rows(MAX_REMINDERS * 2 + 1, 0);
      const outcome = await db.transaction((tx) => remindOwners(tx, rows, timeZone));
      if (outcome.queued > 0)
        void opts
          .queue?.()
          ?.dispatch()
          .catch(() => undefined);
      return ok(outcome);
    },
  );
}

import type { FastifyInstance } from "fastify";
import { ok } from "../../contract/envelope.ts";
import { badRequest } from "../../contract/errors.ts";
import { optionalString, readParams } from "../../contract/params.ts";
import { requirePermission } from "../../crud/permissions.ts";
import type { Db } from "../../db/client.ts";
import type { CurrentUser } from "../auth/current-user.ts";
import { requestApproval, settleHeldIn } from "../money/money-approval.ts";
import { registryTenant } from "../pms/registry-access.ts";
import { apportionableNodesOf, runsOf } from "./apportionment.repository.ts";
import {
  type ApprovalAsk,
  apportionmentView,
  bookApportionment,
  computeApportionment,
  reverseApportionment,
  runView,
  settleHeldRun,
} from "./apportionment.service.ts";

const base = "/api/blade-pms/apportionment";
const tags = ["money"];
/** Where a run held for approval is kept (the approval's business key names it). */
const RUN_TABLE = "pms_apportionment_run";

type Params = Record<string, unknown>;

function nodeIdParam(params: Params): string {
  const nodeId = optionalString(params, "nodeId");
  if (!nodeId || !/^\d{1,19}$/.test(nodeId)) throw badRequest("nodeId: 请选择计量节点");
  return nodeId;
}

function monthParam(params: Params): string {
  const month = optionalString(params, "month");
  if (!month || !/^\d{4}-(0[1-9]|1[0-2])$/.test(month)) throw badRequest("month: 月份格式应为 yyyy-MM");
  return month;
}

const actorOf = (user: CurrentUser) => ({ userId: user.userId, name: user.realName || user.account });

/** The tenant's money policy: above its threshold a run waits for a second person's approval. */
const askPolicy =
  (user: CurrentUser): ApprovalAsk =>
  (tx, run) =>
    requestApproval(tx, user, {
      tenantId: run.tenantId,
      table: RUN_TABLE,
      id: run.id,
      amount: run.amount,
      variables: { reason: `公摊 ${run.month} ${run.nodeName}` },
    });

/**
 * Shared-cost apportionment (公摊): a node's month previewed, booked to the rooms' accounts once
 * (through the money policy), listed, and reversed exactly.
 */
export async function apportionmentRoutes(app: FastifyInstance, opts: { db: Db; timeZone: string }) {
  const { db, timeZone } = opts;
  settleHeldIn(RUN_TABLE, settleHeldRun);

  app.get(
    `${base}/preview`,
    {
      schema: {
        tags,
        summary: "A node's month shared to its rooms: usage, shares and amounts, nothing booked",
      },
    },
    async (request) => {
      const user = await requirePermission(db, request, ["apportionment"]);
      const params = readParams(request);
      const tenantId = registryTenant(user, params);
      const a = await computeApportionment(db, tenantId, nodeIdParam(params), monthParam(params), timeZone);
      return ok(apportionmentView(a));
    },
  );

  app.get(
    `${base}/nodes`,
    { schema: { tags, summary: "The nodes with a common-area meter" } },
    async (request) => {
      const user = await requirePermission(db, request, ["apportionment"]);
      const rows = await apportionableNodesOf(db, registryTenant(user, readParams(request)));
      return ok(
        rows.map((r) => ({
          id: r.id,
          nodeName: r.node_title,
          energyType: r.energy_type,
          apportionRule: r.apportion_rule,
          apportionLoss: r.apportion_loss,
        })),
      );
    },
  );

  app.get(
    `${base}/runs`,
    { schema: { tags, summary: "The tenant's latest apportionment runs" } },
    async (request) => {
      const user = await requirePermission(db, request, ["apportionment"]);
      const params = readParams(request);
      const nodeId = optionalString(params, "nodeId") ? nodeIdParam(params) : undefined;
      return ok((await runsOf(db, registryTenant(user, params), nodeId, 200)).map(runView));
    },
  );

  app.post(
    `${base}/book`,
    {
      schema: {
        tags,
        summary:
          "Books a node's month to its rooms' accounts, once; above the threshold it waits for approval",
      },
    },
    async (request) => {
      const user = await requirePermission(db, request, ["apportionment_book"]);
      const params = readParams(request);
      const nodeId = nodeIdParam(params);
      const month = monthParam(params);
      const booked = await bookApportionment(
        db,
        user.tenantId,
        nodeId,
        month,
        timeZone,
        actorOf(user),
        askPolicy(user),
      );
      return ok(booked);
    },
  );

  app.post(
    `${base}/reverse`,
    { schema: { tags, summary: "Books the exact mirror of a booked run and marks it reversed (once)" } },
    async (request) => {
      const user = await requirePermission(db, request, ["apportionment_reverse"]);
      const params = readParams(request);
      const runId = optionalString(params, "runId");
      if (!runId || !/^\d{1,19}$/.test(runId)) throw badRequest("runId: 请选择分摊记录");
      const reason = optionalString(params, "reason")?.trim();
      if (!reason) throw badRequest("reason: 请填写冲正原因");
      if (reason.length > 200) throw badRequest("reason: 冲正原因最多 200 字");
      return ok(await reverseApportionment(db, user.tenantId, runId, reason, actorOf(user)));
    },
  );
}

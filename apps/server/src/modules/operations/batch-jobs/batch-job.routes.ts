import {
  BATCH_ITEM_FILTERS,
  BATCH_JOB_BUTTONS,
  BATCH_JOB_KINDS,
  BATCH_JOB_MENU,
  BATCH_JOB_STATES,
  type BatchItemFilter,
  type BatchJobKind,
  type BatchJobState,
} from "@meterline/contracts";
import type { FastifyInstance } from "fastify";
import { ok, page } from "../../../contract/envelope.ts";
import { badRequest, notFound } from "../../../contract/errors.ts";
import { optionalId, optionalString, paging, readParams } from "../../../contract/params.ts";
import { requirePermission } from "../../../crud/permissions.ts";
import type { Db } from "../../../db/client.ts";
import { listTenant } from "../../pms/registry-access.ts";
import { itemScopeOf } from "./item-scope.ts";
import { cancelJob, retryFailed } from "./job-service.ts";
import { findJob, pageItems, pageJobs } from "./job-store.ts";

const base = "/api/blade-pms/batchjob";
const tags = ["batchjob"];
const VIEW = [BATCH_JOB_MENU, ...Object.values(BATCH_JOB_BUTTONS)];

function oneOf<T extends string>(
  params: Record<string, unknown>,
  name: string,
  allowed: readonly T[],
): T | undefined {
  const value = optionalString(params, name);
  if (value === undefined || value === "") return undefined;
  if (!(allowed as readonly string[]).includes(value))
    throw badRequest(`${name}: 只能是 ${allowed.join("、")}`);
  return value as T;
}

function idOf(params: Record<string, unknown>): string {
  const id = optionalId(params, "id");
  if (!id) throw badRequest("id: 请选择任务");
  return id;
}

/**
 * Batch jobs (batch-jobs/): the list with each job's progress, one job, its meters, cancel and
 * "retry the failed". Tenant-isolated: another tenant's job reads as absent (404); the platform
 * administrator reads every tenant's, or the one it names with tenantId. A role's data scope on
 * meters holds here too (item-scope.ts): a job shows, counts and acts on the meters it reaches.
 */
export async function batchJobRoutes(app: FastifyInstance, opts: { db: Db }) {
  const { db } = opts;

  app.get(
    `${base}/page`,
    { schema: { tags, summary: "Batch jobs, newest first, with their progress" } },
    async (request) => {
      const user = await requirePermission(db, request, VIEW);
      const params = readParams(request);
      const { current, size, offset } = paging(params);
      const kind = oneOf<BatchJobKind>(params, "kind", BATCH_JOB_KINDS);
      const state = oneOf<BatchJobState>(params, "state", BATCH_JOB_STATES);
      const result = await pageJobs(
        db,
        listTenant(user, params),
        { ...(kind ? { kind } : {}), ...(state ? { state } : {}) },
        { offset, size },
        await itemScopeOf(db, request),
      );
      return ok(page(result.records, result.total, current, size));
    },
  );

  app.get(
    `${base}/detail`,
    { schema: { tags, summary: "One batch job and its progress" } },
    async (request) => {
      const user = await requirePermission(db, request, VIEW);
      const params = readParams(request);
      const job = await findJob(db, listTenant(user, params), idOf(params), await itemScopeOf(db, request));
      if (!job) throw notFound("id: 任务不存在");
      return ok(job);
    },
  );

  app.get(
    `${base}/items`,
    { schema: { tags, summary: "The meters of a batch job and where each stands" } },
    async (request) => {
      const user = await requirePermission(db, request, VIEW);
      const params = readParams(request);
      const { current, size, offset } = paging(params);
      const state = oneOf<BatchItemFilter>(params, "state", BATCH_ITEM_FILTERS);
      const scope = await itemScopeOf(db, request);
      const job = await findJob(db, listTenant(user, params), idOf(params), scope);
      if (!job) throw notFound("id: 任务不存在");
      const result = await pageItems(db, job.id, state, { offset, size }, scope);
      return ok(page(result.records, result.total, current, size));
    },
  );

  app.post(
    `${base}/cancel`,
    { schema: { tags, summary: "Cancel a running batch job: what is not sent is not sent" } },
    async (request) => {
      const user = await requirePermission(db, request, [BATCH_JOB_BUTTONS.cancel]);
      const params = readParams(request);
      const id = idOf(params);
      const scope = await itemScopeOf(db, request);
      const job = await db.transaction((tx) => cancelJob(tx, listTenant(user, params), id, scope));
      return ok(job, "任务已取消");
    },
  );

  app.post(
    `${base}/retryFailed`,
    { schema: { tags, summary: "A new job for exactly the failed meters of a job" } },
    async (request) => {
      const user = await requirePermission(db, request, [BATCH_JOB_BUTTONS.retry]);
      const params = readParams(request);
      const id = idOf(params);
      const scope = await itemScopeOf(db, request);
      const answer = await db.transaction((tx) => retryFailed(tx, user, listTenant(user, params), id, scope));
      return ok(answer, "已创建重试任务");
    },
  );
}

import multipart from "@fastify/multipart";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { done, ok, page } from "../../contract/envelope.ts";
import { ApiError, badParam, badRequest } from "../../contract/errors.ts";
import {
  idList,
  optionalId,
  optionalString,
  paging,
  readParams,
  requiredString,
} from "../../contract/params.ts";
import { requirePermission } from "../../crud/permissions.ts";
import type { Db } from "../../db/client.ts";
import { type CurrentUser, isAdministrator } from "../auth/current-user.ts";
import { deployTenants } from "./deploy-tenants.ts";
import {
  type BpmnFile,
  changeState,
  deleteDeployments,
  deploy,
  type ManagerScope,
} from "./deployment.service.ts";
import { bladeFlow, durationText, flowProcess, flowTime, taskUser } from "./flow-items.ts";
import { requireInstanceReader } from "./instance-readers.ts";
import { leaveRoutes } from "./leave.routes.ts";
import { modelRoutes } from "./model.routes.ts";
import { ensureShippedProcesses } from "./shipped.ts";
import { startTimerRunner } from "./timer-runner.ts";
import {
  claimRows,
  definitionRows,
  doneRows,
  followRows,
  historyRows,
  type ListFilter,
  sentRows,
  todoRows,
} from "./work-lists.repository.ts";
import { boundedVariables, claim, complete, deleteInstance } from "./workflow.service.ts";

const BASE = "/api/blade-flow";
const MAX_FILE_BYTES = 1024 * 1024;
const MAX_FILES = 10;
const tags = ["workflow"];

type Bag = Record<string, unknown>;

function listFilter(params: Bag): ListFilter {
  const category = optionalString(params, "category") ?? "";
  const categories = category
    .split(",")
    .map((c) => c.trim())
    .filter(Boolean);
  if (categories.length > 20 || categories.some((c) => !/^flow_\d{1,9}$/.test(c))) throw badParam("category");
  const name = optionalString(params, "processDefinitionName");
  if (name !== undefined && name.length > 100) throw badRequest("processDefinitionName: 长度不能超过100");
  return { categories, ...(name ? { processDefinitionName: name } : {}) };
}

function modeOf(params: Bag): 1 | 2 | undefined {
  const mode = optionalString(params, "mode");
  if (mode === undefined) return undefined;
  if (mode !== "1" && mode !== "2") throw badParam("mode");
  return Number(mode) as 1 | 2;
}

const scopeOf = (user: CurrentUser): ManagerScope =>
  isAdministrator(user) ? { all: true } : { all: false, tenantId: user.tenantId };

/**
 * The uploaded BPMN files and the form fields beside them, each file bounded before it is read
 * as text; a name that is not .bpmn or .bpmn20.xml is refused.
 */
async function readUpload(request: FastifyRequest) {
  if (!request.isMultipart()) throw badRequest("files: 请以 multipart/form-data 上传流程文件");
  const files: BpmnFile[] = [];
  const fields: Bag = {};
  try {
    for await (const part of request.parts()) {
      if (part.type === "field") {
        fields[part.fieldname] = part.value;
        continue;
      }
      const name = part.filename.slice(0, 255);
      if (!/\.(bpmn|bpmn20\.xml)$/i.test(name))
        throw badRequest(`files: ${name} 不是 .bpmn 或 .bpmn20.xml 文件`);
      const content = await part.toBuffer();
      files.push({ name, xml: content.toString("utf8") });
    }
  } catch (error) {
    if (error instanceof ApiError) throw error;
    // The multipart reader's limits (file size, number of parts) are the caller's to respect.
    const code = (error as { code?: unknown }).code;
    if (typeof code === "string" && code.startsWith("FST_")) {
      throw badRequest(`files: 每个文件不能超过 ${MAX_FILE_BYTES / 1024}KB, 最多 ${MAX_FILES} 个`);
    }
    throw error;
  }
  if (files.length === 0) throw badRequest("files: 请选择要部署的流程文件");
  return { files, fields };
}

/** The calls of contract §13 (work, manager, follow, process) over the engine of this module. */
export async function workflowRoutes(app: FastifyInstance, opts: { db: Db; timeZone: string }) {
  const { db, timeZone } = opts;
  await app.register(multipart, {
    limits: { fileSize: MAX_FILE_BYTES, files: MAX_FILES, fields: 10, parts: MAX_FILES + 10 },
  });
  await ensureShippedProcesses(db);
  const timers = startTimerRunner(db, (error) => app.log.warn({ err: error }, "workflow timers failed"));
  app.addHook("onClose", async () => timers.stop());
  await app.register(leaveRoutes, opts);
  await app.register(modelRoutes, opts);
  const anyone = (request: FastifyRequest) => requirePermission(db, request, []);

  // ---- work: any signed-in user, always within the own tenant ----
  app.get(
    `${BASE}/work/start-list`,
    { schema: { tags, summary: "Processes the user may start" } },
    async (request) => {
      const caller = await anyone(request);
      const params = readParams(request);
      const paged = paging(params);
      const mode = modeOf(params);
      const { rows, total } = await definitionRows(db, {
        tenantId: caller.tenantId,
        ...(mode ? { mode } : {}),
        categories: listFilter(params).categories,
        latestActiveOnly: true,
        page: paged,
      });
      return ok(
        page(
          rows.map((r) => flowProcess(r, timeZone)),
          total,
          paged.current,
          paged.size,
        ),
      );
    },
  );

  app.get(
    `${BASE}/work/claim-list`,
    { schema: { tags, summary: "Tasks waiting for the user to claim" } },
    async (request) => {
      const caller = await anyone(request);
      const rows = await claimRows(
        db,
        caller.tenantId,
        caller.userId,
        caller.roleAliases,
        listFilter(readParams(request)),
      );
      return ok(
        page(
          rows.map((r) => bladeFlow(r, "claim", timeZone)),
          rows.length,
          1,
          rows.length,
        ),
      );
    },
  );

  app.get(
    `${BASE}/work/todo-list`,
    { schema: { tags, summary: "Tasks assigned to the user" } },
    async (request) => {
      const caller = await anyone(request);
      const rows = await todoRows(db, caller.tenantId, caller.userId, listFilter(readParams(request)));
      return ok(
        page(
          rows.map((r) => bladeFlow(r, "todo", timeZone)),
          rows.length,
          1,
          rows.length,
        ),
      );
    },
  );

  // The sent and done lists differ only in their query: both are paged and drawn as finished items.
  for (const [path, summary, rowsOf] of [
    ["send-list", "Instances the user started", sentRows],
    ["done-list", "Tasks the user completed", doneRows],
  ] as const) {
    app.get(`${BASE}/work/${path}`, { schema: { tags, summary } }, async (request) => {
      const caller = await anyone(request);
      const params = readParams(request);
      const paged = paging(params);
      const { rows, total } = await rowsOf(db, caller.tenantId, caller.userId, listFilter(params), paged);
      return ok(
        page(
          rows.map((r) => bladeFlow(r, "finish", timeZone)),
          total,
          paged.current,
          paged.size,
        ),
      );
    });
  }

  app.post(
    `${BASE}/work/claim-task`,
    { schema: { tags, summary: "Claim a task (taskId)" } },
    async (request) => {
      const caller = await anyone(request);
      const taskId = optionalId(readParams(request), "taskId");
      if (!taskId) throw badRequest("taskId: 请选择任务");
      await db.transaction((tx) => claim(tx, caller, taskId));
      return done("签收事务成功");
    },
  );

  app.post(
    `${BASE}/work/complete-task`,
    { schema: { tags, summary: "Complete the user's task" } },
    async (request) => {
      const caller = await anyone(request);
      const params = readParams(request);
      const taskId = optionalId(params, "taskId");
      if (!taskId) throw badRequest("taskId: 请选择任务");
      const comment = optionalString(params, "comment");
      const flag = optionalString(params, "flag");
      const variables = boundedVariables(params.variables);
      await db.transaction((tx) =>
        complete(tx, caller, {
          taskId,
          ...(flag ? { flag } : {}),
          ...(comment ? { comment } : {}),
          variables,
        }),
      );
      return { code: 200, success: true, data: {}, msg: "操作成功" };
    },
  );

  // ---- manager: platform administrator (every tenant) or a tenant's administrator (own) ----
  app.get(
    `${BASE}/manager/list`,
    { schema: { tags, summary: "Deployed process definitions" } },
    async (request) => {
      const caller = await requirePermission(db, request, ["flow_manager"], "admin");
      const params = readParams(request);
      const paged = paging(params);
      const mode = modeOf(params);
      const { rows, total } = await definitionRows(db, {
        tenantId: isAdministrator(caller) ? null : caller.tenantId,
        ...(mode ? { mode } : {}),
        categories: listFilter(params).categories,
        latestActiveOnly: false,
        page: paged,
      });
      return ok(
        page(
          rows.map((r) => flowProcess(r, timeZone)),
          total,
          paged.current,
          paged.size,
        ),
      );
    },
  );

  app.post(
    `${BASE}/manager/change-state`,
    { schema: { tags, summary: "Suspend or activate a definition" } },
    async (request) => {
      const caller = await requirePermission(db, request, ["flow_manager_state"], "admin");
      const params = readParams(request);
      const state = requiredString(params, "state");
      if (state !== "active" && state !== "suspend") throw badRequest("state: 只能是 active 或 suspend");
      const processId = requiredString(params, "processId");
      if (processId.length > 200) throw badParam("processId");
      const message = await db.transaction((tx) => changeState(tx, scopeOf(caller), processId, state));
      return done(message);
    },
  );

  app.post(
    `${BASE}/manager/deploy-upload`,
    { schema: { tags, summary: "Deploy uploaded BPMN files" } },
    async (request) => {
      const caller = await requirePermission(db, request, ["flow_deploy", "flow_manager"], "admin");
      const { files, fields } = await readUpload(request);
      const category = optionalString(fields, "category") ?? "";
      if (!/^flow_\d{1,9}$/.test(category)) throw badRequest("category: 请选择流程类型");
      const tenantIds = await deployTenants(db, caller, optionalString(fields, "tenantIds"));
      const ids = await db.transaction((tx) =>
        deploy(tx, { tenantIds, category, files, userId: caller.userId || null }),
      );
      return ok(ids, "部署成功");
    },
  );

  app.post(
    `${BASE}/manager/delete-deployment`,
    { schema: { tags, summary: "Delete deployments (cascade to delete their running instances)" } },
    async (request) => {
      const caller = await requirePermission(db, request, ["flow_manager_remove"], "admin");
      const params = readParams(request);
      const ids = idList(params, "deploymentIds");
      if (ids.length > 100) throw badRequest("deploymentIds: 一次最多 100 个");
      const cascade = ["true", "1"].includes(optionalString(params, "cascade") ?? "");
      await db.transaction((tx) => deleteDeployments(tx, scopeOf(caller), ids, cascade));
      return done("删除成功");
    },
  );

  // ---- follow: running instances ----
  app.get(
    `${BASE}/follow/list`,
    { schema: { tags, summary: "Running process instances" } },
    async (request) => {
      const caller = await requirePermission(db, request, ["flow_follow"], "admin");
      const params = readParams(request);
      const paged = paging(params);
      const processDefinitionKey = optionalString(params, "processDefinitionKey");
      if (processDefinitionKey && processDefinitionKey.length > 128) throw badParam("processDefinitionKey");
      const processInstanceId = optionalId(params, "processInstanceId");
      const { rows, total } = await followRows(
        db,
        isAdministrator(caller) ? null : caller.tenantId,
        {
          ...(processInstanceId ? { processInstanceId } : {}),
          ...(processDefinitionKey ? { processDefinitionKey } : {}),
        },
        paged,
      );
      const records = rows.map((r) => ({
        id: r.instance_id,
        name: r.def_name,
        startUserId: taskUser(r.start_user),
        startUser: r.start_user_name ?? "",
        startTime: flowTime(r.instance_start, timeZone),
        taskDefinitionId: r.task_id ?? "",
        taskDefinitionKey: r.task_key ?? "",
        taskName: r.task_name ?? "",
        category: r.category,
        categoryName: r.category_name ?? "",
        processInstanceId: r.instance_id,
        processDefinitionId: r.definition_id,
        processDefinitionKey: r.def_key,
        processDefinitionVersion: r.def_version,
        activityId: r.task_key ?? "",
        suspensionState: r.suspended ? 2 : 1,
        executionId: r.instance_id,
        tenantId: r.tenant_id,
      }));
      return ok(page(records, total, paged.current, paged.size));
    },
  );

  app.post(
    `${BASE}/follow/delete-process-instance`,
    { schema: { tags, summary: "End a running instance with a reason" } },
    async (request) => {
      const caller = await requirePermission(db, request, ["flow_follow_delete"], "admin");
      const params = readParams(request);
      const instanceId = optionalId(params, "processInstanceId");
      if (!instanceId) throw badRequest("processInstanceId: 请选择流程实例");
      const reason = (optionalString(params, "deleteReason") ?? "").trim();
      if (!reason) throw badRequest("deleteReason: 请填写删除原因");
      if (reason.length > 500) throw badRequest("deleteReason: 长度不能超过500");
      await db.transaction(async (tx) => {
        const tenantId = isAdministrator(caller)
          ? ((
              await tx.query<{ tenant_id: string }>("select tenant_id from wf_instance where id = $1", [
                instanceId,
              ])
            )[0]?.tenant_id ?? caller.tenantId)
          : caller.tenantId;
        await deleteInstance(tx, tenantId, instanceId, reason, caller.userId);
      });
      return done("删除成功");
    },
  );

  // ---- process: the steps of an instance, to those who took part in it and administrators ----
  app.get(
    `${BASE}/process/history-flow-list`,
    { schema: { tags, summary: "Steps of an instance" } },
    async (request) => {
      const caller = await anyone(request);
      const instanceId = optionalId(readParams(request), "processInstanceId");
      if (!instanceId) throw badRequest("processInstanceId: 请选择流程实例");
      await requireInstanceReader(db, caller, instanceId);
      const rows = await historyRows(db, isAdministrator(caller) ? null : caller.tenantId, instanceId);
      return ok(
        rows.map((r) => ({
          historyActivityId: r.activity_id,
          historyActivityName: r.activity_name,
          historyActivityType: r.activity_type,
          createTime: flowTime(r.start_time, timeZone),
          endTime: flowTime(r.end_time, timeZone),
          historyActivityDurationTime: durationText(r.start_time, r.end_time),
          assignee: taskUser(r.user_id),
          // A timer's step is the system's: no person, said so rather than left blank.
          assigneeName: r.user_name ?? (r.activity_type === "timerEvent" ? "系统" : ""),
          comment: r.comment ?? "",
          processInstanceId: instanceId,
        })),
      );
    },
  );
}

import { ApiError, badRequest, forbidden, notFound } from "../../contract/errors.ts";
import type { Queryable } from "../../db/client.ts";
import { nextId } from "../../db/ids.ts";
import type { CurrentUser } from "../auth/current-user.ts";
import type { UserTaskConfig } from "./bpmn-parse.ts";
import { hasPeople, resolvePeople } from "./candidates.ts";
import { completeUserTask, fireTimer, type Step, startProcess } from "./engine-runner.ts";
import { ExpressionError } from "./expressions.ts";
import { taskUser } from "./flow-items.ts";
import { instanceEnded } from "./instance-outcomes.ts";
import { dropTimer, lockDueTimer, syncTimers } from "./timer.repository.ts";
import {
  cancelTasks,
  claimTask,
  definitionForTenant,
  definitionOfInstance,
  finishTask,
  insertHistory,
  insertInstance,
  insertTask,
  lockInstance,
  lockTask,
  openTaskKeys,
  readTask,
  saveInstance,
} from "./workflow.repository.ts";

/**
 * The rules of running an instance. Every step runs inside the caller's transaction with the
 * instance row locked, so two servers never take the same step, and nothing is written unless the
 * whole step (engine run, tasks, history) succeeded.
 */

const conflict = (message: string) => new ApiError(409, message);

/** Variables a caller may hand in: a flat object of short scalars, bounded before use. */
export function boundedVariables(raw: unknown, field = "variables"): Record<string, unknown> {
  if (raw === undefined || raw === null || raw === "") return {};
  if (typeof raw !== "object" || Array.isArray(raw)) throw badRequest(`${field}: 应为对象`);
  const entries = Object.entries(raw as Record<string, unknown>);
  if (entries.length > 50) throw badRequest(`${field}: 最多 50 个变量`);
  const out: Record<string, unknown> = {};
  for (const [key, value] of entries) {
    if (!/^[A-Za-z_]\w{0,63}$/.test(key)) throw badRequest(`${field}.${key}: 变量名无效`);
    if (typeof value === "string" && value.length > 500) throw badRequest(`${field}.${key}: 长度不能超过500`);
    if (!["string", "number", "boolean"].includes(typeof value) && value !== null) {
      throw badRequest(`${field}.${key}: 只能是文本、数字或布尔值`);
    }
    if (typeof value === "number" && !Number.isFinite(value)) throw badRequest(`${field}.${key}: 数字无效`);
    out[key] = value;
  }
  return out;
}

function engineFailure(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  const reason = error instanceof ExpressionError ? error.message : (error as Error).message;
  return badRequest(`流程执行失败: ${reason}`);
}

/** Opens task rows for the user tasks the engine now waits on that have none yet. */
async function openWaitingTasks(
  tx: Queryable,
  instance: { id: string; tenantId: string },
  step: Step,
  userTasks: Record<string, UserTaskConfig>,
  variables: Record<string, unknown>,
) {
  for (const fired of step.fired) {
    // A timer is a step of the system: no user, its time the moment it fired.
    await insertHistory(tx, {
      tenantId: instance.tenantId,
      instanceId: instance.id,
      activityId: fired.id,
      activityName: fired.name,
      type: "timerEvent",
      userId: null,
      ended: true,
      comment: "定时到期",
    });
  }
  await cancelTasks(tx, instance.id, step.waiting);
  await syncTimers(tx, instance, step.timers);
  const open = await openTaskKeys(tx, instance.id);
  for (const key of step.waiting) {
    if (open.has(key)) continue;
    const config = userTasks[key] ?? { name: key };
    let people: ReturnType<typeof resolvePeople>;
    try {
      people = resolvePeople(config, variables);
    } catch (error) {
      throw engineFailure(error);
    }
    if (!hasPeople(people)) throw badRequest(`${config.name}: 找不到办理人`);
    await insertTask(tx, {
      tenantId: instance.tenantId,
      instanceId: instance.id,
      key,
      name: config.name,
      people,
    });
  }
  if (step.finished) {
    await insertHistory(tx, {
      tenantId: instance.tenantId,
      instanceId: instance.id,
      activityId: step.endEvent?.id ?? "end",
      activityName: step.endEvent?.name ?? "结束",
      type: "endEvent",
      userId: null,
      ended: true,
    });
  }
}

/**
 * Starts an instance of a definition the caller's tenant may use; the instance belongs to the
 * caller's tenant whatever the definition's. Returns the instance id.
 */
export async function startInstance(
  tx: Queryable,
  caller: CurrentUser,
  definitionId: string,
  businessKey: string,
  given: Record<string, unknown>,
  options: { bySystem?: boolean } = {},
): Promise<string> {
  const definition = await definitionForTenant(tx, caller.tenantId, definitionId);
  if (!definition) throw notFound("processDefinitionId: 流程不存在");
  if (definition.started_by_system && !options.bySystem)
    throw badRequest("processDefinitionId: 该流程由业务自动发起, 不能手动发起");
  if (definition.suspended) throw badRequest("processDefinitionId: 流程已挂起, 不能发起");
  const variables = { ...given, applyUser: taskUser(caller.userId), createUser: caller.account };
  let step: Step;
  try {
    step = await startProcess(definition.bpmn_xml, variables);
  } catch (error) {
    throw engineFailure(error);
  }
  const id = nextId();
  await insertInstance(tx, {
    id,
    tenantId: caller.tenantId,
    definitionId: definition.id,
    businessKey,
    startUser: caller.userId,
  });
  await insertHistory(tx, {
    tenantId: caller.tenantId,
    instanceId: id,
    activityId: "start",
    activityName: "开始",
    type: "startEvent",
    userId: caller.userId,
    ended: true,
  });
  await openWaitingTasks(tx, { id, tenantId: caller.tenantId }, step, definition.user_tasks, variables);
  await saveInstance(tx, id, { variables, engineState: step.state, finished: step.finished });
  return id;
}

export async function claim(tx: Queryable, caller: CurrentUser, taskId: string): Promise<void> {
  if (await claimTask(tx, caller.tenantId, taskId, caller.userId, caller.roleAliases)) return;
  // Nothing changed: say why, from the row as it now is.
  const task = await readTask(tx, caller.tenantId, taskId);
  if (!task) throw notFound("taskId: 任务不存在");
  if (task.state !== "open") throw conflict("taskId: 任务已办结");
  if (task.assignee === caller.userId) throw conflict("taskId: 您已签收该任务");
  if (task.assignee) throw conflict("taskId: 任务已被他人签收");
  throw forbidden("taskId: 您不是该任务的候选人");
}

/**
 * Completes the caller's task: `pass` as the family sets it (flag "ok" or the comment 同意), the
 * comment kept on the task and in the history, then the engine runs on from that task.
 */
export async function complete(
  tx: Queryable,
  caller: CurrentUser,
  input: { taskId: string; flag?: string; comment?: string; variables: Record<string, unknown> },
): Promise<{ instanceId: string; finished: boolean }> {
  const task = await lockTask(tx, caller.tenantId, input.taskId);
  if (!task) throw notFound("taskId: 任务不存在");
  if (task.state !== "open") throw conflict("taskId: 任务已办结, 不能重复办理");
  if (task.assignee === null) throw badRequest("taskId: 请先签收该任务");
  if (task.assignee !== caller.userId) throw forbidden("taskId: 该任务不是您的待办");
  const instance = await lockInstance(tx, caller.tenantId, task.instance_id);
  if (instance?.status !== "running") throw conflict("processInstanceId: 流程实例已结束");
  const definition = await definitionOfInstance(tx, instance.definition_id);
  if (!definition || definition.suspended) throw badRequest("processDefinitionId: 流程已挂起, 不能办理");
  const comment = (input.comment ?? "").trim() || "同意";
  if (comment.length > 1000) throw badRequest("comment: 长度不能超过1000");
  const pass = input.flag === "ok" || comment === "同意";
  const variables = { ...instance.variables, ...input.variables, pass };
  let step: Step;
  try {
    step = await completeUserTask(instance.engine_state, variables, task.task_key);
  } catch (error) {
    throw engineFailure(error);
  }
  await finishTask(tx, { id: task.id, instanceId: instance.id }, { comment, pass, userId: caller.userId });
  await openWaitingTasks(
    tx,
    { id: instance.id, tenantId: instance.tenant_id },
    step,
    definition.user_tasks,
    variables,
  );
  await saveInstance(tx, instance.id, { variables, engineState: step.state, finished: step.finished });
  if (step.finished) {
    await instanceEnded(tx, definition.def_key, {
      tenantId: instance.tenant_id,
      instanceId: instance.id,
      businessKey: instance.business_key,
      endEventId: step.endEvent?.id ?? null,
      deleted: false,
      variables,
      comment,
      userId: caller.userId,
    });
  }
  return { instanceId: instance.id, finished: step.finished };
}

/**
 * Fires the earliest due timer of any running instance, under the instance's row lock, as one
 * transaction: the engine takes the timer's path (an escalated task, a wait that ends), the
 * history records the system's step. False when nothing is due. `now` is the clock to judge by.
 */
export async function fireDueTimer(
  db: { transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> },
  now: Date,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const due = await lockDueTimer(tx, now);
    if (!due) return false;
    try {
      return await takeTimerStep(tx, due);
    } catch (error) {
      throw new TimerFailed(due.instance_id, due.element_id, error);
    }
  });
}

/** A due timer whose step failed (nothing of it was written): the runner puts it off and goes on. */
export class TimerFailed extends Error {
  constructor(
    readonly instanceId: string,
    readonly elementId: string,
    cause: unknown,
  ) {
    super(`${elementId}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

/** The engine takes the timer's path of the locked instance; the step is written as any other. */
async function takeTimerStep(
  tx: Queryable,
  due: { instance_id: string; tenant_id: string; element_id: string },
): Promise<boolean> {
  const instance = await lockInstance(tx, due.tenant_id, due.instance_id);
  const definition = instance && (await definitionOfInstance(tx, instance.definition_id));
  await dropTimer(tx, due.instance_id, due.element_id);
  // Its instance or definition gone between the look and the lock: the row was all that was left.
  if (!instance || !definition) return true;
  let step: Step | undefined;
  try {
    step = await fireTimer(instance.engine_state, instance.variables, due.element_id);
  } catch (error) {
    throw engineFailure(error);
  }
  // The engine no longer waits on it (a stale row): dropping it was all there was to do.
  if (!step) return true;
  await openWaitingTasks(
    tx,
    { id: instance.id, tenantId: instance.tenant_id },
    step,
    definition.user_tasks,
    instance.variables,
  );
  await saveInstance(tx, instance.id, {
    variables: instance.variables,
    engineState: step.state,
    finished: step.finished,
  });
  if (step.finished) {
    await instanceEnded(tx, definition.def_key, {
      tenantId: instance.tenant_id,
      instanceId: instance.id,
      businessKey: instance.business_key,
      endEventId: step.endEvent?.id ?? null,
      deleted: false,
      variables: instance.variables,
      comment: "定时到期",
      userId: null,
    });
  }
  return true;
}

/** Ends a running instance by hand, with the reason; its open tasks stop being anyone's work. */
export async function deleteInstance(
  tx: Queryable,
  tenantId: string,
  instanceId: string,
  reason: string,
  userId: string,
): Promise<void> {
  const instance = await lockInstance(tx, tenantId, instanceId);
  if (!instance) throw notFound("processInstanceId: 流程实例不存在");
  if (instance.status !== "running") throw conflict("processInstanceId: 流程实例已结束");
  await cancelTasks(tx, instance.id);
  await syncTimers(tx, { id: instance.id, tenantId }, []);
  await tx.query(
    `update wf_instance set status = 'deleted', delete_reason = $2, end_time = now(), engine_state = null
      where id = $1`,
    [instance.id, reason],
  );
  await insertHistory(tx, {
    tenantId,
    instanceId,
    activityId: "deleted",
    activityName: "删除流程",
    type: "endEvent",
    userId,
    ended: true,
    comment: reason,
  });
  const definition = await definitionOfInstance(tx, instance.definition_id);
  await instanceEnded(tx, definition?.def_key ?? "", {
    tenantId,
    instanceId,
    businessKey: instance.business_key,
    endEventId: null,
    deleted: true,
    variables: instance.variables,
    comment: reason,
    userId,
  });
}

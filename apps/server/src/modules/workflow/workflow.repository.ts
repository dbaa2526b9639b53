import type { Queryable } from "../../db/client.ts";
import { nextId } from "../../db/ids.ts";
import type { UserTaskConfig } from "./bpmn-parse.ts";
import type { TaskPeople } from "./candidates.ts";

/** The rows a step of an instance reads and writes, each read naming the tenant it belongs to. */

export interface DefinitionForRun {
  id: string;
  tenant_id: string;
  def_key: string;
  name: string;
  suspended: boolean;
  started_by_system: boolean;
  bpmn_xml: string;
  user_tasks: Record<string, UserTaskConfig>;
}

/** A definition the tenant may start: its own or a common one. */
export async function definitionForTenant(
  db: Queryable,
  tenantId: string,
  definitionId: string,
): Promise<DefinitionForRun | undefined> {
  const [row] = await db.query<DefinitionForRun>(
    `select id, tenant_id, def_key, name, suspended, started_by_system, bpmn_xml, user_tasks from wf_definition
      where id = $1 and tenant_id in ('', $2)`,
    [definitionId, tenantId],
  );
  return row;
}

/** The newest version of a definition key the tenant may start (its own before a common one). */
export async function latestDefinitionId(db: Queryable, tenantId: string, key: string) {
  const [row] = await db.query<{ id: string }>(
    `select id from wf_definition where def_key = $1 and tenant_id in ('', $2)
      order by (tenant_id = $2) desc, version desc limit 1`,
    [key, tenantId],
  );
  return row?.id;
}

export interface InstanceForStep {
  id: string;
  tenant_id: string;
  definition_id: string;
  status: string;
  variables: Record<string, unknown>;
  engine_state: unknown;
  start_user: string;
  business_key: string;
}

export async function lockInstance(db: Queryable, tenantId: string, instanceId: string) {
  const [row] = await db.query<InstanceForStep>(
    `select id, tenant_id, definition_id, status, variables, engine_state, start_user, business_key from wf_instance
      where id = $1 and tenant_id = $2 for update`,
    [instanceId, tenantId],
  );
  return row;
}

export async function insertInstance(
  db: Queryable,
  row: { id: string; tenantId: string; definitionId: string; businessKey: string; startUser: string },
) {
  await db.query(
    `insert into wf_instance (id, tenant_id, definition_id, business_key, start_user, variables)
     values ($1, $2, $3, $4, $5, '{}')`,
    [row.id, row.tenantId, row.definitionId, row.businessKey, row.startUser],
  );
}

export async function saveInstance(
  db: Queryable,
  id: string,
  state: { variables: Record<string, unknown>; engineState: unknown; finished: boolean },
) {
  await db.query(
    `update wf_instance set variables = $2::jsonb, engine_state = $3::jsonb,
       status = case when $4 then 'finished' else status end,
       end_time = case when $4 then now() else end_time end
     where id = $1`,
    [
      id,
      JSON.stringify(state.variables),
      state.engineState === null ? null : JSON.stringify(state.engineState),
      state.finished,
    ],
  );
}

export async function insertTask(
  db: Queryable,
  row: { tenantId: string; instanceId: string; key: string; name: string; people: TaskPeople },
) {
  const id = nextId();
  await db.query(
    `insert into wf_task (id, tenant_id, instance_id, task_key, name, assignee, candidate_users, candidate_groups,
       claim_time)
     values ($1, $2, $3, $4, $5, $6, $7::bigint[], $8::varchar[], case when $6::bigint is null then null else now() end)`,
    [
      id,
      row.tenantId,
      row.instanceId,
      row.key,
      row.name,
      row.people.assignee,
      row.people.candidateUsers,
      row.people.candidateGroups,
    ],
  );
  await insertHistory(db, {
    tenantId: row.tenantId,
    instanceId: row.instanceId,
    activityId: row.key,
    activityName: row.name,
    type: "userTask",
    taskId: id,
    userId: row.people.assignee,
    ended: false,
  });
  return id;
}

export async function openTaskKeys(db: Queryable, instanceId: string): Promise<Map<string, string>> {
  const rows = await db.query<{ id: string; task_key: string }>(
    "select id, task_key from wf_task where instance_id = $1 and state = 'open'",
    [instanceId],
  );
  return new Map(rows.map((r) => [r.task_key, r.id]));
}

export async function insertHistory(
  db: Queryable,
  row: {
    tenantId: string;
    instanceId: string;
    activityId: string;
    activityName: string;
    type: string;
    taskId?: string;
    userId: string | null;
    ended: boolean;
    comment?: string;
  },
) {
  await db.query(
    `insert into wf_history (id, tenant_id, instance_id, activity_id, activity_name, activity_type, task_id, user_id,
       start_time, end_time, comment)
     values ($1, $2, $3, $4, $5, $6, $7, $8, clock_timestamp(), case when $9 then clock_timestamp() end, $10)`,
    [
      nextId(),
      row.tenantId,
      row.instanceId,
      row.activityId,
      row.activityName,
      row.type,
      row.taskId ?? null,
      row.userId,
      row.ended,
      row.comment ?? null,
    ],
  );
}

export interface TaskForStep {
  id: string;
  tenant_id: string;
  instance_id: string;
  task_key: string;
  assignee: string | null;
  state: string;
  candidate_users: string[];
  candidate_groups: string[];
}

export async function lockTask(db: Queryable, tenantId: string, taskId: string) {
  const [row] = await db.query<TaskForStep>(
    `select id, tenant_id, instance_id, task_key, assignee, state, candidate_users::text[] as candidate_users,
            candidate_groups::text[] as candidate_groups
       from wf_task where id = $1 and tenant_id = $2 for update`,
    [taskId, tenantId],
  );
  return row;
}

export async function readTask(db: Queryable, tenantId: string, taskId: string) {
  const [row] = await db.query<TaskForStep>(
    `select id, tenant_id, instance_id, task_key, assignee, state, candidate_users::text[] as candidate_users,
            candidate_groups::text[] as candidate_groups
       from wf_task where id = $1 and tenant_id = $2`,
    [taskId, tenantId],
  );
  return row;
}

/**
 * Claims a task for the user in one statement: of two claims at once, the second finds the task
 * no longer unassigned and changes nothing.
 */
export async function claimTask(
  db: Queryable,
  tenantId: string,
  taskId: string,
  userId: string,
  roleAliases: string[],
): Promise<boolean> {
  const rows = await db.query(
    `update wf_task set assignee = $3, claim_time = now()
      where id = $1 and tenant_id = $2 and state = 'open' and assignee is null
        and ($3::bigint = any(candidate_users) or candidate_groups && $4::varchar[])
      returning id`,
    [taskId, tenantId, userId, roleAliases],
  );
  return rows.length > 0;
}

export async function finishTask(
  db: Queryable,
  task: { id: string; instanceId: string },
  outcome: { comment: string; pass: boolean; userId: string },
) {
  await db.query(
    "update wf_task set state = 'completed', end_time = now(), comment = $2, pass = $3 where id = $1",
    [task.id, outcome.comment, outcome.pass],
  );
  await db.query(
    "update wf_history set end_time = clock_timestamp(), user_id = $2, comment = $3 where task_id = $1",
    [task.id, outcome.userId, outcome.comment],
  );
}

/** Open tasks of an instance the engine no longer waits on (or of a deleted instance) stop being work. */
export async function cancelTasks(db: Queryable, instanceId: string, keep: readonly string[] = []) {
  const rows = await db.query<{ id: string }>(
    `update wf_task set state = 'cancelled', end_time = now()
      where instance_id = $1 and state = 'open' and not (task_key = any($2::varchar[])) returning id`,
    [instanceId, keep],
  );
  if (rows.length > 0) {
    await db.query("update wf_history set end_time = clock_timestamp() where task_id = any($1::bigint[])", [
      rows.map((r) => r.id),
    ]);
  }
}

export async function isSuspended(db: Queryable, definitionId: string): Promise<boolean> {
  const [row] = await db.query<{ suspended: boolean }>("select suspended from wf_definition where id = $1", [
    definitionId,
  ]);
  return row?.suspended ?? true;
}

export async function definitionOfInstance(db: Queryable, definitionId: string) {
  const [row] = await db.query<{
    user_tasks: Record<string, UserTaskConfig>;
    suspended: boolean;
    def_key: string;
  }>("select user_tasks, suspended, def_key from wf_definition where id = $1", [definitionId]);
  return row;
}

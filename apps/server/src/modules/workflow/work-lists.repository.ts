import type { Queryable } from "../../db/client.ts";
import type { DefinitionRow, FlowRow } from "./flow-items.ts";

/**
 * The work lists: indexed reads of task and instance rows (wf_task_todo, _claim_*, _done,
 * wf_instance_starter), never a walk over engine states.
 */

/** Open lists are not paged by the family; this bound keeps them a list a person reads. */
export const OPEN_LIST_LIMIT = 1000;

const FLOW_COLUMNS = `i.id as instance_id, i.business_key, i.start_time as instance_start, i.end_time as instance_end,
  i.status as instance_status, i.variables, f.id as definition_id, f.def_key, f.name as def_name,
  f.version as def_version, f.description, f.resource_name, f.category, cat.dict_value as category_name`;
const CATEGORY_JOIN = `left join sys_dict cat on cat.code = 'flow' and cat.parent_id > 0 and cat.is_deleted = 0
  and 'flow_' || cat.dict_key = f.category`;
const TASK_COLUMNS = `t.id as task_id, t.name as task_name, t.task_key, t.assignee, u.real_name as assignee_name,
  t.create_time as task_create, t.claim_time, t.end_time as task_end, t.comment, t.pass, ${FLOW_COLUMNS}`;
const TASK_FROM = `from wf_task t join wf_instance i on i.id = t.instance_id join wf_definition f on f.id = i.definition_id
  left join sys_user u on u.id = t.assignee ${CATEGORY_JOIN}`;

export interface ListFilter {
  categories: string[];
  processDefinitionName?: string;
}

/** Filters as parameters from `$at` on; never spliced text. */
function filterSql(filter: ListFilter, at: number) {
  return {
    sql: `and (cardinality($${at}::varchar[]) = 0 or f.category = any($${at}::varchar[]))
          and ($${at + 1}::text is null or f.name like '%' || $${at + 1} || '%')`,
    params: [filter.categories, filter.processDefinitionName ?? null],
  };
}

export async function todoRows(db: Queryable, tenantId: string, userId: string, filter: ListFilter) {
  const f = filterSql(filter, 3);
  return db.query<FlowRow>(
    `select ${TASK_COLUMNS} ${TASK_FROM}
      where t.tenant_id = $1 and t.assignee = $2 and t.state = 'open' ${f.sql}
      order by t.create_time desc, t.id desc limit ${OPEN_LIST_LIMIT}`,
    [tenantId, userId, ...f.params],
  );
}

export async function claimRows(
  db: Queryable,
  tenantId: string,
  userId: string,
  roleAliases: string[],
  filter: ListFilter,
) {
  const f = filterSql(filter, 4);
  return db.query<FlowRow>(
    `select ${TASK_COLUMNS} ${TASK_FROM}
      where t.tenant_id = $1 and t.state = 'open' and t.assignee is null
        and ($2::bigint = any(t.candidate_users) or t.candidate_groups && $3::varchar[]) ${f.sql}
      order by t.create_time desc, t.id desc limit ${OPEN_LIST_LIMIT}`,
    [tenantId, userId, roleAliases, ...f.params],
  );
}

export async function doneRows(
  db: Queryable,
  tenantId: string,
  userId: string,
  filter: ListFilter,
  page: { size: number; offset: number },
) {
  const f = filterSql(filter, 3);
  const where = `where t.tenant_id = $1 and t.assignee = $2 and t.state = 'completed' ${f.sql}`;
  const [rows, [count]] = await Promise.all([
    db.query<FlowRow>(
      `select ${TASK_COLUMNS} ${TASK_FROM} ${where}
        order by t.end_time desc, t.id desc limit ${page.size} offset ${page.offset}`,
      [tenantId, userId, ...f.params],
    ),
    db.query<{ total: string }>(`select count(*)::text as total ${TASK_FROM} ${where}`, [
      tenantId,
      userId,
      ...f.params,
    ]),
  ]);
  return { rows, total: Number(count?.total ?? 0) };
}

/** Instances the user started, each with its latest task. */
export async function sentRows(
  db: Queryable,
  tenantId: string,
  userId: string,
  filter: ListFilter,
  page: { size: number; offset: number },
) {
  const f = filterSql(filter, 3);
  const tables = `from wf_instance i join wf_definition f on f.id = i.definition_id ${CATEGORY_JOIN}`;
  const where = `where i.tenant_id = $1 and i.start_user = $2 ${f.sql}`;
  const params = [tenantId, userId, ...f.params];
  const [rows, [count]] = await Promise.all([
    db.query<FlowRow>(
      `select ${FLOW_COLUMNS}, t.id as task_id, t.name as task_name, t.task_key ${tables}
         left join lateral (select id, name, task_key from wf_task lt where lt.instance_id = i.id
           order by lt.create_time desc, lt.id desc limit 1) t on true
        ${where}
        order by i.start_time desc, i.id desc limit ${page.size} offset ${page.offset}`,
      params,
    ),
    db.query<{ total: string }>(`select count(*)::text as total ${tables} ${where}`, params),
  ]);
  return { rows, total: Number(count?.total ?? 0) };
}

export interface FollowRow extends FlowRow {
  tenant_id: string;
  start_user: string;
  start_user_name: string | null;
  suspended: boolean;
}

/** Running instances, of one tenant or (platform administrator) all, with the current task. */
export async function followRows(
  db: Queryable,
  tenantId: string | null,
  filter: { processInstanceId?: string; processDefinitionKey?: string },
  page: { size: number; offset: number },
) {
  const tables = `from wf_instance i join wf_definition f on f.id = i.definition_id ${CATEGORY_JOIN}
    left join sys_user su on su.id = i.start_user`;
  const where = `where i.status = 'running' and ($1::text is null or i.tenant_id = $1)
      and ($2::bigint is null or i.id = $2) and ($3::text is null or f.def_key = $3)`;
  const params = [tenantId, filter.processInstanceId ?? null, filter.processDefinitionKey ?? null];
  const [rows, [count]] = await Promise.all([
    db.query<FollowRow>(
      `select ${FLOW_COLUMNS}, i.tenant_id, i.start_user, su.real_name as start_user_name, f.suspended,
              t.id as task_id, t.name as task_name, t.task_key ${tables}
         left join lateral (select id, name, task_key from wf_task lt where lt.instance_id = i.id
           and lt.state = 'open' order by lt.create_time desc limit 1) t on true
        ${where}
        order by i.start_time desc, i.id desc limit ${page.size} offset ${page.offset}`,
      params,
    ),
    db.query<{ total: string }>(`select count(*)::text as total ${tables} ${where}`, params),
  ]);
  return { rows, total: Number(count?.total ?? 0) };
}

const DEFINITION_COLUMNS = `f.id, f.tenant_id, f.name, f.def_key, f.category, cat.dict_value as category_name, f.version,
  f.deployment_id, f.resource_name, f.suspended, d.deploy_time`;

/**
 * Definitions for start-list (`latestOnly`, active only) and manager/list (every version).
 * `tenantId` null: every tenant's (platform administrator); mode 1 common, 2 tenant's own.
 */
export async function definitionRows(
  db: Queryable,
  options: {
    tenantId: string | null;
    mode?: 1 | 2;
    categories: string[];
    latestActiveOnly: boolean;
    page: { size: number; offset: number };
  },
) {
  const from = `from wf_definition f join wf_deployment d on d.id = f.deployment_id ${CATEGORY_JOIN}
    where ($1::text is null or f.tenant_id in ('', $1))
      and ($2::int is null or ($2 = 1 and f.tenant_id = '') or ($2 = 2 and f.tenant_id <> ''))
      and (cardinality($3::varchar[]) = 0 or f.category = any($3::varchar[]))
      and (not $4 or (not f.suspended and not f.started_by_system and f.version = (select max(version) from wf_definition l
             where l.tenant_id = f.tenant_id and l.def_key = f.def_key)))`;
  const params = [options.tenantId, options.mode ?? null, options.categories, options.latestActiveOnly];
  const [rows, [count]] = await Promise.all([
    db.query<DefinitionRow>(
      `select ${DEFINITION_COLUMNS} ${from} order by f.def_key, f.tenant_id, f.version desc
        limit ${options.page.size} offset ${options.page.offset}`,
      params,
    ),
    db.query<{ total: string }>(`select count(*)::text as total ${from}`, params),
  ]);
  return { rows, total: Number(count?.total ?? 0) };
}

export interface HistoryRow {
  activity_id: string;
  activity_name: string;
  activity_type: string;
  start_time: Date;
  end_time: Date | null;
  user_id: string | null;
  user_name: string | null;
  comment: string | null;
}

export async function historyRows(db: Queryable, tenantId: string | null, instanceId: string) {
  return db.query<HistoryRow>(
    `select h.activity_id, h.activity_name, h.activity_type, h.start_time, h.end_time, h.user_id,
            u.real_name as user_name, h.comment
       from wf_history h join wf_instance i on i.id = h.instance_id left join sys_user u on u.id = h.user_id
      where h.instance_id = $1 and ($2::text is null or i.tenant_id = $2)
      order by h.start_time, h.id`,
    [instanceId, tenantId],
  );
}

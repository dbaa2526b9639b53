import { ApiError, badRequest, notFound } from "../../contract/errors.ts";
import type { Queryable } from "../../db/client.ts";
import { nextId } from "../../db/ids.ts";
import { BpmnInvalid, type ParsedProcess, parseBpmn } from "./bpmn-parse.ts";
import { instanceEnded } from "./instance-outcomes.ts";

export interface BpmnFile {
  name: string;
  xml: string;
}

/** Reads every file before anything is stored: one bad file refuses the whole upload. */
export async function parseFiles(
  files: readonly BpmnFile[],
): Promise<(BpmnFile & { process: ParsedProcess })[]> {
  const parsed = [];
  for (const file of files) {
    try {
      parsed.push({ ...file, process: await parseBpmn(file.xml) });
    } catch (error) {
      if (error instanceof BpmnInvalid)
        throw badRequest(`files: ${file.name} 不是有效的 BPMN 文件: ${error.message}`);
      throw error;
    }
  }
  return parsed;
}

/**
 * Deploys the files once per tenant ('' = common): each process becomes the next version of its
 * key in that tenant. Returns the definition ids.
 */
export async function deploy(
  tx: Queryable,
  input: { tenantIds: string[]; category: string; files: readonly BpmnFile[]; userId: string | null },
): Promise<string[]> {
  const files = await parseFiles(input.files);
  const ids: string[] = [];
  for (const tenantId of input.tenantIds.length > 0 ? input.tenantIds : [""]) {
    for (const file of files) {
      const deploymentId = nextId();
      await tx.query(
        "insert into wf_deployment (id, tenant_id, name, category, deploy_user) values ($1, $2, $3, $4, $5)",
        [deploymentId, tenantId, file.process.name, input.category, input.userId],
      );
      // Serialises deployments of one key in one tenant so versions never collide.
      await tx.query("select pg_advisory_xact_lock(hashtext($1))", [`wf:${tenantId}:${file.process.key}`]);
      const [{ version }] = (await tx.query<{ version: number }>(
        "select coalesce(max(version), 0) + 1 as version from wf_definition where tenant_id = $1 and def_key = $2",
        [tenantId, file.process.key],
      )) as [{ version: number }];
      const id = `${file.process.key}:${version}:${deploymentId}`;
      await tx.query(
        `insert into wf_definition (id, deployment_id, tenant_id, def_key, version, name, category, description,
           resource_name, bpmn_xml, user_tasks)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11::jsonb)`,
        [
          id,
          deploymentId,
          tenantId,
          file.process.key,
          version,
          file.process.name,
          input.category,
          file.process.description,
          file.name.slice(0, 255),
          file.xml,
          JSON.stringify(file.process.userTasks),
        ],
      );
      ids.push(id);
    }
  }
  return ids;
}

/** Whose definitions a manager call may touch: the platform administrator's all, a tenant admin's own. */
export type ManagerScope = { all: true } | { all: false; tenantId: string };

const scopeSql = (scope: ManagerScope, column: string, at: number) =>
  scope.all ? { sql: "true", params: [] } : { sql: `${column} = $${at}`, params: [scope.tenantId] };

/** Suspends or activates a definition, answering the family's messages. */
export async function changeState(
  tx: Queryable,
  scope: ManagerScope,
  processId: string,
  state: "active" | "suspend",
): Promise<string> {
  const where = scopeSql(scope, "tenant_id", 2);
  const [row] = await tx.query<{ suspended: boolean }>(
    `select suspended from wf_definition where id = $1 and ${where.sql} for update`,
    [processId, ...where.params],
  );
  if (!row) throw notFound("processId: 流程不存在");
  const suspend = state === "suspend";
  if (row.suspended === suspend) return `ID为 [${processId}] 的流程已是此状态，无需操作`;
  await tx.query("update wf_definition set suspended = $2 where id = $1", [processId, suspend]);
  return suspend ? `挂起ID为 [${processId}] 的流程成功` : `激活ID为 [${processId}] 的流程成功`;
}

/**
 * Deletes deployments with their definitions; refused while any of their instances runs, unless
 * the caller asks to cascade (the running instances and their tasks go too).
 */
export async function deleteDeployments(
  tx: Queryable,
  scope: ManagerScope,
  deploymentIds: string[],
  cascade: boolean,
): Promise<number> {
  const where = scopeSql(scope, "d.tenant_id", 2);
  const found = await tx.query<{ id: string; running: string }>(
    `select d.id, (select count(*) from wf_instance i join wf_definition f on f.id = i.definition_id
                    where f.deployment_id = d.id and i.status = 'running')::text as running
       from wf_deployment d where d.id = any($1::bigint[]) and ${where.sql}
       for update of d`,
    [deploymentIds, ...where.params],
  );
  if (found.length === 0) throw notFound("deploymentIds: 部署不存在");
  const busy = found.filter((d) => d.running !== "0");
  if (busy.length > 0 && !cascade) {
    throw new ApiError(
      409,
      `deploymentIds: 部署 ${busy.map((d) => d.id).join(",")} 还有 ${busy.reduce((n, d) => n + Number(d.running), 0)} 个运行中的流程实例, 请先删除实例或选择级联删除`,
    );
  }
  // Instances going with their deployment end as deleted for the modules waiting on them (a held
  // refund is then rejected, never left waiting for an approval that can no longer come).
  const running = await tx.query<{
    id: string;
    tenant_id: string;
    business_key: string;
    variables: Record<string, unknown>;
    def_key: string;
  }>(
    `select i.id, i.tenant_id, i.business_key, i.variables, f.def_key
       from wf_instance i join wf_definition f on f.id = i.definition_id
      where f.deployment_id = any($1::bigint[]) and i.status = 'running'
      for update of i`,
    [found.map((d) => d.id)],
  );
  for (const instance of running) {
    await instanceEnded(tx, instance.def_key, {
      tenantId: instance.tenant_id,
      instanceId: instance.id,
      businessKey: instance.business_key,
      endEventId: null,
      deleted: true,
      variables: instance.variables,
      comment: "流程部署已删除",
      userId: null,
    });
  }
  await tx.query("delete from wf_deployment where id = any($1::bigint[])", [found.map((d) => d.id)]);
  return found.length;
}

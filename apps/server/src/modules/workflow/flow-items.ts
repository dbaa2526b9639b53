import { formatDateTime } from "../../contract/dates.ts";

/** Users are named `taskUser_<id>` on the wire (contract §13.1). */
export const taskUser = (userId: string | null | undefined) => (userId ? `taskUser_${userId}` : "");

const time = (value: Date | string | null | undefined, timeZone: string) =>
  value ? formatDateTime(value instanceof Date ? value : new Date(value), timeZone) : "";

/** The columns the list queries select for a task or an instance row, all optional. */
export interface FlowRow {
  task_id?: string | null;
  task_name?: string | null;
  task_key?: string | null;
  assignee?: string | null;
  assignee_name?: string | null;
  task_create?: Date | null;
  claim_time?: Date | null;
  task_end?: Date | null;
  comment?: string | null;
  pass?: boolean | null;
  instance_id: string;
  business_key: string;
  instance_start: Date;
  instance_end?: Date | null;
  instance_status: string;
  variables?: Record<string, unknown> | null;
  definition_id: string;
  def_key: string;
  def_name: string;
  def_version: number;
  description: string;
  resource_name: string;
  category: string;
  category_name?: string | null;
}

/** The BladeFlow item of contract §13.2: every key present, null as "" / -1 / false. */
export function bladeFlow(row: FlowRow, status: string, timeZone: string) {
  const [businessTable = "", businessId = ""] = row.business_key.includes(":")
    ? row.business_key.split(":", 2)
    : ["", ""];
  return {
    taskId: row.task_id ?? "",
    taskName: row.task_name ?? "",
    taskDefinitionKey: row.task_key ?? "",
    assignee: taskUser(row.assignee),
    assigneeName: row.assignee_name ?? "",
    category: row.category,
    categoryName: row.category_name ?? "",
    createTime: time(row.task_create ?? row.instance_start, timeZone),
    endTime: time(row.task_end ?? row.instance_end, timeZone),
    claimTime: time(row.claim_time, timeZone),
    historyTaskEndTime: time(row.task_end, timeZone),
    executionId: row.instance_id,
    processInstanceId: row.instance_id,
    processDefinitionId: row.definition_id,
    processDefinitionKey: row.def_key,
    processDefinitionName: row.def_name,
    processDefinitionVersion: row.def_version,
    processDefinitionDesc: row.description,
    processDefinitionDiagramResName: "",
    processDefinitionResName: row.resource_name,
    historyProcessInstanceId: row.instance_id,
    processIsFinished: row.instance_status === "running" ? "unfinished" : "finished",
    historyActivityId: "",
    historyActivityName: row.def_name,
    historyActivityDurationTime: "",
    businessTable,
    businessId,
    status,
    comment: row.comment ?? "",
    pass: row.pass ?? false,
    flag: "",
    beginDate: "",
    endDate: "",
    variables: row.variables ?? {},
  };
}

/** The FlowProcess item of start-list and manager/list. */
export interface DefinitionRow {
  id: string;
  tenant_id: string;
  name: string;
  def_key: string;
  category: string;
  category_name: string | null;
  version: number;
  deployment_id: string;
  resource_name: string;
  suspended: boolean;
  deploy_time: Date;
}

export function flowProcess(row: DefinitionRow, timeZone: string) {
  return {
    id: row.id,
    tenantId: row.tenant_id,
    name: row.name,
    key: row.def_key,
    category: row.category,
    categoryName: row.category_name ?? "",
    version: row.version,
    deploymentId: row.deployment_id,
    resourceName: row.resource_name,
    diagramResourceName: "",
    suspensionState: row.suspended ? 2 : 1,
    deploymentTime: time(row.deploy_time, timeZone),
  };
}

/** `0小时1分5秒` or `1天2小时3分4秒` (contract §13.3); "" when nothing elapsed. */
export function durationText(from: Date, to: Date | null): string {
  if (!to) return "";
  let seconds = Math.max(0, Math.floor((to.getTime() - from.getTime()) / 1000));
  if (seconds === 0) return "";
  const days = Math.floor(seconds / 86_400);
  seconds -= days * 86_400;
  const hours = Math.floor(seconds / 3600);
  seconds -= hours * 3600;
  const minutes = Math.floor(seconds / 60);
  seconds -= minutes * 60;
  return `${days > 0 ? `${days}天` : ""}${hours}小时${minutes}分${seconds}秒`;
}

export { time as flowTime };

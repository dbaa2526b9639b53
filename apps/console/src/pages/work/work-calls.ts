import type { DictionaryItem, Row } from "@meterline/api-client";
import type { Page } from "@meterline/contracts";
import { api } from "../../app/api.ts";
import { loadDictionary } from "../../crud/dictionary.ts";

const flow = "/api/blade-flow";
const leave = "/api/blade-desk/process/leave";

/** The five lists of 我的事务 (contract §13.2); claim and todo answer every row on one page. */
export type WorkList = "start" | "claim" | "todo" | "send" | "done";

export const loadWorkList = (list: WorkList, current: number, size: number) =>
  api.get<Page<Row>>(`${flow}/work/${list}-list`, { current, size });

/**
 * The number of open tasks assigned to the user (the top bar's badge). Silent: a count that fails
 * shows as no badge, not as a toast on every focus of the window.
 */
export const loadTodoCount = () =>
  api
    .request(`${flow}/work/todo-list`, { query: { current: 1, size: 1 }, silent: true })
    .then((answer) => Number((answer as { data: Page<Row> }).data.total) || 0);

export const claimTask = (taskId: string) =>
  api.post<unknown>(`${flow}/work/claim-task`, undefined, { taskId });

/** Pass sends flag "ok"; a rejection sends the comment only (contract §13.2). */
export const completeTask = (
  task: { taskId: string; processInstanceId: string },
  pass: boolean,
  comment: string,
) => api.post<unknown>(`${flow}/work/complete-task`, { ...task, comment, ...(pass ? { flag: "ok" } : {}) });

/** One step of an instance as history-flow-list answers it (contract §13.3). */
export interface FlowStep {
  historyActivityId: string;
  historyActivityName: string;
  createTime: string;
  endTime: string;
  historyActivityDurationTime: string;
  assigneeName: string;
  comment: string;
}

export const loadSteps = (processInstanceId: string) =>
  api.get<FlowStep[]>(`${flow}/process/history-flow-list`, { processInstanceId });

/** A leave request as the detail call answers it (contract §13.5). */
export interface LeaveRequest {
  id: string;
  processDefinitionId: string;
  processInstanceId: string;
  type: number;
  startTime: string;
  endTime: string;
  days: number;
  reason: string;
  applyTime: string;
  flow: { assigneeName: string };
}

export const loadLeave = (businessId: string) => api.get<LeaveRequest>(`${leave}/detail`, { businessId });

export const startLeave = (body: {
  processDefinitionId: string;
  type: string;
  startTime: string;
  endTime: string;
  reason: string;
}) => api.post<{ leaveId: string; processInstanceId: string }>(`${leave}/start-process`, body);

type FlowItem = DictionaryItem & { remark?: string };

/**
 * The route key of a process category (spec §3 flow route entry): the remark of the `flow`
 * dictionary item whose key the category `flow_<key>` names, e.g. flow_1 → "leave".
 */
export async function routeOfCategory(category: string): Promise<string | undefined> {
  const key = category.replace(/^flow_/, "");
  const items = (await loadDictionary("flow", false)) as FlowItem[];
  return items.find((item) => String(item.dictKey) === key)?.remark || undefined;
}

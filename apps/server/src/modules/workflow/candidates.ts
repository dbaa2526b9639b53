import type { UserTaskConfig } from "./bpmn-parse.ts";
import { evaluate } from "./expressions.ts";

/** Who a waiting user task belongs to: one assignee, or candidates who must claim it first. */
export interface TaskPeople {
  assignee: string | null;
  candidateUsers: string[];
  candidateGroups: string[];
}

/** Flowable names users `taskUser_<id>` (contract §13.1); models may use either form. */
const TASK_USER = /^(?:taskUser_)?(\d{1,19})$/;

function listOf(value: unknown): string[] {
  const items = Array.isArray(value) ? value.map(String) : typeof value === "string" ? value.split(",") : [];
  return items.map((s) => s.trim()).filter(Boolean);
}

function userIds(value: unknown): string[] {
  const ids = new Set<string>();
  for (const item of listOf(typeof value === "number" ? String(value) : value)) {
    const match = TASK_USER.exec(item);
    if (match) ids.add(BigInt(match[1]!).toString());
  }
  return [...ids];
}

const resolved = (text: string | undefined, variables: Readonly<Record<string, unknown>>) =>
  text === undefined ? undefined : evaluate(text, variables);

/**
 * The people of a user task from its model attributes and the instance's variables. An assignee
 * wins over candidates (the task goes straight to a todo list); role aliases are kept as written.
 */
export function resolvePeople(
  config: UserTaskConfig,
  variables: Readonly<Record<string, unknown>>,
): TaskPeople {
  const [assignee] = userIds(resolved(config.assignee, variables));
  if (assignee) return { assignee, candidateUsers: [], candidateGroups: [] };
  const groups = listOf(resolved(config.candidateGroups, variables)).filter((g) => /^[\w-]{1,64}$/.test(g));
  return {
    assignee: null,
    candidateUsers: userIds(resolved(config.candidateUsers, variables)),
    candidateGroups: [...new Set(groups)],
  };
}

export const hasPeople = (people: TaskPeople) =>
  people.assignee !== null || people.candidateUsers.length > 0 || people.candidateGroups.length > 0;

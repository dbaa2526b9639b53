import type { Queryable } from "../../db/client.ts";

/**
 * What another module does when an instance of its process ends: the money module books an
 * approved refund, for instance. The workflow module knows nothing of those rules; a module
 * registers its handler by process key, and it runs in the transaction of the step that ended the
 * instance (so the booking and the end commit together, or neither).
 */
export interface InstanceOutcome {
  tenantId: string;
  instanceId: string;
  businessKey: string;
  /** approved / rejected as the end event says; deleted when someone ended it by hand. */
  endEventId: string | null;
  deleted: boolean;
  variables: Readonly<Record<string, unknown>>;
  /** The comment of the last completed task, or the delete reason. */
  comment: string;
  /** Who took the last step (null: the system, a timer). */
  userId: string | null;
}

type Handler = (tx: Queryable, outcome: InstanceOutcome) => Promise<void>;

const handlers = new Map<string, Handler>();

export function onInstanceEnded(processKey: string, handler: Handler): void {
  handlers.set(processKey, handler);
}

export async function instanceEnded(tx: Queryable, processKey: string, outcome: InstanceOutcome) {
  await handlers.get(processKey)?.(tx, outcome);
}

import type { Queryable } from "../../db/client.ts";

/** The wf_timer rows: the timer events each running instance waits on, and when they are due. */

/**
 * Keeps the instance's timer rows equal to what the engine now waits on. A timer already kept
 * keeps its due time (the engine's expiry does not move between steps); one no longer waited on
 * (its task was completed, its instance ended) goes.
 */
export async function syncTimers(
  db: Queryable,
  instance: { id: string; tenantId: string },
  timers: readonly { elementId: string; dueTime: Date }[],
) {
  await db.query("delete from wf_timer where instance_id = $1 and not (element_id = any($2::varchar[]))", [
    instance.id,
    timers.map((t) => t.elementId),
  ]);
  for (const timer of timers) {
    await db.query(
      `insert into wf_timer (instance_id, tenant_id, element_id, due_time) values ($1, $2, $3, $4)
       on conflict (instance_id, element_id) do nothing`,
      [instance.id, instance.tenantId, timer.elementId, timer.dueTime],
    );
  }
}

/**
 * Locks the running instance of the earliest due timer that no other process holds (several
 * server processes share the work this way), skipping instances of suspended definitions: their
 * timers wait until the definition is active again.
 */
export async function lockDueTimer(db: Queryable, now: Date) {
  const [row] = await db.query<{ instance_id: string; tenant_id: string; element_id: string }>(
    `select t.instance_id, t.tenant_id, t.element_id
       from wf_timer t join wf_instance i on i.id = t.instance_id join wf_definition f on f.id = i.definition_id
      where t.due_time <= $1 and i.status = 'running' and not f.suspended
      order by t.due_time, t.instance_id
      limit 1
      for update of i skip locked`,
    [now],
  );
  return row;
}

export async function dropTimer(db: Queryable, instanceId: string, elementId: string) {
  await db.query("delete from wf_timer where instance_id = $1 and element_id = $2", [instanceId, elementId]);
}

/** Puts off a timer whose step failed, keeping why, so it neither blocks the others nor is lost. */
export async function postponeTimer(
  db: Queryable,
  timer: { instanceId: string; elementId: string },
  until: Date,
  reason: string,
) {
  await db.query(
    `update wf_timer set due_time = $3, attempts = attempts + 1, last_error = $4
      where instance_id = $1 and element_id = $2`,
    [timer.instanceId, timer.elementId, until, reason.slice(0, 500)],
  );
}

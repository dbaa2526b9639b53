import { EventEmitter } from "node:events";
import { Engine, type Execution } from "bpmn-engine";
import { evaluate } from "./expressions.ts";
import { HeldTimers } from "./held-timers.ts";

/*
 * Why bpmn-engine: it is a maintained BPMN 2.0 executor for Node (gateways, events, timers, sub
 * processes from bpmn-elements, the XML read by bpmn-moddle), and its whole running state is a plain
 * object (getState / recover / resume). That lets each step run in the transaction that locks the
 * instance row: read the state, take the step, write the state back. No engine lives in memory
 * between requests, so a restart or a second server process simply continues from the database.
 */

/** Where an instance stands after a step. */
export interface Step {
  /** The engine's state to keep until the next step (null once the process has ended). */
  state: unknown;
  /** The user tasks the engine now waits on, by element id. */
  waiting: string[];
  finished: boolean;
  /** The end event the process reached, when it ended in this step. */
  endEvent?: { id: string; name: string };
  /** The timer events the instance now waits on, with their expiry (kept in wf_timer). */
  timers: { elementId: string; dueTime: Date }[];
  /** Timer events that fired in this step (they go into the history as steps of the system). */
  fired: { id: string; name: string }[];
}

/**
 * Conditions are read by our own evaluator (expressions.ts), never as scripts, over the instance's
 * variables as the database holds them: the engine copies its environment into every definition
 * and process, so the variables are bound here instead of being pushed into those copies.
 */
const expressionsOver = (variables: Readonly<Record<string, unknown>>) => ({
  resolveExpression: (expression: string) => evaluate(expression, variables),
});

interface Watch {
  failure?: Error;
  endEvent?: { id: string; name: string };
  fired: { id: string; name: string }[];
}

async function settle(
  engine: Engine,
  execution: Execution,
  watched: Watch,
  timers: HeldTimers,
): Promise<Step> {
  if (watched.failure) throw watched.failure;
  const postponed = execution.getPostponed();
  const waiting = postponed.filter((a) => a.type === "bpmn:UserTask").map((a) => a.id);
  const finished = postponed.length === 0;
  const state = finished ? null : await engine.getState();
  // The engine object is dropped after the step: nothing of it may stay scheduled.
  const held = finished ? [] : timers.pending();
  return {
    state,
    waiting,
    finished,
    ...(finished && watched.endEvent ? { endEvent: watched.endEvent } : {}),
    timers: held.map((t) => ({ elementId: t.elementId, dueTime: t.expireAt })),
    fired: watched.fired,
  };
}

/** Activity events reach the listener handed to execute / resume, not the engine itself. */
function watch(engine: Engine): { watched: Watch; listener: EventEmitter } {
  const watched: Watch = { fired: [] };
  engine.once("error", (error: unknown) => {
    watched.failure = error instanceof Error ? error : new Error(String(error));
  });
  const listener = new EventEmitter();
  listener.on("activity.end", (api: { id: string; type: string; name?: string }) => {
    if (api.type === "bpmn:EndEvent") watched.endEvent = { id: api.id, name: api.name ?? api.id };
  });
  listener.on("activity.timeout", (api: { id: string; name?: string }) => {
    watched.fired.push({ id: api.id, name: api.name ?? api.id });
  });
  return { watched, listener };
}

/** An engine over the instance's variables whose timers are held, never scheduled. */
function engineOf(variables: Readonly<Record<string, unknown>>, source?: string) {
  const timers = new HeldTimers();
  const engine = new Engine({
    ...(source === undefined ? {} : { source }),
    expressions: expressionsOver(variables),
    timers,
  });
  return { engine, timers };
}

/** Starts the process of a BPMN document and runs it to its first wait. */
export async function startProcess(xml: string, variables: Record<string, unknown>): Promise<Step> {
  const { engine, timers } = engineOf(variables, xml);
  const { watched, listener } = watch(engine);
  const execution = await engine.execute({ listener });
  return settle(engine, execution, watched, timers);
}

/**
 * Recovers an instance from its saved state, completes the waiting user task `taskKey` with the
 * instance's variables as they now are, and runs on to the next wait or the end.
 */
export async function completeUserTask(
  state: unknown,
  variables: Record<string, unknown>,
  taskKey: string,
): Promise<Step> {
  const { engine, timers } = engineOf(variables);
  engine.recover(state as object);
  const { watched, listener } = watch(engine);
  const execution = await engine.resume({ listener });
  if (!execution.getPostponed().some((a) => a.id === taskKey)) {
    throw new Error(`流程未停留在任务 ${taskKey}`);
  }
  execution.signal({ id: taskKey });
  return settle(engine, execution, watched, timers);
}

/**
 * Recovers an instance and fires its timer event `elementId` (the runner found it due): the engine
 * takes the timer's path — a boundary timer interrupts its task, an intermediate one lets the flow
 * go on. Undefined when the instance no longer waits on that timer.
 */
export async function fireTimer(
  state: unknown,
  variables: Record<string, unknown>,
  elementId: string,
): Promise<Step | undefined> {
  const { engine, timers } = engineOf(variables);
  engine.recover(state as object);
  const { watched, listener } = watch(engine);
  const execution = await engine.resume({ listener });
  const timer = timers.pending().find((t) => t.elementId === elementId);
  if (!timer) return undefined;
  timer.fire();
  return settle(engine, execution, watched, timers);
}

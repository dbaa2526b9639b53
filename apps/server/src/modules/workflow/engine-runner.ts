import { Engine, type Execution } from "bpmn-engine";
import { evaluate } from "./expressions.ts";

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
}

/**
 * Conditions are read by our own evaluator (expressions.ts), never as scripts, over the instance's
 * variables as the database holds them: the engine copies its environment into every definition
 * and process, so the variables are bound here instead of being pushed into those copies.
 */
const expressionsOver = (variables: Readonly<Record<string, unknown>>) => ({
  resolveExpression: (expression: string) => evaluate(expression, variables),
});

async function settle(engine: Engine, execution: Execution, failure: () => Error | undefined): Promise<Step> {
  const problem = failure();
  if (problem) throw problem;
  const postponed = execution.getPostponed();
  const waiting = postponed.filter((a) => a.type === "bpmn:UserTask").map((a) => a.id);
  const finished = postponed.length === 0;
  return { state: finished ? null : await engine.getState(), waiting, finished };
}

function watch(engine: Engine): () => Error | undefined {
  let failure: Error | undefined;
  engine.once("error", (error: unknown) => {
    failure = error instanceof Error ? error : new Error(String(error));
  });
  return () => failure;
}

/** Starts the process of a BPMN document and runs it to its first wait. */
export async function startProcess(xml: string, variables: Record<string, unknown>): Promise<Step> {
  const engine = new Engine({ source: xml, expressions: expressionsOver(variables) });
  const failure = watch(engine);
  const execution = await engine.execute();
  return settle(engine, execution, failure);
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
  const engine = new Engine({ expressions: expressionsOver(variables) }).recover(state as object);
  const failure = watch(engine);
  const execution = await engine.resume();
  if (!execution.getPostponed().some((a) => a.id === taskKey)) {
    throw new Error(`流程未停留在任务 ${taskKey}`);
  }
  execution.signal({ id: taskKey });
  return settle(engine, execution, failure);
}

import { Engine } from "bpmn-engine";
import { BpmnModdle } from "bpmn-moddle";
import { type ExpressionError, evaluate, isExpression } from "./expressions.ts";

/** Who may take a user task, as the model says (Flowable attributes; `${…}` resolved at run time). */
export interface UserTaskConfig {
  name: string;
  assignee?: string;
  candidateUsers?: string;
  candidateGroups?: string;
}

export interface ParsedProcess {
  key: string;
  name: string;
  description: string;
  userTasks: Record<string, UserTaskConfig>;
}

/** A file refused with the reason the parser or our checks give. */
export class BpmnInvalid extends Error {}

type Element = {
  $type: string;
  id?: string;
  name?: string;
  isExecutable?: boolean;
  $attrs?: Record<string, string>;
  flowElements?: Element[];
  documentation?: { text?: string }[];
  conditionExpression?: { body?: string };
  eventDefinitions?: TimerDefinition[];
  attachedToRef?: { id?: string };
};

type TimerDefinition = {
  $type: string;
  timeDuration?: { body?: string };
  timeDate?: { body?: string };
  timeCycle?: { body?: string };
};

/** An ISO 8601 duration as the engine reads it (PT1H, P2D, P1DT12H…). */
const ISO_DURATION = /^P(?!$)(\d+Y)?(\d+M)?(\d+W)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+(\.\d+)?S)?)?$/;

/**
 * Timers run where the instance waits: a boundary timer on a task (escalation) or an intermediate
 * timer event, each with a duration or a date (or an expression giving one). What nothing here can
 * run is refused with the reason: a timer start event (no one would start the instance) and
 * repeating cycles.
 */
function checkTimer(element: Element, definition: TimerDefinition) {
  const where = `${element.id}`;
  if (element.$type === "bpmn:StartEvent") throw new BpmnInvalid(`${where}: 暂不支持定时开始事件`);
  if (element.$type !== "bpmn:BoundaryEvent" && element.$type !== "bpmn:IntermediateCatchEvent")
    throw new BpmnInvalid(`${where}: 定时事件只能是边界事件或中间捕获事件`);
  if (definition.timeCycle) throw new BpmnInvalid(`${where}: 暂不支持循环定时 (timeCycle)`);
  const duration = definition.timeDuration?.body?.trim();
  const date = definition.timeDate?.body?.trim();
  if (!duration && !date) throw new BpmnInvalid(`${where}: 定时事件缺少 timeDuration 或 timeDate`);
  if (duration) {
    if (isExpression(duration)) checkExpression(`${where} timeDuration`, duration);
    else if (!ISO_DURATION.test(duration))
      throw new BpmnInvalid(`${where}: timeDuration 应为 ISO 8601 时长, 如 PT1H`);
  }
  if (date) {
    if (isExpression(date)) checkExpression(`${where} timeDate`, date);
    else if (Number.isNaN(Date.parse(date))) throw new BpmnInvalid(`${where}: timeDate 应为 ISO 8601 时间`);
  }
}

/** The elements of a process and of its sub-processes, at any depth. */
function* allElements(elements: readonly Element[]): Generator<Element> {
  for (const element of elements) {
    yield element;
    if (element.flowElements) yield* allElements(element.flowElements);
  }
}

/** An extension attribute by its local name, whatever prefix the modeler used (flowable:, activiti:, camunda:). */
function attribute(element: Element, local: string): string | undefined {
  for (const [name, value] of Object.entries(element.$attrs ?? {})) {
    if (name === local || name.endsWith(`:${local}`)) return value.trim() || undefined;
  }
  return undefined;
}

function checkExpression(where: string, text: string | undefined) {
  if (!isExpression(text)) return;
  try {
    evaluate(text, {});
  } catch (error) {
    throw new BpmnInvalid(`${where}: ${(error as ExpressionError).message}`);
  }
}

/**
 * Reads a BPMN 2.0 file as bpmn-moddle does, and checks what the engine needs: one executable
 * process with a start event, readable expressions, and a document the engine can load.
 */
export async function parseBpmn(xml: string): Promise<ParsedProcess> {
  try {
    return await readProcess(xml);
  } catch (error) {
    // Whatever the libraries throw on a file they cannot read is the file's fault, said as they say it.
    if (error instanceof BpmnInvalid) throw error;
    throw new BpmnInvalid((error as Error).message?.split("\n")[0] || "无法解析");
  }
}

async function readProcess(xml: string): Promise<ParsedProcess> {
  let root: Element | undefined;
  try {
    const parsed = await new BpmnModdle().fromXML(xml);
    const warning = parsed.warnings[0];
    if (warning) throw new BpmnInvalid(warning.message);
    root = parsed.rootElement as unknown as Element;
  } catch (error) {
    if (error instanceof BpmnInvalid) throw error;
    throw new BpmnInvalid((error as Error).message.split("\n")[0] ?? "无法解析");
  }
  if (root?.$type !== "bpmn:Definitions") throw new BpmnInvalid("根元素不是 bpmn:definitions");
  const processes = ((root as unknown as { rootElements?: Element[] }).rootElements ?? []).filter(
    (e) => e.$type === "bpmn:Process" && e.isExecutable !== false,
  );
  if (processes.length !== 1)
    throw new BpmnInvalid(`应包含且仅包含一个可执行流程, 实际 ${processes.length} 个`);
  const process = processes[0]!;
  if (!process.id || !/^[A-Za-z_][\w.-]{0,127}$/.test(process.id)) {
    throw new BpmnInvalid(`流程 id 无效: ${process.id ?? ""}`);
  }
  const elements = process.flowElements ?? [];
  if (!elements.some((e) => e.$type === "bpmn:StartEvent")) throw new BpmnInvalid("流程缺少开始事件");
  const userTasks: Record<string, UserTaskConfig> = {};
  for (const element of allElements(elements)) {
    for (const definition of element.eventDefinitions ?? []) {
      if (definition.$type === "bpmn:TimerEventDefinition") checkTimer(element, definition);
    }
    if (element.$type === "bpmn:SequenceFlow") {
      checkExpression(`sequenceFlow ${element.id}`, element.conditionExpression?.body);
    }
    if (element.$type !== "bpmn:UserTask" || !element.id) continue;
    const config: UserTaskConfig = { name: element.name ?? element.id };
    for (const key of ["assignee", "candidateUsers", "candidateGroups"] as const) {
      const value = attribute(element, key);
      checkExpression(`userTask ${element.id} ${key}`, value);
      if (value) config[key] = value;
    }
    userTasks[element.id] = config;
  }
  try {
    await new Engine({ source: xml }).getDefinitions();
  } catch (error) {
    throw new BpmnInvalid((error as Error).message);
  }
  return {
    key: process.id,
    name: (process.name ?? process.id).slice(0, 255),
    description: (process.documentation?.[0]?.text ?? "").slice(0, 1000),
    userTasks,
  };
}

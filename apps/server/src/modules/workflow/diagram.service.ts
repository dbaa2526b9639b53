import { BpmnModdle } from "bpmn-moddle";
import { notFound } from "../../contract/errors.ts";
import type { Queryable } from "../../db/client.ts";

/**
 * What the console's diagram viewer draws for an instance (contract §13.3 diagram-view, which the
 * family answers with a PNG): the definition's BPMN XML and the ids of the nodes already passed
 * (start events, completed user tasks, the end reached) and of the nodes waiting now (open user
 * tasks). JSON, because the console renders the XML itself and marks the nodes by id.
 */
export interface InstanceDiagram {
  processInstanceId: string;
  processDefinitionId: string;
  finished: boolean;
  bpmnXml: string;
  doneActivityIds: string[];
  currentActivityIds: string[];
}

/** The start events of the XML: history records a start under a generic id, the diagram needs the element's. */
async function startEventIds(xml: string): Promise<string[]> {
  const { rootElement } = await new BpmnModdle().fromXML(xml);
  const ids: string[] = [];
  const roots = (rootElement as unknown as { rootElements?: { $type: string; flowElements?: unknown[] }[] })
    .rootElements;
  for (const root of roots ?? []) {
    if (root.$type !== "bpmn:Process") continue;
    for (const element of (root.flowElements ?? []) as { $type: string; id?: string }[]) {
      if (element.$type === "bpmn:StartEvent" && element.id) ids.push(element.id);
    }
  }
  return ids;
}

/** tenantId null: the platform administrator, who may look at any tenant's instance. */
export async function instanceDiagram(
  db: Queryable,
  tenantId: string | null,
  instanceId: string,
): Promise<InstanceDiagram> {
  const [instance] = await db.query<{ definition_id: string; status: string; bpmn_xml: string }>(
    `select i.definition_id, i.status, f.bpmn_xml from wf_instance i join wf_definition f on f.id = i.definition_id
      where i.id = $1 and ($2::text is null or i.tenant_id = $2)`,
    [instanceId, tenantId],
  );
  if (!instance) throw notFound("processInstanceId: 流程实例不存在");
  const steps = await db.query<{ activity_id: string; state: string }>(
    `select task_key as activity_id, state from wf_task where instance_id = $1
     union all
     select activity_id, 'completed' from wf_history where instance_id = $1 and activity_type = 'endEvent'`,
    [instanceId],
  );
  const current = new Set(steps.filter((s) => s.state === "open").map((s) => s.activity_id));
  // A task sent back to and waiting again is current, not done.
  const done = new Set(
    steps.filter((s) => s.state === "completed" && !current.has(s.activity_id)).map((s) => s.activity_id),
  );
  for (const id of await startEventIds(instance.bpmn_xml)) done.add(id);
  return {
    processInstanceId: instanceId,
    processDefinitionId: instance.definition_id,
    finished: instance.status !== "running",
    bpmnXml: instance.bpmn_xml,
    doneActivityIds: [...done],
    currentActivityIds: [...current],
  };
}

/** The XML of a definition the tenant may see (its own or a common one); null tenant: any. */
export async function definitionXml(db: Queryable, tenantId: string | null, definitionId: string) {
  const [row] = await db.query<{ bpmn_xml: string; resource_name: string }>(
    `select bpmn_xml, resource_name from wf_definition
      where id = $1 and ($2::text is null or tenant_id in ('', $2))`,
    [definitionId, tenantId],
  );
  if (!row) throw notFound("processDefinitionId: 流程不存在");
  return row;
}

import type { Row } from "@meterline/api-client";
import { type Page, resourceBase, resources } from "@meterline/contracts";
import { api } from "../../app/api.ts";

const flow = "/api/blade-flow";

/** A process model as the model list answers it (contract §13.4) with its category. */
export interface ModelItem {
  id: string;
  tenantId: string;
  name: string;
  modelKey: string;
  category: string;
  description: string;
  version: number;
  lastUpdated: string;
  lastUpdatedBy: string;
}

export interface ModelDetail extends ModelItem {
  bpmnXml: string;
}

export const modelListPath = `${flow}/model/list`;

export const loadModels = (query: { current: number; size: number; name?: string }) =>
  api.get<Page<ModelItem>>(modelListPath, query);

export const loadModel = (id: string) => api.get<ModelDetail>(`${flow}/model/detail`, { id });

/** Creates a model (no id) or saves over one; answers the model's id. */
export const saveModel = (body: { id?: string; bpmnXml: string; name?: string; category?: string }) =>
  api.post<{ id: string }>(`${flow}/model/submit`, body);

export const removeModels = (ids: string) => api.post<unknown>(`${flow}/model/remove`, undefined, { ids });

/** Deploys a model for the tenants given (none: the caller's own, or common for the platform). */
export const deployModel = (modelId: string, category: string, tenantIds: string[]) =>
  api.post<string[]>(`${flow}/model/deploy`, { modelId, category, tenantIds: tenantIds.join(",") });

/** What the diagram viewer draws for an instance: the XML and the node ids to mark. */
export interface InstanceDiagram {
  processInstanceId: string;
  processDefinitionId: string;
  finished: boolean;
  bpmnXml: string;
  doneActivityIds: string[];
  currentActivityIds: string[];
}

export const loadInstanceDiagram = (processInstanceId: string, tenantId?: string) =>
  api.get<InstanceDiagram>(`${flow}/process/diagram-view`, {
    processInstanceId,
    ...(tenantId ? { tenantId } : {}),
  });

/** The designer's address for a model, or for a new one. */
export const designerPath = (modelId?: string) =>
  modelId ? `/flow/model/designer?id=${encodeURIComponent(modelId)}` : "/flow/model/designer";

/** The diagram page of an instance. */
export const diagramPath = (processInstanceId: string) =>
  `/flow/diagram?processInstanceId=${encodeURIComponent(processInstanceId)}`;

/** Deployed process definitions, every version (contract §13.4 manager/list). */
export const loadDefinitions = (current: number, size: number) =>
  api.get<Page<Row>>(`${flow}/manager/list`, { current, size });

export const changeState = (processId: string, state: "active" | "suspend") =>
  api.post<unknown>(`${flow}/manager/change-state`, undefined, { processId, state });

/** Deletes deployments; with `cascade` their running instances go too (refused otherwise). */
export const deleteDeployment = (deploymentIds: string, cascade: boolean) =>
  api.post<unknown>(`${flow}/manager/delete-deployment`, undefined, {
    deploymentIds,
    ...(cascade ? { cascade: "true" } : {}),
  });

/**
 * Uploads BPMN files for a category and tenants. Silent: the form shows the server's reason (a
 * parser error names the file) under the field it concerns instead of a toast.
 */
export const deployFiles = (category: string, tenantIds: readonly string[], files: readonly File[]) => {
  const body = new FormData();
  body.append("category", category);
  body.append("tenantIds", tenantIds.join(","));
  for (const file of files) body.append("files", file, file.name);
  return api.request(`${flow}/manager/deploy-upload`, { method: "POST", body, silent: true });
};

/** Running instances (contract §13.4 follow/list). */
export const loadRunning = (current: number, size: number) =>
  api.get<Page<Row>>(`${flow}/follow/list`, { current, size });

export const deleteInstance = (processInstanceId: string, deleteReason: string) =>
  api.post<unknown>(`${flow}/follow/delete-process-instance`, undefined, { processInstanceId, deleteReason });

/** The tenants a platform administrator may deploy to. */
export const loadTenants = () => api.get<Row[]>(`${resourceBase(resources.tenant)}/select`);

/** A deployed definition's BPMN XML (contract §13.3 resource-view; signed in, own tenant). */
export const loadDefinitionXml = async (processDefinitionId: string) =>
  String(
    await api.request(
      `${flow}/process/resource-view?${new URLSearchParams({ processDefinitionId, resourceType: "xml" })}`,
    ),
  );

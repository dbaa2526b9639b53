import type { Row } from "@meterline/api-client";
import type { Page } from "@meterline/contracts";
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

/** Tenants to deploy for (the platform administrator's choice). */
export const loadTenants = () => api.get<Row[]>("/api/blade-system/tenant/select");

/** The designer's address for a model, or for a new one. */
export const designerPath = (modelId?: string) =>
  modelId ? `/flow/model/designer?id=${encodeURIComponent(modelId)}` : "/flow/model/designer";

/** The diagram page of an instance. */
export const diagramPath = (processInstanceId: string) =>
  `/flow/diagram?processInstanceId=${encodeURIComponent(processInstanceId)}`;

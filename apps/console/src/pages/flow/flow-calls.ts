import type { Row } from "@meterline/api-client";
import { type Page, resourceBase, resources } from "@meterline/contracts";
import { api } from "../../app/api.ts";

const flow = "/api/blade-flow";

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

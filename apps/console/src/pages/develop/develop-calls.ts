import { codeScreen, datasourceScreen, resourceBase } from "@meterline/contracts";
import { api } from "../../app/api.ts";
import { withToken } from "../../app/download.ts";

const datasource = resourceBase(datasourceScreen);
const code = resourceBase(codeScreen);

export interface DatasourceOption {
  id: string;
  name: string;
  url: string;
}

/** Every data source, for the definition form's picker. */
export const datasourceOptions = () => api.get<DatasourceOption[]>(`${datasource}/select`);

/** Tries a stored data source; the server answers its PostgreSQL version, or why it failed. */
export const testConnection = (id: string) =>
  api.post<{ version: string }>(`${datasource}/test-connection`, undefined, { id });

/** Duplicates a definition as `<codeName>-copy`. */
export const copyCode = (id: string) => api.post<unknown>(`${code}/copy`, undefined, { id });

/**
 * Generates the definitions' code and hands the zip to the browser; a refusal (a clash with an
 * existing resource, a missing table) is thrown with the server's reason.
 */
export async function downloadGenerated(ids: readonly string[]): Promise<void> {
  const response = await fetch(withToken(`${code}/gen-code`, { ids: ids.join(","), system: "saber" }));
  if (!response.ok || !response.headers.get("content-type")?.includes("zip")) {
    const answer = (await response.json().catch(() => ({}))) as { msg?: string };
    throw new Error(answer.msg || response.statusText);
  }
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement("a");
  link.href = url;
  link.download = "meterline-code.zip";
  document.body.appendChild(link);
  link.click();
  link.remove();
  // The click has started the download; the object URL is not needed afterwards.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

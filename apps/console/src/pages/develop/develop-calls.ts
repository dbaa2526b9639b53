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

/** The download address of the zip the definitions generate. */
export const genCodeUrl = (ids: readonly string[]) =>
  withToken(`${code}/gen-code`, { ids: ids.join(","), system: "saber" });

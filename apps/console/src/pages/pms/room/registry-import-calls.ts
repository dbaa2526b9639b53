import { resourceBase, resources } from "@meterline/contracts";
import { withToken } from "../../../app/download.ts";
import { sendSheet } from "../../../components/import/send-sheet.ts";

const base = resourceBase(resources.room);

/** The server refuses registry sheets above 10 MB (pms-import/import-columns.ts). */
export const REGISTRY_IMPORT_MAX_BYTES = 10 * 1024 * 1024;

/** Rows an import makes (or would make) per kind; `links` counts owner-room and room-meter links. */
export interface RegistryCreates {
  areas: number;
  rooms: number;
  owners: number;
  meters: number;
  waters: number;
  links: number;
  /** Metering nodes and the meters listed under them, from the topology sheets. */
  nodes?: number;
  nodeMeters?: number;
  /** Collectors the 采集器 sheet creates; present only for a file with that sheet. */
  collectors?: number;
}

/** What importing a sheet would do (room/import-preview); `problems` are the first rejected rows. */
export interface RegistryImportPreview {
  total: number;
  valid: number;
  rejected: number;
  creates: RegistryCreates;
  /** `sheet` names a topology or the collector sheet (计量节点, 节点下级表, 采集器); absent for the room sheet. */
  problems: { row: number; reason: string; sheet?: string }[];
  /** Codes of the 采集器 sheet the tenant already has: left as they are. */
  existingCollectors?: string[];
}

/** What an import did (room/import); `rejectedFile` links a sheet of the rejected rows with reasons. */
export interface RegistryImportResult {
  total: number;
  imported: number;
  /** Imported rows whose every part existed already (the same rows imported again). */
  unchanged?: number;
  rejected: number;
  creates: RegistryCreates;
  rejectedFile: string;
  existingCollectors?: string[];
}

/** The server reads and checks the whole sheet (up to 10 000 rows) before it answers. */
const IMPORT_TIMEOUT_MS = 300_000;

const upload = <T>(verb: string, file: File, onProgress: (percent: number) => void) =>
  sendSheet<T>({ url: `${base}/${verb}`, timeoutMs: IMPORT_TIMEOUT_MS }, file, onProgress);

/** Sends the sheet to be checked; nothing is written. */
export const previewRegistryImport = (file: File, onProgress: (percent: number) => void) =>
  upload<RegistryImportPreview>("import-preview", file, onProgress);

/** Imports the sheet's good rows in one go. */
export const runRegistryImport = (file: File, onProgress: (percent: number) => void) =>
  upload<RegistryImportResult>("import", file, onProgress);

/** The download link of the template; it needs the token like every export. */
export const registryTemplateUrl = () => withToken(`${base}/import-template`);

export const CREATE_KINDS = [
  "collectors",
  "areas",
  "rooms",
  "owners",
  "meters",
  "waters",
  "links",
  "nodes",
  "nodeMeters",
] as const;

import { api } from "../../app/api.ts";
import { withToken } from "../../app/download.ts";
import { sendSheet } from "../../components/import/send-sheet.ts";

const base = "/api/blade-system/region";

/** The country: the root every region descends from (contract §10.8). */
export const ROOT_CODE = "00";

/** A region as lazy-list and detail answer it. */
export interface Region {
  code: string;
  parentCode: string;
  ancestors: string;
  name: string;
  regionLevel: number;
  sort: number;
  remark: string;
  hasChildren: boolean;
  parentName?: string;
}

export interface RegionNode {
  id: string;
  title: string;
  hasChildren: boolean;
}

export interface RegionPage {
  records: Region[];
  total: number;
}

export interface RegionImportResult {
  created: number;
  updated: number;
  rejected: number;
  errors: string[];
}

export const regionChildren = (parentCode: string) =>
  api.get<RegionNode[]>(`${base}/lazy-tree`, { parentCode });
export const regionLevel = (parentCode: string) => api.get<Region[]>(`${base}/lazy-list`, { parentCode });
export const searchRegions = (name: string, current: number, size: number) =>
  api.get<RegionPage>(`${base}/list`, { name, current, size });
export const regionDetail = (code: string) => api.get<Region>(`${base}/detail`, { code });
export const submitRegion = (body: {
  code: string;
  parentCode: string;
  name: string;
  sort: number;
  remark: string;
}) => api.post<unknown>(`${base}/submit`, body);
export const removeRegion = (code: string) => api.post<unknown>(`${base}/remove`, undefined, { id: code });

/** The download of a region and everything under it. */
export const exportRegionUrl = (code: string) =>
  withToken(`${base}/export-region`, code === ROOT_CODE ? {} : { code });
export const regionTemplateUrl = () => withToken(`${base}/export-template`);

/** The server reads the whole sheet before it answers. */
const IMPORT_TIMEOUT_MS = 180_000;

export const importRegions = (file: File, onProgress: (percent: number) => void) =>
  sendSheet<RegionImportResult>(
    { url: `${base}/import-region`, timeoutMs: IMPORT_TIMEOUT_MS },
    file,
    onProgress,
  );

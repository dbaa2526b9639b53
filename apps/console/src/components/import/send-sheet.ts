import { uploadingApi } from "../../app/api.ts";

/** Where a sheet goes: the import's address, how long the server may take, and query parameters. */
export interface SheetTarget {
  url: string;
  /** The server reads the whole sheet before it answers: imports wait longer than a normal call. */
  timeoutMs: number;
  /** Options travel in the query: the server reads the file part as a stream and no other fields. */
  query?: Record<string, string | number>;
}

/** Sends a workbook as the multipart `file` every import reads, reporting the share sent. */
export function sendSheet<T>(target: SheetTarget, file: File, onProgress: (percent: number) => void) {
  const form = new FormData();
  form.append("file", file, file.name);
  return uploadingApi(onProgress, target.timeoutMs).post<T>(target.url, form, target.query);
}

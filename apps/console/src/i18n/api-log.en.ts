import type { apiLogZh } from "./api-log.zh.ts";

/** English words of the API log's titles; same keys as the Chinese. */
export const apiLogEn: Record<keyof typeof apiLogZh, string> = {
  "apiLog.verb.list": "List",
  "apiLog.verb.detail": "Detail",
  "apiLog.verb.save": "Save",
  "apiLog.verb.remove": "Remove",
  "apiLog.verb.export": "Export",
  "apiLog.verb.import": "Import",
};

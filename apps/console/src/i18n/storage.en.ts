import type { storageZh } from "./storage.zh.ts";

/** Strings of the object storage and attachment screens. */
export const storageEn: Record<keyof typeof storageZh, string> = {
  "menu.oss": "Object storage",
  "menu.attach": "Attachments",
  "oss.enable": "Enable",
  "oss.isEnabled": "Enabled",
  "oss.status": "Status",
  "oss.notEnabled": "Not enabled",
  "oss.enabled": "Storage enabled: new uploads are stored here",
  "oss.localHint": "Local disk needs no address or keys: files are kept in the server's data directory",
  "attach.upload": "Upload attachment",
  "attach.uploaded": "Uploaded {name}",
  "attach.download": "Download",
  "attach.sizeLimit": "An attachment cannot exceed 10 MB",
};

import { resourceBase, resources } from "@meterline/contracts";
import { api } from "../../app/api.ts";

/** Makes this configuration the tenant's storage; the server tests it first and refuses one it cannot reach. */
export const enableOss = (id: string) =>
  api.post<unknown>(`${resourceBase(resources.oss)}/enable`, undefined, { id });

/** Uploads one file as an attachment (contract §12.1 put-file-attach). */
export function uploadAttachment(file: File) {
  const form = new FormData();
  form.append("file", file, file.name);
  return api.post<{ attachId: string; link: string; originalName: string }>(
    "/api/blade-resource/oss/endpoint/put-file-attach",
    form,
  );
}

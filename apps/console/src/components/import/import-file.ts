import type { MessageKey, Vars } from "../../i18n/index.tsx";

/** Why a picked file cannot be imported, as a message key and its values. */
export interface ImportFileProblem {
  key: MessageKey;
  vars?: Vars;
}

/**
 * Only Excel workbooks (.xlsx) up to the server's limit can be imported; checking here saves a
 * useless upload and says why at once.
 */
export function importFileProblem(
  file: { name: string; size: number },
  maxBytes: number,
): ImportFileProblem | null {
  if (!file.name.toLowerCase().endsWith(".xlsx")) return { key: "import.type" };
  if (file.size > maxBytes) return { key: "import.size", vars: { mb: Math.floor(maxBytes / 1024 / 1024) } };
  return null;
}

/**
 * The leave process's three addresses (spec §2). A process category names its route key through
 * the `flow` dictionary (flow_1 → "leave"), so the lists build these from the key they read.
 */
export type LeavePage = "form" | "handle" | "detail";

const part = (value: string) => encodeURIComponent(value).replace(/%3A/gi, ":");

export const formPath = (route: string, processDefinitionId: string) =>
  `/work/process/${route}/form/${part(processDefinitionId)}`;

export const handlePath = (route: string, taskId: string, processInstanceId: string, businessId: string) =>
  `/work/process/${route}/handle/${part(taskId)}/${part(processInstanceId)}/${part(businessId)}`;

export const detailPath = (route: string, processInstanceId: string, businessId: string) =>
  `/work/process/${route}/detail/${part(processInstanceId)}/${part(businessId)}`;

const patterns: Record<LeavePage, RegExp> = {
  form: /^\/work\/process\/leave\/form\/([^/]+)$/,
  handle: /^\/work\/process\/leave\/handle\/([^/]+)\/([^/]+)\/([^/]+)$/,
  detail: /^\/work\/process\/leave\/detail\/([^/]+)\/([^/]+)$/,
};

/** Which leave page a path is and its parameters in order, or null for any other path. */
export function parseLeavePath(path: string): { page: LeavePage; params: string[] } | null {
  for (const page of ["form", "handle", "detail"] as const) {
    const match = patterns[page].exec(path);
    if (match) return { page, params: match.slice(1).map((value) => decodeURIComponent(value)) };
  }
  return null;
}

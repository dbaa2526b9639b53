/**
 * The pages of the money approval process (MoneyApproval, category flow_3 → route key "money" in
 * the `flow` dictionary): handle and detail, at the addresses the work lists build for any route
 * (leave-paths.ts). It has no form page: the money module starts it, never a person.
 */
export type MoneyApprovalPage = "handle" | "detail";

const patterns: Record<MoneyApprovalPage, RegExp> = {
  handle: /^\/work\/process\/money\/handle\/([^/]+)\/([^/]+)\/([^/]+)$/,
  detail: /^\/work\/process\/money\/detail\/([^/]+)\/([^/]+)$/,
};

/** Which money approval page a path is and its parameters in order, or null for any other path. */
export function parseMoneyApprovalPath(path: string): { page: MoneyApprovalPage; params: string[] } | null {
  for (const page of ["handle", "detail"] as const) {
    const match = patterns[page].exec(path);
    if (match) return { page, params: match.slice(1).map((value) => decodeURIComponent(value)) };
  }
  return null;
}

import type { viewsZh } from "./views.zh.ts";

/** Strings of the read-only view dialogs and the role grant's empty scope tabs. */
export const viewsEn: Record<keyof typeof viewsZh, string> = {
  "role.grantEmpty.dataScope": "No data scope rules yet",
  "role.grantEmpty.apiScope": "No API scope rules yet",
  "role.grantEmpty.goDataScope": "Add rules under Data scopes",
  "role.grantEmpty.goApiScope": "Add rules under API scopes",
  "role.grantEmpty.askDataScope":
    "Rules are added per menu under the Data scopes menu; ask an administrator who has it",
  "role.grantEmpty.askApiScope":
    "Rules are added per menu under the API scopes menu; ask an administrator who has it",
};

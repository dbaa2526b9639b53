import type { LinkedAccount } from "@meterline/contracts";
import { api } from "../../app/api.ts";

const base = "/api/blade-auth/oauth";

export const linkedAccounts = () => api.get<LinkedAccount[]>(`${base}/linked`);

/** The provider's address to send the browser to; the answer also sets the sign-in cookie. */
export const startLink = (source: string) =>
  api.post<{ url: string }>(`${base}/link-start`, undefined, { source });

export const finishLink = (source: string, code: string, state: string) =>
  api.post<unknown>(`${base}/link`, undefined, { source, code, state });

export const unlinkAccount = (id: string) => api.post<unknown>(`${base}/unlink`, undefined, { id });

import { resourceBase, resources } from "@meterline/contracts";
import { api } from "../../app/api.ts";

const base = resourceBase(resources.sms);

/** Makes this configuration the tenant's enabled one; the server switches the others off. */
export const enableSms = (id: string) => api.post<unknown>(`${base}/enable`, undefined, { id });

/** A test message through the configuration with this code (contract §12.3 send-message). */
export const sendTestMessage = (code: string, phones: string, params: string) =>
  api.post<unknown>(`${base}/endpoint/send-message`, { code, phones, params });

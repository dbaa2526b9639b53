import type { Page, RegistrationRow } from "@meterline/contracts";
import { api } from "../../app/api.ts";

const base = "/api/blade-user/registration";

/** The tenant's applications, pending first; `status` "" for all. */
export const registrations = (current: number, size: number, status: string) =>
  api.get<Page<RegistrationRow>>(`${base}/page`, { current, size, ...(status ? { status } : {}) });

/** Creates the user with these roles and departments and binds the third-party identity. */
export const approveRegistration = (id: string, roleId: string, deptId: string) =>
  api.post<unknown>(`${base}/approve`, undefined, { id, roleId, deptId });

export const rejectRegistration = (id: string, reason: string) =>
  api.post<unknown>(`${base}/reject`, undefined, { id, reason });

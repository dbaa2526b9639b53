import type { MessageKey } from "../i18n/index.tsx";

export interface RegistrationForm {
  tenantId: string;
  name: string;
  account: string;
  password: string;
  password2: string;
}

/**
 * The checks of spec §5 in their order; the first failing one is shown as a warning.
 * Returns null when the form may be submitted.
 */
export function registrationProblem(form: RegistrationForm): MessageKey | null {
  if (!form.tenantId.trim()) return "register.tenantRequired";
  if (!form.account.trim()) return "register.accountRequired";
  if (!form.password || !form.password2) return "register.passwordRequired";
  if (form.password !== form.password2) return "register.passwordMismatch";
  return null;
}

/** An unbound third-party login: no user id, or a negative one (spec §4 Guest). */
export function isGuest(userId: string | undefined): boolean {
  return !userId || Number(userId) < 0;
}

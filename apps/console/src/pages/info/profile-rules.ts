import type { MessageKey } from "../../i18n/index.tsx";

/** The spec §5 phone helper: empty, then length, then format, each with its own message. */
export function phoneProblem(phone: string | undefined): MessageKey | null {
  const value = (phone ?? "").trim();
  if (value === "") return "info.phoneRequired";
  if (value.length !== 11) return "info.phoneLength";
  if (!/^1[3-9]\d{9}$/.test(value)) return "info.phoneFormat";
  return null;
}

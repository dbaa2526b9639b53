import type { MessageKey } from "../../i18n/index.tsx";

/**
 * The spec §5 phone helper: empty, then length, then format, each with its own message. An
 * `optional` phone may stay empty (an account that never had one still saves its nickname).
 */
export function phoneProblem(
  phone: string | undefined,
  options: { optional?: boolean } = {},
): MessageKey | null {
  const value = (phone ?? "").trim();
  if (value === "") return options.optional ? null : "info.phoneRequired";
  if (value.length !== 11) return "info.phoneLength";
  if (!/^1[3-9]\d{9}$/.test(value)) return "info.phoneFormat";
  return null;
}

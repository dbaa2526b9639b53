import { isApiError } from "@meterline/api-client";

/**
 * The field a server refusal names and its reason: bad input answers 400 with "field: reason"
 * (design §5), so the form can show the reason under that field as well as in the toast.
 */
export function serverFieldError(
  error: unknown,
  fields: Readonly<Record<string, unknown>>,
): { name: string; reason: string } | null {
  if (!isApiError(error) || error.kind !== "http") return null;
  const match = /^([a-zA-Z][a-zA-Z0-9]*): ([\s\S]+)$/.exec(error.message);
  if (!match || !Object.hasOwn(fields, match[1]!)) return null;
  return { name: match[1]!, reason: match[2]! };
}

import type { MessageKey } from "../../i18n/index.tsx";

/** The server refuses user import files above 5 MB; checking here saves a useless upload. */
export const USER_IMPORT_MAX_BYTES = 5 * 1024 * 1024;

/**
 * A user's platform settings are empty or a JSON object (the server reads them back by key), so
 * a typing mistake is caught before the call with its own message.
 */
export function userExtProblem(text: string | undefined): MessageKey | null {
  const value = (text ?? "").trim();
  if (value === "") return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return "user.userExtJson";
  }
  return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? null : "user.userExtObject";
}

/** Stored settings shown indented for editing; text that is not JSON is shown as it is. */
export function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

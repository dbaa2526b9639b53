import type { FormInstance } from "antd";

/**
 * antd's validateFields rejects with `{ errorFields, values, outOfDate }` when a field is invalid:
 * the form already shows why under the field, so it is neither an error nor worth a log entry.
 */
export function isValidationFailure(reason: unknown): boolean {
  return (
    typeof reason === "object" &&
    reason !== null &&
    Array.isArray((reason as { errorFields?: unknown }).errorFields)
  );
}

/** The form's values once every field passes, or null when some did not (the form shows which). */
export async function validatedValues<T>(form: FormInstance<T>): Promise<T | null> {
  try {
    return await form.validateFields();
  } catch (reason) {
    if (isValidationFailure(reason)) return null;
    throw reason;
  }
}

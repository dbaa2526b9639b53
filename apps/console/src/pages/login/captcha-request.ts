import { isApiError } from "@meterline/api-client";

/** The token endpoint's error when an account with many failed sign-ins may go on only with a captcha. */
export const CAPTCHA_REQUIRED = "captcha_required";

/** Whether a failed sign-in asks the login page to show a captcha from now on. */
export const asksForCaptcha = (error: unknown): boolean =>
  isApiError(error) && (error.body as { error?: unknown } | undefined)?.error === CAPTCHA_REQUIRED;

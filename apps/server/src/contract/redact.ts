/**
 * Query parameters whose values never reach a log: passwords, tokens (an IoT platform's push URL
 * carries one), stored secrets and file-link signatures.
 */
const SECRET_PARAMS =
  /([?&](?:password|oldPassword|newPassword1?|refresh_token|token|blade-auth|signature|secretKey))=[^&]*/gi;

export function redactUrl(url: string): string {
  return url.replace(SECRET_PARAMS, "$1=***");
}

/** Query parameters whose values never reach a log: passwords and tokens. */
const SECRET_PARAMS = /([?&](?:password|oldPassword|newPassword1?|refresh_token|blade-auth))=[^&]*/gi;

export function redactUrl(url: string): string {
  return url.replace(SECRET_PARAMS, "$1=***");
}

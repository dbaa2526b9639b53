/**
 * Paths the family's consoles call where the contract has its own (contract §10.1: the open-source
 * Saber 4.x keeps the users under `/blade-system/user/*` and pages them at `list`, as BladeX's
 * `/blade-user/list` does). They are routed to the contract's calls before routing, so they answer
 * with the same guards, api scopes, logs and envelope as the calls they stand for.
 */
const USER_ALIAS = "/api/blade-system/user/";
const USER_CALLS = "/api/blade-user/";

/** Verbs whose open-source name differs from the contract's. */
const RENAMED_USER_VERBS: Readonly<Record<string, string>> = { list: "page" };

/** The contract's path of an aliased request URL (query kept), or the URL itself. */
export function familyAliasOf(url: string): string {
  const prefix = [USER_ALIAS, USER_CALLS].find((p) => url.startsWith(p));
  if (!prefix) return url;
  const rest = url.slice(prefix.length);
  const cut = rest.search(/[?#]/);
  const verb = cut === -1 ? rest : rest.slice(0, cut);
  const tail = cut === -1 ? "" : rest.slice(cut);
  if (!/^[a-z-]+$/.test(verb) || (prefix === USER_CALLS && !RENAMED_USER_VERBS[verb])) return url;
  return `${USER_CALLS}${RENAMED_USER_VERBS[verb] ?? verb}${tail}`;
}

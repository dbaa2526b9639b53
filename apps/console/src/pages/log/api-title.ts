import { type ResourceDef, resourceBase, resources } from "@meterline/contracts";
import { resourceTitle } from "../../crud/labels.ts";
import type { MessageKey } from "../../i18n/zh.ts";
import type { Language } from "../../store/state.ts";

/** What a generic resource verb does, in the reader's words. */
const VERBS: Record<string, MessageKey> = {
  list: "apiLog.verb.list",
  page: "apiLog.verb.list",
  pageNew: "apiLog.verb.list",
  select: "apiLog.verb.list",
  tree: "apiLog.verb.list",
  "tree-by-id": "apiLog.verb.list",
  "lazy-list": "apiLog.verb.list",
  "lazy-tree": "apiLog.verb.list",
  "menu-list": "apiLog.verb.list",
  "lazy-menu-list": "apiLog.verb.list",
  detail: "apiLog.verb.detail",
  submit: "apiLog.verb.save",
  save: "apiLog.verb.save",
  update: "apiLog.verb.save",
  remove: "apiLog.verb.remove",
  delete: "apiLog.verb.remove",
  export: "apiLog.verb.export",
  import: "apiLog.verb.import",
};

/** Resources by the base of their paths (`/api/blade-log/usual`). */
const byBase = new Map(
  (Object.values(resources) as ResourceDef[]).map((def) => [resourceBase(def), def] as const),
);

/**
 * The title of an API log row in the reader's language: a call of a resource's generic verb reads
 * "<resource> <verb>" (操作日志 查询, Operation logs: list); any other call keeps the title the
 * server stored with it.
 */
export function apiTitle(
  row: Record<string, unknown>,
  language: Language,
  t: (key: MessageKey) => string,
): string {
  const stored = String(row.title ?? "");
  const uri = String(row.requestUri ?? "");
  const cut = uri.lastIndexOf("/");
  const def = byBase.get(uri.slice(0, cut));
  const verb = VERBS[uri.slice(cut + 1)];
  if (!def || !verb) return stored;
  const title = resourceTitle(def, language);
  return language === "en" ? `${title}: ${t(verb).toLowerCase()}` : `${title} ${t(verb)}`;
}

import type { ButtonCode, MenuRoute } from "@meterline/contracts";

/** How a menu leaf opens: a console route, the iframe route, or a new browser window. */
export type MenuTarget = "route" | "iframe" | "window";

/** A sidebar entry after the spec §2 rules have been applied to a server MenuRoute. */
export interface MenuItem {
  id: string;
  code: string;
  /** The server's display name; the label falls back to it when `i18n` has no translation. */
  name: string;
  /** Catalogue key of the label: the menu's meta.i18n, else `menu.<code>`. */
  i18n: string;
  /** Console path to navigate to (for iframe entries `/myiframe/<code>`); the external URL for windows. */
  path: string;
  /** The external URL for iframe and window entries, "" otherwise. */
  href: string;
  target: MenuTarget;
  /** Icon name from the menu's `source`; "" means the default icon. */
  icon: string;
  query: Record<string, string>;
  keepAlive: boolean;
  children: MenuItem[];
}

/** An http(s) link, or a page path containing "html", is not a console route (spec §2). */
export function isExternalPath(path: string): boolean {
  return /^https?:\/\//i.test(path) || path.toLowerCase().includes("html");
}

/** Shown when the entry lists no roles, or one of the user's roles (spec §6). */
export function isAllowed(route: MenuRoute, roles: readonly string[]): boolean {
  const allowed = route.meta?.roles ?? [];
  return allowed.length === 0 || allowed.some((role) => roles.includes(role));
}

function routerPathOf(route: MenuRoute): string {
  return encodeURIComponent(route.code || route.id);
}

function toItem(route: MenuRoute, roles: readonly string[], topLevel: boolean): MenuItem | null {
  if (!isAllowed(route, roles)) return null;
  const children = (route.children ?? [])
    .map((child) => toItem(child, roles, false))
    .filter((item): item is MenuItem => item !== null);
  const query = route.query ?? {};
  const external = isExternalPath(route.path);
  let target: MenuTarget = "route";
  if (external) target = route.isOpen === 2 || query.target ? "window" : "iframe";
  else if (query.target) target = "window";
  let path = route.path;
  // A top-level leaf is a page of its own: it lives at '<path>/index' (spec §2).
  if (!external && topLevel && children.length === 0 && !path.endsWith("/index")) {
    path = `${path.replace(/\/$/, "")}/index`;
  }
  if (target === "iframe") path = `/myiframe/${routerPathOf(route)}`;
  return {
    id: route.id,
    code: route.code,
    name: route.name,
    i18n: route.meta?.i18n || `menu.${route.code}`,
    path,
    href: external ? route.path : "",
    target,
    icon: route.source ?? "",
    query,
    keepAlive: route.meta?.keepAlive === true || target === "iframe",
    children,
  };
}

/** Server routes → sidebar items: role filter, '/index' suffix, external targets. */
export function normalizeMenus(routes: readonly MenuRoute[], roles: readonly string[]): MenuItem[] {
  return routes.map((route) => toItem(route, roles, true)).filter((item): item is MenuItem => item !== null);
}

/** Every navigable entry, depth first. */
export function menuLeaves(items: readonly MenuItem[]): MenuItem[] {
  return items.flatMap((item) => (item.children.length ? menuLeaves(item.children) : [item]));
}

/** The leaf a console path belongs to (iframe leaves match their /myiframe path). */
export function findLeaf(items: readonly MenuItem[], path: string): MenuItem | undefined {
  return menuLeaves(items).find((leaf) => leaf.target !== "window" && leaf.path === path);
}

/** Ids of the groups containing the leaf at `path`, outermost first: the sidebar opens them. */
export function ancestorKeys(items: readonly MenuItem[], path: string): string[] {
  for (const item of items) {
    if (item.children.length && menuLeaves(item.children).some((leaf) => leaf.path === path)) {
      return [item.id, ...ancestorKeys(item.children, path)];
    }
  }
  return [];
}

/** Menu search: leaves whose label starts with the text, case-insensitively (spec §2). */
export function searchLeaves(
  items: readonly MenuItem[],
  text: string,
  labelOf: (item: MenuItem) => string,
): MenuItem[] {
  const needle = text.trim().toLowerCase();
  const leaves = menuLeaves(items);
  if (!needle) return leaves;
  return leaves.filter(
    (leaf) => labelOf(leaf).toLowerCase().startsWith(needle) || leaf.name.toLowerCase().startsWith(needle),
  );
}

/** Only http(s) or same-origin paths may be framed or opened; never javascript: or data: URLs. */
export function safeUrl(url: string): string | null {
  if (url.startsWith("/") && !url.startsWith("//")) return url;
  return /^https?:\/\//i.test(url) ? url : null;
}

/** Every leaf code of the buttons tree becomes a true flag (contract §7.3). */
export function permissionFlags(nodes: readonly ButtonCode[]): Record<string, true> {
  const flags: Record<string, true> = {};
  for (const node of nodes) {
    if (node.children?.length) Object.assign(flags, permissionFlags(node.children));
    else if (node.code) flags[node.code] = true;
  }
  return flags;
}

import { registeredPage } from "../app/pages.ts";
import { zh } from "../i18n/zh.ts";
import { detailSubject } from "../pages/detail/detail-paths.ts";
import type { Tab } from "../store/tabs.ts";
import { findLeaf, type MenuItem } from "./menu-model.ts";

/** A detail page's subject, once its page has loaded and named it. */
function subjectOf(pathname: string): { subject?: string } {
  const subject = detailSubject(pathname);
  return subject ? { subject } : {};
}

/**
 * The tab a layout location belongs to: a menu leaf (label `menu.<code>`, falling back to the
 * server name), else a registered page, else an iframe page; null for unknown paths.
 */
export function resolveTab(
  pathname: string,
  search: string,
  menuAll: readonly MenuItem[],
  menus: readonly MenuItem[] | null,
): Tab | null {
  const query = Object.fromEntries(new URLSearchParams(search));
  const leaf = findLeaf(menuAll, pathname) ?? findLeaf(menus ?? [], pathname);
  const registered = registeredPage(pathname);
  if (leaf) {
    return {
      label: leaf.name,
      value: pathname,
      params: {},
      query,
      meta: { i18n: leaf.i18n, keepAlive: leaf.keepAlive || registered?.keepAlive === true },
    };
  }
  if (registered) {
    return {
      label: zh[registered.titleKey],
      value: pathname,
      params: {},
      query,
      meta: { i18n: registered.titleKey, keepAlive: registered.keepAlive, ...subjectOf(pathname) },
    };
  }
  const iframe = pathname.match(/^\/myiframe\/([^/]+)$/);
  if (iframe?.[1]) {
    return {
      label: query.name || zh["route.iframe"],
      value: pathname,
      params: { routerPath: decodeURIComponent(iframe[1]) },
      query,
      meta: { i18n: query.name ? undefined : "route.iframe", keepAlive: true },
    };
  }
  return null;
}

import { website } from "@meterline/contracts";

export interface TabMeta {
  /** Catalogue key of the label; the stored label is the fallback. */
  i18n?: string;
  keepAlive?: boolean;
  /** Data shown after the label, the same in every language (a detail page's "2号楼 305"). */
  subject?: string;
}

/** One open page in the tag bar (spec §3 Tab). `value` is the path and the tab's identity. */
export interface Tab {
  label: string;
  value: string;
  params: Record<string, string>;
  query: Record<string, string>;
  meta: TabMeta;
  group?: string[];
  close?: boolean;
}

export const homeTab: Tab = {
  label: "首页",
  value: website.homePath,
  params: {},
  query: {},
  meta: { i18n: "route.home", keepAlive: true },
};

/** What a tab is called: its label in the user's language, then its subject when it has one. */
export function tabTitle(tab: Tab, tr: (key: string | undefined, fallback: string) => string): string {
  const label = tr(tab.meta.i18n, tab.label);
  return tab.meta.subject ? `${label} ${tab.meta.subject}` : label;
}

/** Adds the tab, or refreshes the query/label of an already open one; order is kept. */
export function openTab(tabs: readonly Tab[], tab: Tab): Tab[] {
  const index = tabs.findIndex((item) => item.value === tab.value);
  if (index < 0) return [...tabs, tab];
  const next = [...tabs];
  next[index] = tab;
  return next;
}

/** Tabs may be closed unless only one remains (spec §2). */
export function isClosable(tabs: readonly Tab[]): boolean {
  return tabs.length > 1;
}

/**
 * Closes `value`. When it was the active tab the previous one becomes active, or the first
 * when there is no previous one; `activate` is null when the active tab does not change.
 */
export function closeTab(
  tabs: readonly Tab[],
  value: string,
  activeValue: string,
): { tabs: Tab[]; activate: Tab | null } {
  const index = tabs.findIndex((item) => item.value === value);
  if (index < 0 || !isClosable(tabs)) return { tabs: [...tabs], activate: null };
  const remaining = tabs.filter((item) => item.value !== value);
  if (value !== activeValue) return { tabs: remaining, activate: null };
  return { tabs: remaining, activate: remaining[index - 1] ?? remaining[0] ?? homeTab };
}

/** Keeps the active tab and the home tab. */
export function closeOtherTabs(tabs: readonly Tab[], activeValue: string): Tab[] {
  const kept = tabs.filter((item) => item.value === activeValue || item.value === homeTab.value);
  return kept.length ? kept : [homeTab];
}

export function closeAllTabs(): Tab[] {
  return [homeTab];
}

/** Case-insensitive substring filter over labels and paths, for the tag dropdown's search box. */
export function filterTabs(tabs: readonly Tab[], text: string, labelOf: (tab: Tab) => string): Tab[] {
  const needle = text.trim().toLowerCase();
  if (!needle) return [...tabs];
  return tabs.filter(
    (tab) => labelOf(tab).toLowerCase().includes(needle) || tab.value.toLowerCase().includes(needle),
  );
}

/** Path plus the tab's query, to navigate back to it. */
export function tabHref(tab: Tab): string {
  const query = new URLSearchParams(tab.query).toString();
  return query ? `${tab.value}?${query}` : tab.value;
}

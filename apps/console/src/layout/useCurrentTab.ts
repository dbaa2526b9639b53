import { useEffect, useMemo } from "react";
import { useLocation } from "react-router";
import { useDocumentTitle } from "../app/useDocumentTitle.ts";
import { useI18n } from "../i18n/index.tsx";
import { store } from "../store/store.ts";
import { openTab, type Tab, tabTitle } from "../store/tabs.ts";
import { useConsole } from "../store/useConsole.ts";
import { resolveTab } from "./current-tab.ts";

/** Opens (or refreshes) the tab of the current location and makes it the page title. */
export function useCurrentTab(): Tab | null {
  const { pathname, search } = useLocation();
  const menuAll = useConsole((state) => state.menuAll);
  const menus = useConsole((state) => state.menus);
  const { tr } = useI18n();
  const tab = useMemo(() => resolveTab(pathname, search, menuAll, menus), [pathname, search, menuAll, menus]);

  useEffect(() => {
    if (tab) store.setState((state) => ({ tabs: openTab(state.tabs, tab) }));
  }, [tab]);

  // The open tab may have learnt more since (a detail page names its subject once loaded).
  const shown = useConsole((state) => state.tabs.find((item) => item.value === tab?.value)) ?? tab;
  useDocumentTitle(shown ? tabTitle(shown, tr) : "");
  return tab;
}

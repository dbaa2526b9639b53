import { Layout } from "antd";
import { lazy, Suspense, useCallback, useEffect, useState } from "react";
import { useConsole } from "../store/useConsole.ts";
import { KeepAliveOutlet } from "./KeepAliveOutlet.tsx";
import { Sidebar } from "./Sidebar.tsx";
import { startTypeahead } from "./search-typeahead.ts";
import { TagBar } from "./TagBar.tsx";
import { TopBar } from "./TopBar.tsx";
import { useCurrentTab } from "./useCurrentTab.ts";
import { useNavigationLoader } from "./useNavigationLoader.ts";
import { useScreenClass } from "./useScreenClass.ts";

// The menu search (antd's Modal and Input) loads when it is first opened, not with every page.
const MenuSearch = lazy(() => import("./MenuSearch.tsx").then((m) => ({ default: m.MenuSearch })));

/** True from the first time `open` is true on. */
function useWanted(open: boolean): boolean {
  const [wanted, setWanted] = useState(open);
  useEffect(() => {
    if (open) setWanted(true);
  }, [open]);
  return wanted || open;
}

/** Ctrl+K / Cmd+K opens the menu search from anywhere in the layout. */
function useSearchShortcut(open: () => void): void {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "k") {
        event.preventDefault();
        open();
      }
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, [open]);
}

/** The layout shell: sidebar, header, tag bar, page area and menu search (spec §2). */
export default function Shell() {
  const theme = useConsole((state) => state.theme);
  const screen = useConsole((state) => state.screen);
  const collapsed = useConsole((state) => state.collapsed);
  const [searchOpen, setSearchOpen] = useState(false);
  // Mounted from the first opening on (then kept, so it closes with its animation).
  const searchWanted = useWanted(searchOpen);
  useScreenClass();
  useNavigationLoader();
  const openSearch = useCallback(() => {
    // What is typed before the search's code has loaded and its box has focus is kept for it.
    startTypeahead(() => setSearchOpen(false));
    setSearchOpen(true);
  }, []);
  useSearchShortcut(openSearch);
  const current = useCurrentTab();

  const classes = ["ml-shell", theme, `screen-${screen}`, collapsed ? "is-collapsed" : ""].join(" ");
  return (
    <Layout className={classes} data-testid="layout">
      <Sidebar />
      <Layout className="ml-main">
        <Layout.Header className="ml-header">
          <TopBar onSearch={openSearch} />
        </Layout.Header>
        <TagBar />
        <Layout.Content className="ml-content">
          <KeepAliveOutlet current={current} />
        </Layout.Content>
      </Layout>
      {searchWanted ? (
        <Suspense fallback={null}>
          <MenuSearch open={searchOpen} onClose={() => setSearchOpen(false)} />
        </Suspense>
      ) : null}
    </Layout>
  );
}

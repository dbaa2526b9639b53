import { type ReactNode, useRef } from "react";
import { useLocation, useOutlet } from "react-router";
import type { Tab } from "../store/tabs.ts";
import { useConsole } from "../store/useConsole.ts";

/**
 * Renders the current page. Pages of keep-alive tabs stay mounted but hidden while another tab is
 * shown, so their state (forms, scroll, iframes) survives tab switches; closing the tab drops them.
 */
export function KeepAliveOutlet({ current }: { current: Tab | null }) {
  const outlet = useOutlet();
  const { pathname } = useLocation();
  const tabs = useConsole((state) => state.tabs);
  const cache = useRef(new Map<string, ReactNode>());
  const keepAlive = current?.value === pathname && current.meta.keepAlive === true;
  // Once cached, a page stays the cached instance even if its tab meta changes (menus arriving).
  const live = !keepAlive && !cache.current.has(pathname);

  for (const key of cache.current.keys()) {
    if (key !== pathname && !tabs.some((tab) => tab.value === key)) cache.current.delete(key);
  }
  // The first render of a kept page is cached; later renders reuse it so it is never remounted.
  if (keepAlive && !cache.current.has(pathname)) cache.current.set(pathname, outlet);

  return (
    <>
      {[...cache.current].map(([key, node]) => (
        <div key={key} className="ml-page" hidden={key !== pathname} data-page={key}>
          {node}
        </div>
      ))}
      {live ? (
        <div key={pathname} className="ml-page" data-page={pathname}>
          {outlet}
        </div>
      ) : null}
    </>
  );
}

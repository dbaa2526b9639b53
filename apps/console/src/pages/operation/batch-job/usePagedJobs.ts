export { type Paged, usePaged } from "../../../components/usePaged.ts";

import { useEffect, useRef } from "react";

/** Calls `tick` every `ms` while `active` and the page is visible (e.g. while a job runs). */
export function useVisibleInterval(active: boolean, ms: number, tick: () => void) {
  const latestTick = useRef(tick);
  latestTick.current = tick;
  useEffect(() => {
    if (!active) return;
    let timer: ReturnType<typeof setInterval> | undefined;
    const start = () => {
      clearInterval(timer);
      if (document.visibilityState === "visible") timer = setInterval(() => latestTick.current(), ms);
    };
    start();
    document.addEventListener("visibilitychange", start);
    return () => {
      clearInterval(timer);
      document.removeEventListener("visibilitychange", start);
    };
  }, [active, ms]);
}

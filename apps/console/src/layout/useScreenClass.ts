import { website } from "@meterline/contracts";
import { useEffect } from "react";
import type { ScreenClass } from "../store/state.ts";
import { store } from "../store/store.ts";

/** 0 below 768 px, 1 below 992, 2 below 1200, else 3 (spec §2 and §9). */
export function screenClassOf(width: number): ScreenClass {
  const [small, medium, large] = website.breakpoints;
  if (width >= large) return 3;
  if (width >= medium) return 2;
  if (width >= small) return 1;
  return 0;
}

/** Keeps `state.screen` in step with the window; the smallest class collapses the sidebar. */
export function useScreenClass(): void {
  useEffect(() => {
    const update = () => {
      const screen = screenClassOf(window.innerWidth);
      if (screen === store.getState().screen) return;
      store.setState(screen === 0 ? { screen, collapsed: true } : { screen });
    };
    update();
    window.addEventListener("resize", update);
    return () => window.removeEventListener("resize", update);
  }, []);
}

import type { ReactNode } from "react";
import "./money.css";

/**
 * A table that may be wider than the screen: it scrolls sideways inside this region, which takes
 * focus and is named, so keyboard and screen-reader users reach all of it (WCAG 2.1.1).
 */
export function ScrollRegion({ label, children }: { label: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus to be scrolled by keyboard.
    <section className="ml-scroll-region" tabIndex={0} aria-label={label}>
      {children}
    </section>
  );
}

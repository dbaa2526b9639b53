import { everyPairing, sweepTests } from "./a11y-sweep.ts";

// English on the dark theme with every add dialog; on asking, English on the default theme too.
sweepTests([
  { language: "en", theme: "theme-dark", withDialogs: true },
  ...(everyPairing ? [{ language: "en", theme: "theme-default", withDialogs: false } as const] : []),
]);

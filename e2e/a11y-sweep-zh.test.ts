import { everyPairing, sweepTests } from "./a11y-sweep.ts";

// Chinese on the default theme with every add dialog; on asking, Chinese on the dark theme too.
sweepTests([
  { language: "zh", theme: "theme-default", withDialogs: true },
  ...(everyPairing ? [{ language: "zh", theme: "theme-dark", withDialogs: false } as const] : []),
]);

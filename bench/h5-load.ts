/**
 * The owner page's first load beside the console's /login, in the same run, as a new visitor
 * sees each: Debian Chromium (playwright-core) with a cold profile per load against the built
 * server. Prints the bytes on the wire (headers and bodies as sent, i.e. compressed) until the
 * sign-in form is visible and the network is idle: /h5/ on a phone-sized viewport, /login on a
 * desktop one. The owner page's goal is 150 KB.
 *   npm run build && npx tsx bench/h5-load.ts [--runs 3]
 */
import { availableParallelism, cpus, loadavg } from "node:os";
import type { Browser, Page } from "playwright-core";
import { admin, launchBrowser, startServer } from "../e2e/harness.ts";
import { count, settings } from "./money-common.ts";

const OWNER_PAGE_GOAL = 150 * 1024;

/** Sums what Chromium received since the page opened. */
async function wireCounter(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  const seen = { bytes: 0, requests: 0 };
  cdp.on("Network.loadingFinished", (event: { encodedDataLength: number }) => {
    seen.bytes += event.encodedDataLength;
    seen.requests += 1;
  });
  await cdp.send("Network.enable");
  return seen;
}

interface Load {
  bytes: number;
  requests: number;
  visibleMs: number;
}

async function loadOnce(
  browser: Browser,
  baseUrl: string,
  target: { path: string; ready: string; viewport: { width: number; height: number }; mobile: boolean },
): Promise<Load> {
  const context = await browser.newContext({
    baseURL: baseUrl,
    viewport: target.viewport,
    isMobile: target.mobile,
    hasTouch: target.mobile,
  });
  try {
    const page = await context.newPage();
    const seen = await wireCounter(page);
    const started = performance.now();
    await page.goto(target.path, { waitUntil: "commit" });
    await page.getByTestId(target.ready).waitFor({ state: "visible", timeout: 30_000 });
    const visibleMs = performance.now() - started;
    await page.waitForLoadState("networkidle");
    return { bytes: seen.bytes, requests: seen.requests, visibleMs };
  } finally {
    await context.close();
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

async function main(): Promise<void> {
  const runs = count(settings({ runs: "3" }).runs, "runs");
  const server = await startServer({ LOG_LEVEL: "warn" });
  const browser = await launchBrowser();
  const ownerPage = {
    path: `/h5/?tenant=${admin.tenantId}`,
    ready: "h5-sign-in",
    viewport: { width: 390, height: 844 },
    mobile: true,
  };
  const login = {
    path: "/login",
    ready: "login-username",
    viewport: { width: 1440, height: 900 },
    mobile: false,
  };
  try {
    // The server's first answers warm its own caches (file handles, routes), not the browser's.
    await loadOnce(browser, server.baseUrl, ownerPage);
    await loadOnce(browser, server.baseUrl, login);
    const owners: Load[] = [];
    const logins: Load[] = [];
    for (let i = 0; i < runs; i++) {
      owners.push(await loadOnce(browser, server.baseUrl, ownerPage));
      logins.push(await loadOnce(browser, server.baseUrl, login));
    }
    const summary = (loads: Load[]) => ({
      bytes: median(loads.map((l) => l.bytes)),
      requests: median(loads.map((l) => l.requests)),
      visibleMs: median(loads.map((l) => l.visibleMs)),
    });
    const h5 = summary(owners);
    const console_ = summary(logins);
    console.log(
      `first load, owner page vs console: Chromium ${browser.version()} headless, cold profile per load, ` +
        `loopback, ${runs} runs each, alternating, median; embedded database; ${availableParallelism()} cores ` +
        `(${cpus()[0]?.model ?? "?"}), load ${loadavg()[0]?.toFixed(2)}`,
    );
    const line = (name: string, s: ReturnType<typeof summary>) =>
      console.log(
        `  ${name.padEnd(22)} ${kb(s.bytes).padStart(9)} in ${s.requests} requests, form visible ` +
          `${s.visibleMs.toFixed(0).padStart(5)} ms`,
      );
    line("/h5/ (390×844, mobile)", h5);
    line("/login (1440×900)", console_);
    console.log(`  ratio /h5/ : /login bytes ${(h5.bytes / console_.bytes).toFixed(2)}×`);
    console.log(`  goal: /h5/ ≤ ${kb(OWNER_PAGE_GOAL)}: ${h5.bytes <= OWNER_PAGE_GOAL ? "met" : "NOT met"}`);
  } finally {
    await browser.close();
    await server.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

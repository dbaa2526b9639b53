/**
 * The console's first load as a new visitor sees it: Debian Chromium (playwright-core) with a cold
 * profile against the built server. Prints the bytes on the wire for /login (until the network is
 * idle), the time until the login form is visible, and the bytes the home page adds after signing
 * in (until the home page's metering overview shows and the network is idle), on an empty site.
 * The reference, served from this same process: the console build sent uncompressed and uncached
 * (its API calls proxied to the same server), i.e. what every load cost before the precompressed
 * assets; pass --reference-dist to serve another build (an older one) instead.
 *   npm run build && npx tsx bench/console-load.ts [--runs 3] [--reference-dist path/to/dist]
 */
import { readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { availableParallelism, cpus, loadavg } from "node:os";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { admin, launchBrowser, repoRoot, startServer } from "../e2e/harness.ts";
import { count, settings } from "./money-common.ts";

const LOGIN_GOAL = 200 * 1024;
const HOME_GOAL = 400 * 1024;

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
};

/** A plain static server of a console build, no compression, its /api calls passed on to `api`. */
function referenceServer(dist: string, api: string): Promise<{ url: string; server: Server }> {
  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? "/", "http://reference");
      if (url.pathname.startsWith("/api/")) {
        const chunks: Buffer[] = [];
        for await (const chunk of req) chunks.push(chunk as Buffer);
        const headers = Object.fromEntries(
          Object.entries(req.headers).filter(
            ([name]) => !["host", "accept-encoding", "connection", "content-length"].includes(name),
          ),
        ) as Record<string, string>;
        const answer = await fetch(`${api}${url.pathname}${url.search}`, {
          method: req.method ?? "GET",
          headers: { ...headers, "accept-encoding": "identity" },
          ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
        });
        const body = Buffer.from(await answer.arrayBuffer());
        res.writeHead(answer.status, {
          "content-type": answer.headers.get("content-type") ?? "application/json",
          "content-length": body.length,
        });
        res.end(body);
        return;
      }
      const file = path.join(dist, path.normalize(url.pathname));
      const ext = path.extname(file);
      const body = await readFile(ext ? file : path.join(dist, "index.html"));
      res.writeHead(200, { "content-type": TYPES[ext || ".html"] ?? "application/octet-stream" });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      resolve({
        url: `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`,
        server,
      });
    }),
  );
}

interface Load {
  loginBytes: number;
  formMs: number;
  homeBytes: number;
  requests: number;
}

/** Sums what Chromium received (headers and bodies as sent, i.e. compressed) since `reset`. */
async function wireCounter(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  let bytes = 0;
  let requests = 0;
  cdp.on("Network.loadingFinished", (event: { encodedDataLength: number }) => {
    bytes += event.encodedDataLength;
    requests += 1;
  });
  await cdp.send("Network.enable");
  await cdp.send("Network.setCacheDisabled", { cacheDisabled: false });
  return {
    take() {
      const taken = { bytes, requests };
      bytes = 0;
      requests = 0;
      return taken;
    },
  };
}

async function loadOnce(browser: Browser, baseUrl: string): Promise<Load> {
  // A new context is a cold profile: no cache, no storage.
  const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1440, height: 900 } });
  try {
    const page = await context.newPage();
    const wire = await wireCounter(page);
    const started = performance.now();
    await page.goto("/login", { waitUntil: "commit" });
    await page.getByTestId("login-username").waitFor({ state: "visible", timeout: 30_000 });
    const formMs = performance.now() - started;
    await page.waitForLoadState("networkidle");
    const login = wire.take();
    const tenant = page.getByTestId("login-tenant");
    if (await tenant.isVisible()) await tenant.fill(admin.tenantId);
    await page.getByTestId("login-username").fill(admin.username);
    await page.getByTestId("login-password").fill(admin.password);
    await page.getByTestId("login-password").press("Enter");
    await page.getByTestId("home-page").waitFor({ timeout: 30_000 });
    // The home page as a signed-in administrator sees it, its metering overview included (on this
    // empty site the usage card shows no chart).
    await page.getByTestId("overview-usage").waitFor({ timeout: 30_000 });
    await page.waitForLoadState("networkidle");
    const home = wire.take();
    return { loginBytes: login.bytes, formMs, homeBytes: home.bytes, requests: login.requests };
  } finally {
    await context.close();
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;

async function main(): Promise<void> {
  const { runs: runsText, "reference-dist": referenceDist } = settings({ runs: "3", "reference-dist": "" });
  const runs = count(runsText, "runs");
  const dist = referenceDist || path.join(repoRoot, "apps/console/dist");
  const server = await startServer({ LOG_LEVEL: "warn" });
  const reference = await referenceServer(dist, server.baseUrl);
  const browser = await launchBrowser();
  try {
    await loadOnce(browser, server.baseUrl); // the server's first answers warm its caches, not ours
    const ours: Load[] = [];
    const theirs: Load[] = [];
    for (let i = 0; i < runs; i++) {
      theirs.push(await loadOnce(browser, reference.url));
      ours.push(await loadOnce(browser, server.baseUrl));
    }
    const summary = (loads: Load[]) => ({
      loginBytes: median(loads.map((l) => l.loginBytes)),
      formMs: median(loads.map((l) => l.formMs)),
      homeBytes: median(loads.map((l) => l.homeBytes)),
      requests: median(loads.map((l) => l.requests)),
    });
    const a = summary(ours);
    const b = summary(theirs);
    console.log(
      `console first load: Chromium ${browser.version()} headless, cold profile per run, 1440×900, loopback; ` +
        `${runs} runs each, alternating, median; embedded database; ${availableParallelism()} cores ` +
        `(${cpus()[0]?.model ?? "?"}), load ${loadavg()[0]?.toFixed(2)}`,
    );
    console.log(`  reference: ${dist} served uncompressed from this process, API proxied to the same server`);
    const line = (name: string, s: ReturnType<typeof summary>) =>
      console.log(
        `  ${name.padEnd(10)} /login ${kb(s.loginBytes).padStart(8)} in ${s.requests} requests, form visible ` +
          `${s.formMs.toFixed(0).padStart(5)} ms; home after sign-in +${kb(s.homeBytes)}`,
      );
    line("meterline", a);
    line("reference", b);
    console.log(
      `  ratios meterline/reference: /login bytes ${(a.loginBytes / b.loginBytes).toFixed(2)}×, ` +
        `form visible ${(a.formMs / b.formMs).toFixed(2)}×, home bytes ${(a.homeBytes / b.homeBytes).toFixed(2)}×`,
    );
    console.log(
      `  goals: /login ≤ ${kb(LOGIN_GOAL)}: ${a.loginBytes <= LOGIN_GOAL ? "met" : "NOT met"}; ` +
        `home after sign-in ≤ +${kb(HOME_GOAL)}: ${a.homeBytes <= HOME_GOAL ? "met" : "NOT met"}`,
    );
  } finally {
    await browser.close();
    reference.server.close();
    await server.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

/**
 * The console's first load as a new visitor sees it: Debian Chromium (playwright-core) with a cold
 * profile against the built server. Prints the bytes on the wire for /login (until the network is
 * idle), the time until the login form is visible, and the bytes the home page adds after signing
 * in (until the home page's metering overview shows and the network is idle), on an empty site.
 * Two references, served from this same process: the console build sent uncompressed and uncached
 * (its API calls proxied to the same server), i.e. what every load cost before the precompressed
 * assets (pass --reference-dist to serve another build, an older one); and for the form-visible
 * time, a static page of the Vue console's size class (see sizeClassPage). --list yes prints the
 * files of one load, largest first.
 *   npm run build && npx tsx bench/console-load.ts [--runs 3] [--reference-dist path/to/dist] [--list yes]
 */
import { readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { availableParallelism, cpus, loadavg } from "node:os";
import path from "node:path";
import { build } from "esbuild";
import type { Browser, Page } from "playwright-core";
import { admin, launchBrowser, repoRoot, startServer } from "../e2e/harness.ts";
import { count, settings } from "./money-common.ts";

const LOGIN_GOAL = 200 * 1024;
const HOME_GOAL = 400 * 1024;
const FORM_GOAL = 0.5;

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
};

/**
 * What the Vue console of this family moved for its /login (measured beside this console on this
 * machine kind): the size class of the form-visible reference page.
 */
const VUE_CONSOLE_LOGIN_BYTES = 1_102_752;

/**
 * The UI components a console of that kind registers at start (the Vue console registers its whole
 * UI library): chosen so that the page below lands in that console's size class.
 */
const SIZE_CLASS_COMPONENTS = [
  "Alert",
  "Avatar",
  "Badge",
  "Breadcrumb",
  "Button",
  "Card",
  "Checkbox",
  "Col",
  "Collapse",
  "ConfigProvider",
  "Descriptions",
  "Divider",
  "Drawer",
  "Dropdown",
  "Empty",
  "Form",
  "Image",
  "Input",
  "InputNumber",
  "Layout",
  "Menu",
  "Modal",
  "Pagination",
  "Popconfirm",
  "Popover",
  "Radio",
  "Row",
  "Select",
  "Space",
  "Spin",
  "Steps",
  "Switch",
  "Tabs",
  "Tag",
  "Tooltip",
  "Upload",
  "message",
  "notification",
];

/**
 * A reference page of the Vue console's size class, for the form-visible time when that console is
 * not at hand: one script, bundled here with esbuild and sent uncompressed as that console sends its
 * files, that loads React and the UI components above as a console of that kind does at start and
 * renders a login form with them. No API call precedes its form (that console waited for two), so
 * the reference is, if anything, quicker than the console it stands for.
 */
async function sizeClassPage(): Promise<{ html: string; script: Uint8Array }> {
  const names = SIZE_CLASS_COMPONENTS.join(", ");
  const entry = `
    import { ${names} } from "antd";
    import { createRoot } from "react-dom/client";
    window.registered = { ${names} };
    createRoot(document.getElementById("root")).render(
      <Card title="Sign in" style={{ width: 400, margin: "80px auto" }}>
        <Form layout="vertical">
          <Form.Item label="Account" name="username"><Input data-testid="login-username" /></Form.Item>
          <Form.Item label="Password" name="password"><Input.Password /></Form.Item>
          <Button type="primary" htmlType="submit" block>Sign in</Button>
        </Form>
      </Card>,
    );`;
  const built = await build({
    stdin: { contents: entry, loader: "jsx", resolveDir: path.join(repoRoot, "apps/console/src") },
    bundle: true,
    minify: true,
    format: "esm",
    jsx: "automatic",
    define: { "process.env.NODE_ENV": '"production"' },
    write: false,
    logLevel: "warning",
  });
  const script = built.outputFiles[0]?.contents;
  if (!script) throw new Error("the size-class reference did not build");
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>reference</title>
<script type="module" src="/size-class/app.js"></script></head><body><div id="root"></div></body></html>`;
  return { html, script };
}

/** A plain static server of a console build, no compression, its /api calls passed on to `api`. */
function referenceServer(
  dist: string,
  api: string,
  sizeClass: { html: string; script: Uint8Array },
): Promise<{ url: string; server: Server }> {
  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? "/", "http://reference");
      if (url.pathname === "/size-class") {
        res.writeHead(200, { "content-type": TYPES[".html"] ?? "text/html" });
        res.end(sizeClass.html);
        return;
      }
      if (url.pathname === "/size-class/app.js") {
        res.writeHead(200, { "content-type": TYPES[".js"] ?? "text/javascript" });
        res.end(sizeClass.script);
        return;
      }
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
  files: { url: string; bytes: number }[];
  homeFiles?: { url: string; bytes: number }[];
}

/** Sums what Chromium received (headers and bodies as sent, i.e. compressed) since `reset`. */
async function wireCounter(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  let bytes = 0;
  let requests = 0;
  const urls = new Map<string, string>();
  let files: { url: string; bytes: number }[] = [];
  cdp.on("Network.requestWillBeSent", (event: { requestId: string; request: { url: string } }) => {
    urls.set(event.requestId, new URL(event.request.url).pathname);
  });
  cdp.on("Network.loadingFinished", (event: { requestId: string; encodedDataLength: number }) => {
    bytes += event.encodedDataLength;
    requests += 1;
    files.push({ url: urls.get(event.requestId) ?? "?", bytes: event.encodedDataLength });
  });
  await cdp.send("Network.enable");
  await cdp.send("Network.setCacheDisabled", { cacheDisabled: false });
  return {
    take() {
      const taken = { bytes, requests, files };
      bytes = 0;
      requests = 0;
      files = [];
      return taken;
    },
  };
}

/** With --list yes: what one load moved, largest first (to see where the bytes go). */
function listFiles(title: string, files: { url: string; bytes: number }[]): void {
  console.log(`  ${title}:`);
  for (const file of [...files].sort((a, b) => b.bytes - a.bytes)) {
    console.log(`    ${String(file.bytes).padStart(8)} B  ${file.url}`);
  }
}

/**
 * Runs in the page before its own scripts: notes the page clock (ms since navigation start) at the
 * first frame in which the username field is laid out, i.e. when a person could see the form. Read
 * in the page, so neither side pays for the test driver's polling.
 */
const FORM_SHOWN_PROBE = `
  new MutationObserver(function (changes, observer) {
    var field = document.querySelector('[data-testid="login-username"]');
    if (!field || field.getClientRects().length === 0) return;
    observer.disconnect();
    requestAnimationFrame(function () { window.__formShownAt = performance.now(); });
  }).observe(document, { childList: true, subtree: true, attributes: true });
`;

async function formShownAt(page: Page): Promise<number> {
  await page.getByTestId("login-username").waitFor({ state: "visible", timeout: 30_000 });
  const handle = await page.waitForFunction(() => (window as { __formShownAt?: number }).__formShownAt);
  return Number(await handle.jsonValue());
}

async function loadOnce(browser: Browser, baseUrl: string, loginPath = "/login"): Promise<Load> {
  // A new context is a cold profile: no cache, no storage.
  const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1440, height: 900 } });
  try {
    const page = await context.newPage();
    await page.addInitScript({ content: FORM_SHOWN_PROBE });
    const wire = await wireCounter(page);
    await page.goto(loginPath, { waitUntil: "commit" });
    const formMs = await formShownAt(page);
    await page.waitForLoadState("networkidle");
    const login = wire.take();
    if (loginPath !== "/login") {
      return { loginBytes: login.bytes, formMs, homeBytes: 0, requests: login.requests, files: login.files };
    }
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
    return {
      loginBytes: login.bytes,
      formMs,
      homeBytes: home.bytes,
      requests: login.requests,
      files: login.files,
      homeFiles: home.files,
    };
  } finally {
    await context.close();
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;

async function main(): Promise<void> {
  const options = settings({ runs: "3", "reference-dist": "", list: "no" });
  const runs = count(options.runs, "runs");
  const dist = options["reference-dist"] || path.join(repoRoot, "apps/console/dist");
  const sizeClass = await sizeClassPage();
  const server = await startServer({ LOG_LEVEL: "warn" });
  const reference = await referenceServer(dist, server.baseUrl, sizeClass);
  const browser = await launchBrowser();
  try {
    await loadOnce(browser, server.baseUrl); // the server's first answers warm its caches, not ours
    const ours: Load[] = [];
    const uncompressed: Load[] = [];
    const sized: Load[] = [];
    for (let i = 0; i < runs; i++) {
      sized.push(await loadOnce(browser, reference.url, "/size-class"));
      uncompressed.push(await loadOnce(browser, reference.url));
      ours.push(await loadOnce(browser, server.baseUrl));
    }
    const summary = (loads: Load[]) => ({
      loginBytes: median(loads.map((l) => l.loginBytes)),
      formMs: median(loads.map((l) => l.formMs)),
      homeBytes: median(loads.map((l) => l.homeBytes)),
      requests: median(loads.map((l) => l.requests)),
    });
    const a = summary(ours);
    const b = summary(uncompressed);
    const c = summary(sized);
    console.log(
      `console first load: Chromium ${browser.version()} headless, cold profile per run, 1440×900, loopback; ` +
        `${runs} runs each, alternating, median; form visible = page clock at the first frame showing the ` +
        `username field; embedded database; ${availableParallelism()} cores ` +
        `(${cpus()[0]?.model ?? "?"}), load ${loadavg()[0]?.toFixed(2)}`,
    );
    console.log(
      `  uncompressed: ${dist} served uncompressed from this process, API proxied to the same server`,
    );
    console.log(
      `  size class: React and ${SIZE_CLASS_COMPONENTS.length} antd components in one script of ` +
        `${kb(sizeClass.script.byteLength)}, uncompressed, rendering a login form (the Vue console's /login ` +
        `moved ${kb(VUE_CONSOLE_LOGIN_BYTES)})`,
    );
    const line = (name: string, s: ReturnType<typeof summary>, loads: Load[], home = true) =>
      console.log(
        `  ${name.padEnd(12)} /login ${kb(s.loginBytes).padStart(8)} in ${String(s.requests).padStart(2)} requests, ` +
          `form visible ${s.formMs.toFixed(0).padStart(5)} ms (runs: ${loads.map((l) => l.formMs.toFixed(0)).join(", ")})` +
          (home ? `; home after sign-in +${kb(s.homeBytes)}` : ""),
      );
    line("meterline", a, ours);
    line("uncompressed", b, uncompressed);
    line("size class", c, sized, false);
    const formRatio = a.formMs / c.formMs;
    console.log(
      `  ratios: /login bytes ${(a.loginBytes / b.loginBytes).toFixed(2)}× uncompressed, ` +
        `${(a.loginBytes / VUE_CONSOLE_LOGIN_BYTES).toFixed(2)}× the Vue console; form visible ` +
        `${formRatio.toFixed(2)}× size class; home bytes ${(a.homeBytes / b.homeBytes).toFixed(2)}× uncompressed`,
    );
    console.log(
      `  goals: /login ≤ ${kb(LOGIN_GOAL)}: ${a.loginBytes <= LOGIN_GOAL ? "met" : "NOT met"}; ` +
        `home after sign-in ≤ +${kb(HOME_GOAL)}: ${a.homeBytes <= HOME_GOAL ? "met" : "NOT met"}; ` +
        `form visible ≤ ${FORM_GOAL}× size class: ${formRatio <= FORM_GOAL ? "met" : "NOT met"}`,
    );
    if (options.list === "yes") {
      const last = ours[ours.length - 1];
      if (last) {
        listFiles("meterline /login", last.files);
        listFiles("meterline home after sign-in", last.homeFiles ?? []);
      }
    }
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

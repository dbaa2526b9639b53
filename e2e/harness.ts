import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { cp, mkdtemp, rename, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, afterEach, before, beforeEach } from "node:test";
import { fileURLToPath } from "node:url";
import { type Browser, type BrowserContext, chromium, type Locator, type Page } from "playwright-core";
import { freshEntry } from "../scripts/compiled.mjs";
import { freePort } from "../scripts/free-port.mjs";

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

export const admin = { tenantId: "000000", username: "admin", password: "admin" } as const;

export interface RunningServer {
  baseUrl: string;
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitForHealth(baseUrl: string, child: ChildProcess, output: () => string): Promise<void> {
  // A demo server on a loaded two-core machine can take most of a minute to migrate and fill.
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output()}`);
    try {
      const response = await fetch(`${baseUrl}/api/health`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  throw new Error(`server did not become healthy within 120 s:\n${output()}`);
}

type ServerCommand = string[];

/** The server's command line: compiled when fresh, else the sources through tsx. */
function serverCommand(): ServerCommand {
  // The compiled server when `npm run build` made it from the current sources (it boots without
  // transpiling); else the sources through tsx, so that a suite never runs stale code.
  const compiled = freshEntry("main");
  return compiled ? [compiled] : ["--import", "tsx", "apps/server/src/main.ts"];
}

/**
 * Runs the server on a free port over `dataDir` until healthy; `stop` ends it and keeps the folder.
 * A server that finds its port taken meanwhile (another suite drew the same one between the probe
 * and the bind: scripts/free-port.mjs) exits at once having written nothing, and starts again on
 * another port.
 */
async function boot(command: ServerCommand, dataDir: string, env: Record<string, string>) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await bootOnce(command, dataDir, env);
    } catch (error) {
      if (attempt >= 3 || !(error instanceof Error) || !PORT_TAKEN.test(error.message)) throw error;
    }
  }
}

/** What the server says when its HTTP port is in use (apps/server's start-up check). */
const PORT_TAKEN = /PORT=\d+ \(HTTP[^)]*\) is already in use/;

async function bootOnce(command: ServerCommand, dataDir: string, env: Record<string, string>) {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, command, {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
      // Browser suites bring their own rows; the gateway takes a free port so suites never collide.
      DEMO_DATA: "0",
      GATEWAY_PORT: "0",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-8000);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      // A server that ignores SIGTERM is killed after 10 s; the timer must not outlive the exit.
      const killer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(killer);
    }
  };
  try {
    await waitForHealth(baseUrl, child, () => log);
  } catch (error) {
    await stop();
    throw error;
  }
  return { baseUrl, stop, exitCode: () => child.exitCode };
}

/**
 * A data directory as the server leaves it after its first start with `env` (migrated, seeded, the
 * demo site filled when asked), for a suite to start from. scripts/test.mjs names a folder in
 * E2E_DATA_TEMPLATES for the run: the first suite with a given command and environment makes the
 * template there (one start and a clean stop), later ones copy it, which spares each server the
 * embedded database's initdb, the migrations and the demo site (tens of seconds on two cores).
 * Without E2E_DATA_TEMPLATES (a file run on its own) the server starts on an empty folder.
 */
async function dataDirFor(command: ServerCommand, env: Record<string, string>): Promise<string> {
  const dataDir = await mkdtemp(path.join(tmpdir(), "meterline-e2e-"));
  const templates = process.env.E2E_DATA_TEMPLATES;
  if (!templates) return dataDir;
  const key = createHash("sha256")
    .update(JSON.stringify([command, Object.entries(env).sort(([a], [b]) => a.localeCompare(b))]))
    .digest("hex")
    .slice(0, 16);
  const template = path.join(templates, key);
  try {
    await cp(template, dataDir, { recursive: true });
    return dataDir;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  try {
    await makeTemplate(template, command, env);
  } catch (error) {
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
  await cp(template, dataDir, { recursive: true });
  return dataDir;
}

/** Starts a server once on a staging folder with `env`, stops it cleanly and keeps the folder as `template`. */
async function makeTemplate(template: string, command: ServerCommand, env: Record<string, string>) {
  const staging = await mkdtemp(`${template}-staging-`);
  try {
    const first = await boot(command, staging, env);
    await first.stop();
    if (first.exitCode() !== 0)
      throw new Error(`the template server for ${JSON.stringify(env)} did not stop cleanly`);
    // Another suite may have made the same template meanwhile: either copy is as good.
    await rename(staging, template).catch((error) => {
      if (!existsSync(template)) throw error;
    });
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/**
 * Starts the API server (which also serves the built console) on a free port with a fresh,
 * temporary DATA_DIR and any extra `env`, and waits for /api/health. Without extra env,
 * E2E_BASE_URL targets an already running instance instead (nothing is started or stopped then).
 */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const external = process.env.E2E_BASE_URL;
  if (external && Object.keys(env).length === 0) {
    return { baseUrl: external.replace(/\/$/, ""), stop: async () => undefined };
  }

  const command = serverCommand();
  const dataDir = await dataDirFor(command, env);
  let server: Awaited<ReturnType<typeof boot>>;
  try {
    server = await boot(command, dataDir, env);
  } catch (error) {
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
  const stop = async () => {
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    const index = await fetch(`${server.baseUrl}/`).then((response) => response.text());
    if (!index.includes('id="root"')) {
      throw new Error("the server does not serve the console at /: run `npm run build` first");
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { baseUrl: server.baseUrl, stop };
}

/**
 * Debian's Chromium, headless, without any network side traffic, on the site's clock: operators
 * sit in the tenants' zone (Asia/Shanghai, the server's default), so "today" and "last month" of a
 * screen are the server's, whatever zone the test machine runs in.
 */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    env: { ...process.env, TZ: "Asia/Shanghai" },
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      "--disable-dev-shm-usage",
    ],
  });
}

export interface Session {
  context: BrowserContext;
  page: Page;
  /** Uncaught page errors, for tests that must not produce any. */
  errors: string[];
  /** Content-Security-Policy violations of any page of the session; every suite fails on one. */
  cspViolations: string[];
}

/** Collects what the CSP blocked: the page's own violation events and the console's reports. */
async function watchCsp(context: BrowserContext): Promise<string[]> {
  const violations: string[] = [];
  await context.exposeBinding("reportCspViolation", (_source, text: string) => violations.push(text));
  await context.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      const report = (window as unknown as { reportCspViolation(text: string): void }).reportCspViolation;
      report(`${event.violatedDirective} blocked ${event.blockedURI || "inline"} in ${event.sourceFile}`);
    });
  });
  context.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  return violations;
}

/** A fresh browser context (empty localStorage) at 1440×900. */
export async function openSession(browser: Browser, baseUrl: string): Promise<Session> {
  // Reduced motion: the console then switches antd animations off, so no test waits for them.
  const context = await browser.newContext({
    baseURL: baseUrl,
    viewport: { width: 1440, height: 900 },
    reducedMotion: "reduce",
  });
  // A click's wait: twice what an idle machine needs, as CI's two cores also run the server and its jobs.
  context.setDefaultTimeout(30_000);
  const cspViolations = await watchCsp(context);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  return { context, page, errors, cspViolations };
}

/**
 * Signs an operator in whose story does not start at the login form (most tests): the token is
 * asked of the API, put where the console keeps its session (the stored records of spec §9), and
 * the console opens on its home page. The form itself is signInWithForm's; a form sign-in costs a
 * login page and its chunks first, several seconds each on a busy machine.
 */
export async function signIn(
  page: Page,
  account: { tenantId?: string; username: string; password: string } = admin,
): Promise<void> {
  // A same-origin address that loads no console, so localStorage can be written before it starts.
  await page.goto("/api/health");
  const origin = new URL(page.url()).origin;
  const tenantId = account.tenantId ?? admin.tenantId;
  const query = new URLSearchParams({
    tenantId,
    username: account.username,
    password: createHash("md5").update(account.password).digest("hex"),
    grant_type: "password",
    scope: "all",
    type: "account",
  });
  const answer = await fetch(`${origin}/api/blade-auth/oauth/token?${query}`, {
    method: "POST",
    headers: { ...apiHeaders(), "Tenant-Id": tenantId },
  });
  const token = (await answer.json()) as Record<string, unknown>;
  if (!answer.ok || typeof token.access_token !== "string") {
    throw new Error(
      `sign-in of ${account.username}@${tenantId} refused: ${answer.status} ${JSON.stringify(token)}`,
    );
  }
  // No functions declared inside: the test's transpiler would name them with a helper the page lacks.
  const records = Object.entries({
    "saber-token": token.access_token,
    "saber-refresh-token": token.refresh_token,
    "saber-tenant-id": token.tenant_id,
    "saber-userInfo": token,
  });
  await page.evaluate((records) => {
    for (const [key, content] of records) {
      const record = { dataType: typeof content, content, datetime: Date.now(), type: "local" };
      localStorage.setItem(key, JSON.stringify(record));
    }
  }, records);
  await page.goto("/");
  await page.getByTestId("home-page").waitFor({ timeout: 90_000 });
  // The home page loads more (the metering overview): let it settle before the test acts.
  await page.waitForLoadState("networkidle");
}

/**
 * Signs in through the login form like an operator and waits for the home page, typing the
 * account's tenant into the form: for the tests whose story is the sign-in.
 */
export async function signInWithForm(
  page: Page,
  account: { tenantId?: string; username: string; password: string } = admin,
): Promise<void> {
  await page.goto("/login");
  if (account.tenantId) await page.getByTestId("login-tenant").fill(account.tenantId);
  await page.getByTestId("login-username").fill(account.username);
  await page.getByTestId("login-password").fill(account.password);
  const answered = page
    .waitForResponse((response) => response.url().includes("/oauth/token"), { timeout: 90_000 })
    .then(async (response) =>
      response.ok()
        ? `${response.status()}`
        : `${response.status()} ${await response.text().catch(() => "")}`,
    )
    .catch(() => "never asked");
  await page.getByTestId("login-password").press("Enter");
  // A server's first sign-in after its start may wait on its warming caches and the home page's
  // first chunks on a busy machine: longer than a click's wait, still a bound.
  try {
    await page.getByTestId("home-page").waitFor({ timeout: 90_000 });
  } catch (error) {
    throw new Error(
      `sign-in of ${account.username} did not reach the home page: ${await signInState(page, answered)}`,
      {
        cause: error,
      },
    );
  }
  // The home page loads more (the metering overview): let it settle before the test acts.
  await page.waitForLoadState("networkidle");
}

/** What a stuck sign-in shows: where the page is, the token call's answer, messages on screen. */
async function signInState(page: Page, answered: Promise<string>): Promise<string> {
  const token = await Promise.race([
    answered,
    new Promise<string>((resolve) => setTimeout(() => resolve("pending"), 1000)),
  ]);
  const shown = await page
    .locator(".ant-message-notice, .ant-form-item-explain-error, .ml-login-error, [role=alert]")
    .allInnerTexts()
    .catch(() => []);
  const fields = await page
    .locator("input[data-testid^=login-]")
    .evaluateAll((inputs) =>
      inputs.map(
        (input) =>
          `${input.getAttribute("data-testid")}=${(input as HTMLInputElement).value ? "filled" : "empty"}`,
      ),
    )
    .catch(() => []);
  return `url ${page.url()}, token call ${token}, fields ${fields.join(" ")}, shown ${JSON.stringify(shown)}`;
}

/** Headers the console sends on authenticated calls (contract §1). */
export function apiHeaders(token?: string): Record<string, string> {
  const headers: Record<string, string> = {
    Authorization: `Basic ${Buffer.from("saber:saber_secret").toString("base64")}`,
  };
  if (token) headers["Blade-Auth"] = `bearer ${token}`;
  return headers;
}

/** The access token the console keeps in localStorage (`saber-token`), or null. */
export async function storedToken(page: Page): Promise<string | null> {
  return page.evaluate(() => {
    const text = localStorage.getItem("saber-token");
    return text ? (JSON.parse(text) as { content: string }).content : null;
  });
}

/** The element's text ("" when it has none). */
export async function textOf(locator: Locator): Promise<string> {
  return (await locator.textContent()) ?? "";
}

export interface BrowserSuite {
  server: RunningServer;
  browser: Browser;
  session: Session;
}

/**
 * One server and one browser per test file, a fresh browser context per test (signed in as the
 * platform administrator when asked); `env` adds to the server's environment. Read the fields
 * inside tests: hooks fill them in.
 */
export function useBrowserSuite(
  options: { signedIn?: boolean; env?: Record<string, string> } = {},
): BrowserSuite {
  const suite = {} as BrowserSuite;
  before(async () => {
    suite.server = await startServer(options.env);
    suite.browser = await launchBrowser();
  });
  after(async () => {
    await suite.browser?.close();
    await suite.server?.stop();
  });
  beforeEach(async () => {
    suite.session = await openSession(suite.browser, suite.server.baseUrl);
    if (options.signedIn) await signIn(suite.session.page);
  });
  afterEach(async () => {
    await suite.session.context.close();
    assert.deepEqual(suite.session.cspViolations, [], "the Content-Security-Policy blocked something");
  });
  return suite;
}

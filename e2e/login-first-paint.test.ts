import assert from "node:assert/strict";
import { test } from "node:test";
import type { Page, Route } from "playwright-core";
import { expectAccessible } from "./axe.ts";
import { admin, storedToken, textOf, useBrowserSuite } from "./harness.ts";

const suite = useBrowserSuite();

/**
 * Holds back the console's own code (start.tsx's chunk) until `release`: what the visitor sees
 * meanwhile is the login form index.html brought.
 */
async function holdConsole(page: Page) {
  const held: Route[] = [];
  let released = false;
  await page.context().route(/\/assets\/start-[\w-]+\.js$/, (route) => {
    if (released) void route.continue();
    else held.push(route);
  });
  return {
    release: async () => {
      released = true;
      await Promise.all(held.map((route) => route.continue()));
    },
  };
}

/** The form's texts as a person reads them: placeholders, names, the button. */
async function formTexts(page: Page) {
  const field = (testId: string) => page.getByTestId(testId);
  return {
    tenant: await field("login-tenant").getAttribute("placeholder"),
    username: await field("login-username").getAttribute("placeholder"),
    password: await field("login-password").getAttribute("aria-label"),
    submit: await textOf(field("login-submit")),
  };
}

test("the login form is there before the console's code runs; what is typed in it signs in", async () => {
  const { page } = suite.session;
  const consoleCode = await holdConsole(page);
  await page.goto("/login", { waitUntil: "commit" });
  const username = page.getByTestId("login-username");
  await username.waitFor();
  // index.html's form, and the console has not rendered anything yet.
  assert.equal(await page.locator("#ml-boot-login").isVisible(), true);
  assert.equal(await page.getByTestId("login-form").count(), 0);
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("name")), "username");
  await expectAccessible(page, "index.html's login form");

  await username.fill(admin.username);
  await page.getByTestId("login-password").fill(admin.password);
  await page.getByTestId("login-password").press("Enter");
  // The visitor has asked to sign in; the console arrives, takes the form over and does it.
  await consoleCode.release();
  await page.waitForURL("**/wel/index");
  assert.ok(await storedToken(page));
  assert.equal(await page.locator("#ml-boot-login").count(), 0);
});

test("typing goes on in the console's form with the same text and focus", async () => {
  const { page } = suite.session;
  const consoleCode = await holdConsole(page);
  await page.goto("/login", { waitUntil: "commit" });
  await page.getByTestId("login-username").fill("adm");
  await consoleCode.release();
  await page.getByTestId("login-form").waitFor();
  assert.equal(await page.locator("#ml-boot-login").count(), 0);
  assert.equal(await page.getByTestId("login-username").inputValue(), "adm");
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("name")), "username");
  // Nothing was submitted: no error under the fields, no token.
  assert.equal(await page.locator(".ant-form-item-explain-error").count(), 0);
  assert.equal(await storedToken(page), null);
});

test("a selection made in index.html's form is on the same characters in the console's", async () => {
  const { page } = suite.session;
  // Half of a select-then-type (as Playwright's fill and a password manager do): the tenant's text
  // selected whole, or a caret put inside it, and the console takes over before the rest is typed.
  const cases = [
    { select: [0, 6], typed: "100001", expected: "100001" },
    { select: [3, 3], typed: "9", expected: "0009000" },
  ] as const;
  for (const { select, typed, expected } of cases) {
    const consoleCode = await holdConsole(page);
    await page.goto("/login", { waitUntil: "commit" });
    const tenant = page.getByTestId("login-tenant");
    await tenant.waitFor();
    assert.equal(await tenant.inputValue(), "000000");
    await tenant.focus();
    await tenant.evaluate(
      (input: HTMLInputElement, [start, end]) => input.setSelectionRange(start, end),
      select,
    );
    await consoleCode.release();
    await page.getByTestId("login-form").waitFor();
    assert.equal(await page.locator("#ml-boot-login").count(), 0);
    await page.keyboard.insertText(typed);
    assert.equal(await tenant.inputValue(), expected, `selected ${select.join("…")}`);
  }
});

test("an English reader's first form is in English, word for word the console's", async () => {
  const { page } = suite.session;
  await page.addInitScript(() => {
    const record = { dataType: "string", content: "en", datetime: Date.now(), type: "local" };
    localStorage.setItem("saber-language", JSON.stringify(record));
  });
  const consoleCode = await holdConsole(page);
  await page.goto("/login", { waitUntil: "commit" });
  await page.getByTestId("login-username").waitFor();
  const first = await formTexts(page);
  assert.equal(await page.evaluate(() => document.documentElement.lang), "en");
  await consoleCode.release();
  await page.getByTestId("login-form").waitFor();
  assert.deepEqual(await formTexts(page), first);
  assert.deepEqual(first, {
    tenant: "Tenant ID",
    username: "Account",
    password: "Password",
    submit: "Log in",
  });
});

test("other addresses never show it", async () => {
  const { page } = suite.session;
  await page.goto("/404");
  await page.getByTestId("error-404").waitFor();
  assert.equal(await page.locator("#ml-boot-login").count(), 0);
});

test("a tenant typed at once, while the console takes over, is the one signed in to", async () => {
  const { page } = suite.session;
  // Typed with no pause, as a quick operator (or a password manager) does: the takeover lands in
  // the middle of it on some loads.
  for (let round = 0; round < 4; round++) {
    await page.goto("/login");
    await page.getByTestId("login-tenant").fill("100001");
    await page.getByTestId("login-username").fill("admin");
    await page.getByTestId("login-password").fill("admin");
    const token = page.waitForRequest(/\/oauth\/token/);
    await page.getByTestId("login-password").press("Enter");
    const asked = new URL((await token).url());
    assert.equal(asked.searchParams.get("tenantId"), "100001", `round ${round}`);
    await page.locator(".ant-message-notice").first().waitFor();
  }
});

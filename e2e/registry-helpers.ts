import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import type { Locator, Page } from "playwright-core";
import { dialog, field } from "./crud-helpers.ts";
import { admin, apiHeaders, signIn } from "./harness.ts";

/** An operator: the administrator of a fresh tenant, who gets the registry menus (tenant.default.menuCode). */
export interface Operator {
  tenantId: string;
  password: string;
  token: string;
}

const md5 = (text: string) => createHash("md5").update(text).digest("hex");

/** A token of `username` in `tenantId`, as the console's login gets it. */
export async function tokenOf(baseUrl: string, tenantId: string, username: string, password: string) {
  const query = new URLSearchParams({
    tenantId,
    username,
    password: md5(password),
    grant_type: "password",
    scope: "all",
    type: "account",
  });
  const answer = await fetch(`${baseUrl}/api/blade-auth/oauth/token?${query}`, {
    method: "POST",
    headers: { ...apiHeaders(), "Tenant-Id": tenantId },
  });
  const body = (await answer.json()) as { access_token?: string };
  assert.ok(body.access_token, JSON.stringify(body));
  return body.access_token;
}

/**
 * Calls the API with a token and answers the envelope's data; a refused call throws with the
 * server's message, so setup mistakes fail where they happen.
 */
export async function call<T = Record<string, unknown>>(
  baseUrl: string,
  token: string,
  path: string,
  options: { method?: "GET" | "POST"; body?: unknown; query?: Record<string, string> } = {},
): Promise<T> {
  const url = new URL(`${baseUrl}${path}`);
  for (const [key, value] of Object.entries(options.query ?? {})) url.searchParams.set(key, value);
  const answer = await fetch(url, {
    method: options.method ?? (options.body === undefined ? "GET" : "POST"),
    headers: {
      ...apiHeaders(token),
      ...(options.body === undefined ? {} : { "Content-Type": "application/json" }),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const body = (await answer.json()) as { code: number; data: T; msg: string };
  assert.equal(body.code, 200, `${path}: ${body.msg}`);
  return body.data;
}

/** A fresh tenant made by the platform administrator; its administrator is the operator. */
export async function newOperator(baseUrl: string, tenantName: string): Promise<Operator> {
  const platform = await tokenOf(baseUrl, admin.tenantId, admin.username, admin.password);
  const tenant = await call<{ tenantId: string; password: string }>(
    baseUrl,
    platform,
    "/api/blade-system/tenant/submit",
    { body: { tenantName } },
  );
  const token = await tokenOf(baseUrl, tenant.tenantId, "admin", tenant.password);
  return { tenantId: tenant.tenantId, password: tenant.password, token };
}

/** Signs the operator in through the login form, naming the tenant, and waits for the home page. */
export const signInOperator = (page: Page, operator: Operator) =>
  signIn(page, { tenantId: operator.tenantId, username: "admin", password: operator.password });

/** The open select or tree-select dropdown. */
export const openDropdown = (page: Page) => page.locator(".ant-select-dropdown:visible");

/** The titles of the nodes the open tree-select dropdown shows. */
export async function dropdownTreeTitles(page: Page): Promise<string[]> {
  await openDropdown(page).waitFor();
  const titles = await openDropdown(page).locator(".ant-select-tree-title").allInnerTexts();
  return titles.map((title) => title.trim());
}

/** Opens a form field's tree select and answers what it offers once its choices have loaded. */
export async function treeChoices(page: Page, name: string): Promise<string[]> {
  await field(page, name).click();
  await openDropdown(page).waitFor();
  await openDropdown(page).locator(".ant-spin-spinning").waitFor({ state: "detached" });
  const titles = await dropdownTreeTitles(page);
  await dialog(page).locator(".ant-modal-title").click();
  await openDropdown(page).waitFor({ state: "detached" });
  return titles;
}

/**
 * Picks an option of a select: opens it, types to narrow a searchable list, then clicks the option
 * showing `text`.
 */
export async function chooseOption(page: Page, select: Locator, text: string, search = true): Promise<void> {
  await select.click();
  if (search) await page.keyboard.type(text);
  await openDropdown(page).locator(".ant-select-item-option", { hasText: text }).first().click();
  await openDropdown(page).waitFor({ state: "detached" });
}

/** Clicks a node of the area tree beside a table. */
export const chooseArea = (page: Page, title: string) =>
  page
    .getByTestId("area-tree")
    .locator(".ant-tree-node-content-wrapper", {
      has: page.locator(".ant-tree-title", { hasText: new RegExp(`^${title}$`) }),
    })
    .click();

/** Retries a check until it passes or `ms` run out (tables reload after a click, not at once). */
export async function eventually(check: () => Promise<void>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      await check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
  }
}

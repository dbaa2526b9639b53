import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { test } from "node:test";
import type { Page } from "playwright-core";
import { toast } from "./crud-helpers.ts";
import { apiHeaders, signIn, storedToken, useBrowserSuite } from "./harness.ts";

const suite = useBrowserSuite();

/** A 1×1 PNG: small, and real enough for the server's content check. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);

const profileError = (page: Page) =>
  page.getByTestId("info-profile").locator(".ant-form-item-explain-error").first();

async function phoneMessage(page: Page, phone: string): Promise<string> {
  await page.locator("#phone").fill(phone);
  await page.getByTestId("info-save").click();
  await profileError(page).waitFor();
  return (await profileError(page).textContent()) ?? "";
}

test("the profile tab checks the phone, uploads a checked avatar and saves with update-info", async () => {
  const { page } = suite.session;
  await signIn(page);
  await page.goto("/info/index");
  await page.getByTestId("info-profile").waitFor();
  await page.waitForFunction(
    () => (document.querySelector("#name") as HTMLInputElement | null)?.value === "管理员",
  );

  // An administrator without a phone still saves a new nickname: the phone is asked for once given.
  assert.equal(await page.locator("#phone").inputValue(), "");
  await page.locator("#name").fill("值班管理员");
  await page.getByTestId("info-save").click();
  await toast(page, "修改成功");

  assert.equal(await phoneMessage(page, "1380013800"), "手机号码长度不为11位");
  assert.equal(await phoneMessage(page, "12800138000"), "手机号码格式不正确");
  await page.locator("#phone").fill("13800138000");

  const file = page.getByTestId("info-profile").locator('input[type="file"]');
  await file.setInputFiles({ name: "me.gif", mimeType: "image/gif", buffer: Buffer.from("GIF89a") });
  await toast(page, "上传头像图片只能是 JPG/PNG 格式!");
  await file.setInputFiles({ name: "big.png", mimeType: "image/png", buffer: Buffer.alloc(501 * 1024) });
  await toast(page, "上传头像图片大小不能超过 500KB!");
  await file.setInputFiles({ name: "me.png", mimeType: "image/png", buffer: PNG });
  await page.waitForFunction(() =>
    (document.querySelector('[data-testid="info-avatar"] img') as HTMLImageElement | null)?.src.includes(
      "/api/",
    ),
  );

  await page.locator("#name").fill("运维管理员");
  await page.getByTestId("info-save").click();
  await toast(page, "修改成功");

  // Saved on the server: a fresh load shows the new values, and the avatar is served.
  await page.reload();
  await page.waitForFunction(
    () => (document.querySelector("#name") as HTMLInputElement | null)?.value === "运维管理员",
  );
  assert.equal(await page.locator("#phone").inputValue(), "13800138000");
  // Once given, a phone may not be emptied again.
  assert.equal(await phoneMessage(page, ""), "手机号码不能为空");
  await page.locator("#phone").fill("13800138000");
  const src = await page.getByTestId("info-avatar").locator("img").getAttribute("src");
  const served = await page.request.get(src ?? "");
  assert.equal(served.status(), 200);
  assert.deepEqual(Buffer.from(await served.body()), PNG);
});

test("the password tab asks for a matching confirmation and changes the password", async () => {
  const { page } = suite.session;
  await signIn(page);
  await page.goto("/info/index");
  await page.getByRole("tab", { name: "修改密码" }).click();
  const form = page.getByTestId("info-password");
  await form.locator("#oldPassword").fill("admin");
  await form.locator("#newPassword").fill("Meter#2026");
  await form.locator("#newPassword1").fill("Meter#2025");
  await page.getByTestId("info-password-save").click();
  await form.locator(".ant-form-item-explain-error", { hasText: "两次输入密码不一致!" }).waitFor();
  await form.locator("#newPassword1").fill("Meter#2026");
  await page.getByTestId("info-password-save").click();
  await toast(page, "修改密码成功");

  await page.getByTestId("user-dropdown").click();
  await page.getByTestId("logout").click();
  await page.locator(".ml-logout-confirm").click();
  await page.getByTestId("login-form").waitFor();
  await signIn(page, { username: "admin", password: "Meter#2026" });

  // Put the password back, so a shared server (E2E_BASE_URL) keeps working for the other files.
  const token = await storedToken(page);
  const hash = (text: string) => createHash("md5").update(text).digest("hex");
  const query = new URLSearchParams({
    oldPassword: hash("Meter#2026"),
    newPassword: hash("admin"),
    newPassword1: hash("admin"),
  });
  const restored = await fetch(`${suite.server.baseUrl}/api/blade-user/update-password?${query}`, {
    method: "POST",
    headers: apiHeaders(token ?? ""),
  });
  assert.equal(((await restored.json()) as { code: number }).code, 200);
});

import assert from "node:assert/strict";
import { test } from "node:test";
import { expectAccessible } from "./axe.ts";
import {
  clickRowAction,
  dialog,
  field,
  fieldErrors,
  openAddDialog,
  openResource,
  pick,
  rowsWith,
  settled,
  toast,
} from "./crud-helpers.ts";
import { useBrowserSuite } from "./harness.ts";

const suite = useBrowserSuite({ signedIn: true });

test("数据源: the server's own database connects; a host not allowed is refused under its field", async () => {
  const { page } = suite.session;
  const screen = await openResource(page, "/tool/datasource", "datasource");
  const own = rowsWith(screen, "本服务数据库").first();
  await clickRowAction(own, "row-datasource-test");
  await toast(page, "连接成功");

  await openAddDialog(screen);
  await field(page, "name").fill("探测库");
  await field(page, "url").fill("jdbc:postgresql://169.254.169.254:5432/latest");
  await field(page, "password").fill("pw-e2e-secret");
  await page.getByTestId("crud-dialog-ok").click();
  await page.waitForFunction(() => document.querySelector(".ant-form-item-explain-error") !== null);
  assert.match((await fieldErrors(page)).join(" "), /不允许连接 169\.254\.169\.254:5432/);
  await field(page, "url").fill("");
  await page.getByTestId("crud-dialog-ok").click();
  await dialog(page).waitFor({ state: "detached" });
  await settled(screen);
  const saved = rowsWith(screen, "探测库").first();
  await saved.waitFor();
  // The password is never shown in the table, nor sent back in clear.
  assert.ok(!((await screen.textContent()) ?? "").includes("pw-e2e-secret"));
});

test("代码生成: a definition from the form, copied, and its generation refused with the reason", async () => {
  const { page } = suite.session;
  const screen = await openResource(page, "/tool/code", "code");
  await openAddDialog(screen);
  await field(page, "codeName").fill("部件");
  await pick(page, "datasourceId", "本服务数据库");
  await field(page, "tableName").fill("lab_gadget");
  await field(page, "serviceName").fill("blade-lab");
  await page.getByTestId("crud-dialog-ok").click();
  await dialog(page).waitFor({ state: "detached" });
  await settled(screen);
  const row = rowsWith(screen, "lab_gadget").first();
  await row.waitFor();
  await clickRowAction(row, "row-code-copy");
  await rowsWith(screen, "部件-copy").first().waitFor();

  // The table does not exist in the data source: the reason is shown, nothing is downloaded.
  await clickRowAction(rowsWith(screen, "部件-copy").first(), "row-code-gen");
  await toast(page, "数据源中没有表 lab_gadget");

  // A resource that exists already is refused under the field it clashes on.
  await openAddDialog(screen);
  await field(page, "codeName").fill("电表");
  await pick(page, "datasourceId", "本服务数据库");
  await field(page, "tableName").fill("lab_meter");
  await field(page, "serviceName").fill("blade-lab");
  await field(page, "resourceName").fill("meter");
  await page.getByTestId("crud-dialog-ok").click();
  await page.waitForFunction(() => document.querySelector(".ant-form-item-explain-error") !== null);
  assert.match((await fieldErrors(page)).join(" "), /与已有资源 meter 重名/);
});

test("both screens read in English too, and pass the accessibility check", async () => {
  const { page } = suite.session;
  await page.evaluate(() =>
    localStorage.setItem("saber-language", JSON.stringify({ dataType: "string", content: "en" })),
  );
  for (const [path, resource, title] of [
    ["/tool/datasource", "datasource", "User name"],
    ["/tool/code", "code", "Resource name"],
  ] as const) {
    const screen = await openResource(page, path, resource);
    await screen.locator(".ant-table-thead", { hasText: title }).waitFor();
    await expectAccessible(page, `${path} en`);
  }
});

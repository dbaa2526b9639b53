import assert from "node:assert/strict";
import { test } from "node:test";
import { field, openAddDialog, openResource, rowsWith } from "./crud-helpers.ts";
import { textOf, useBrowserSuite } from "./harness.ts";
import { untranslated } from "./untranslated.ts";

const suite = useBrowserSuite({ signedIn: true });

test("运行控制 lists the message queue and the SMS records; an operator queues a message; English labels", async () => {
  const { page } = suite.session;
  const queue = await openResource(page, "/operation/messagequeue", "messageQueue");
  const form = await openAddDialog(queue);
  await field(page, "phone").fill("13900000009");
  await field(page, "templateParams").fill('{"name":"测试业主","room":"101","balance":"3.00"}');
  await form.getByRole("button", { name: /确\s*定|保\s*存|提\s*交/ }).click();
  // Queued, and (no SMS setting enabled for the platform tenant) failed with the reason shown.
  const row = rowsWith(queue, "13900000009");
  await row.waitFor();
  assert.match(await textOf(row), /待发送|发送失败/);

  const sms = await openResource(page, "/operation/sms", "smsRecord");
  await sms.locator(".ant-table-thead", { hasText: "服务商返回码" }).waitFor();

  // In English both screens and the add dialog carry no Chinese label outside their data.
  await page.evaluate(() =>
    localStorage.setItem("saber-language", JSON.stringify({ dataType: "string", content: "en" })),
  );
  for (const [path, resource, header] of [
    ["/operation/messagequeue", "messageQueue", "Next attempt"],
    ["/operation/sms", "smsRecord", "Provider code"],
  ] as const) {
    const screen = await openResource(page, path, resource);
    await screen.locator(".ant-table-thead", { hasText: header }).waitFor();
    await openAddDialog(screen);
    // The signed-in user's name (管理员) in the top bar is data.
    const labels = (await untranslated(page)).filter((label) => !label.includes("管理员"));
    assert.deepEqual(labels, [], path);
    await page.keyboard.press("Escape");
  }
  assert.deepEqual(suite.session.errors, []);
});

// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the assignee is a BPMN expression, ${…}
import assert from "node:assert/strict";
import { test } from "node:test";
import type { Page } from "playwright-core";
import { expectAccessible } from "./axe.ts";
import { toast } from "./crud-helpers.ts";
import { apiHeaders, storedToken, useBrowserSuite } from "./harness.ts";

const suite = useBrowserSuite({ signedIn: true });

const modeler = (page: Page) => page.getByTestId("flow-modeler");
const tasks = (page: Page) => modeler(page).locator(".djs-shape[data-element-id^='Activity_']");
const blank = (page: Page) => modeler(page).click({ position: { x: 500, y: 40 } });
const padEntry = (page: Page, action: string) =>
  modeler(page).locator(`.djs-context-pad [data-action="${action}"]`);

/**
 * Appends a task to the selected element from its context pad, names it as the label editor
 * opens, turns it into a user task through the replace menu and gives it its assignee.
 */
async function appendUserTask(page: Page, name: string): Promise<void> {
  const before = await tasks(page).count();
  await padEntry(page, "append.append-task").click();
  await modeler(page).locator(".djs-direct-editing-parent").waitFor();
  await page.keyboard.type(name);
  // A click on the empty canvas ends the label; the new task is then chosen again.
  await blank(page);
  await tasks(page).nth(before).click();
  await padEntry(page, "replace").click();
  await page.locator("[data-id='replace-with-user-task']").click();
  await page.getByTestId("flow-designer-assignee").fill("${taskUser}");
  await page.getByTestId("flow-designer-assignee").press("Enter");
  assert.equal(await page.getByTestId("flow-designer-name").inputValue(), name);
}

test("an operator designs a two-step model, saves and deploys it, and sees a running instance on its diagram", async () => {
  const { page } = suite.session;
  await page.goto("/flow/model");
  await page.getByTestId("flow-models").waitFor();
  await page.getByTestId("flow-model-create").click();
  await page.waitForURL((url) => url.pathname === "/flow/model/designer");
  await modeler(page).locator("[data-element-id='StartEvent_1']").click();

  // The modeler's own menus speak the console's language.
  assert.equal(await padEntry(page, "append.append-task").getAttribute("title"), "追加任务");
  await appendUserTask(page, "审核");
  await appendUserTask(page, "批准");
  await padEntry(page, "append.end-event").click();
  // Nothing selected: the panel names the process.
  await modeler(page).locator(".djs-shape[data-element-id^='Event_']").waitFor();
  await blank(page);
  await page.getByTestId("flow-designer-id").fill("PurchaseReview");
  await page.getByTestId("flow-designer-id").press("Enter");
  await page.getByTestId("flow-designer-name").fill("采购审核");
  await page.getByTestId("flow-designer-name").press("Enter");

  await page.getByTestId("flow-designer-unsaved").waitFor();
  await expectAccessible(page, "the designer");
  await page.getByTestId("flow-designer-save").click();
  await toast(page, "模型已保存");
  await page.waitForURL((url) => url.searchParams.has("id"));
  assert.equal(await page.getByTestId("flow-designer-unsaved").count(), 0);

  await page.getByTestId("flow-designer-deploy").click();
  await page.getByTestId("flow-deploy-form").waitFor();
  await page.getByTestId("flow-deploy-category").click();
  await page.locator(".ant-select-item-option", { hasText: "请假流程" }).click();
  await page.getByTestId("flow-deploy-ok").click();
  await toast(page, "部署成功");

  // The deployment is in the manager's list: a common definition of the category chosen.
  const base = suite.server.baseUrl;
  const headers = apiHeaders((await storedToken(page)) ?? "");
  const list = await (await fetch(`${base}/api/blade-flow/manager/list?size=100`, { headers })).json();
  const deployed = list.data.records.find((r: { key: string }) => r.key === "PurchaseReview");
  assert.equal(deployed?.category, "flow_1");
  assert.equal(deployed?.name, "采购审核");
  assert.equal(deployed?.tenantId, "");

  // The model list shows the saved model; its diagram is the definition as drawn.
  await page.goto("/flow/model");
  const row = page.getByTestId("flow-models").locator(".ant-table-row", { hasText: "PurchaseReview" });
  await row.waitFor();
  await expectAccessible(page, "screen /flow/model");
  await row.getByTestId("flow-model-diagram").click();
  await page.locator(".ant-modal [data-testid='process-diagram'] .djs-shape", { hasText: "批准" }).waitFor();
  await page.keyboard.press("Escape");
  // 设计 opens the saved diagram again, as it was drawn.
  await row.getByTestId("flow-model-design").click();
  await modeler(page).locator(".djs-shape", { hasText: "批准" }).waitFor();
  assert.equal(await tasks(page).count(), 2);

  // An instance started by the administrator waits at the first step, which the diagram marks.
  const userId = await page.evaluate(
    () =>
      (JSON.parse(localStorage.getItem("saber-userInfo") ?? "{}") as { content?: { user_id?: string } })
        .content?.user_id,
  );
  const started = await fetch(`${base}/api/blade-desk/process/leave/start-process`, {
    method: "POST",
    headers: { ...headers, "content-type": "application/json" },
    body: JSON.stringify({
      processDefinitionId: deployed.id,
      taskUser: userId,
      startTime: "2026-12-01 09:00:00",
      endTime: "2026-12-02 09:00:00",
      reason: "采购",
    }),
  });
  const instance = (await started.json()).data;
  assert.ok(instance?.processInstanceId, JSON.stringify(instance));

  await page.goto(`/flow/diagram?processInstanceId=${instance.processInstanceId}`);
  const diagram = page.getByTestId("process-diagram");
  const current = diagram.locator(".djs-shape.ml-flow-current");
  await current.waitFor();
  assert.equal(await current.count(), 1);
  assert.match((await current.textContent()) ?? "", /审核/);
  await diagram.locator(".djs-shape.ml-flow-done[data-element-id='StartEvent_1']").waitFor();
  assert.equal(await diagram.locator(".djs-shape.ml-flow-done", { hasText: "批准" }).count(), 0);
  assert.deepEqual(suite.session.errors, []);
});

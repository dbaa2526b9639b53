import assert from "node:assert/strict";
import { test } from "node:test";
import type { Page } from "playwright-core";
import { expectAccessible } from "./axe.ts";
import { apiHeaders, storedToken, textOf, useBrowserSuite } from "./harness.ts";
import { untranslated } from "./untranslated.ts";

const suite = useBrowserSuite({ signedIn: true });

async function startLeave(page: Page, taskUser: string): Promise<string> {
  const response = await page.request.post("/api/blade-desk/process/leave/start-process", {
    headers: apiHeaders((await storedToken(page)) ?? ""),
    data: { startTime: "2026-12-07 09:00:00", endTime: "2026-12-08 09:00:00", reason: "跟踪删除", taskUser },
  });
  const answer = (await response.json()) as {
    code: number;
    data: { processInstanceId: string };
    msg: string;
  };
  assert.equal(answer.code, 200, answer.msg);
  return answer.data.processInstanceId;
}

const REVIEW = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:flowable="http://flowable.org/bpmn" targetNamespace="e2e">
  <process id="Review" name="两步复核" isExecutable="true">
    <startEvent id="start"/>
    <sequenceFlow id="a" sourceRef="start" targetRef="check"/>
    <userTask id="check" name="复核" flowable:candidateGroups="manager"/>
    <sequenceFlow id="b" sourceRef="check" targetRef="end"/>
    <endEvent id="end"/>
  </process>
</definitions>`;

async function deploy(page: Page, name: string, content: string) {
  await page.goto("/flow/deploy");
  await page.locator("#category").click();
  await page.locator(".ant-select-dropdown:visible .ant-select-item-option", { hasText: "请假流程" }).click();
  await page
    .getByTestId("flow-deploy")
    .locator("input[type=file]")
    .setInputFiles({ name, mimeType: "application/xml", buffer: Buffer.from(content) });
  await page.getByTestId("deploy-submit").click();
}

test("流程部署 shows the parser's reason under the files; a deployed process is suspended, then deleted with cascade confirmed; 流程跟踪 ends an instance with a reason", async () => {
  const { page } = suite.session;
  await deploy(page, "broken.bpmn", "<definitions>");
  const reason = page.locator(".ant-form-item-explain-error", { hasText: "broken.bpmn" });
  await reason.waitFor();
  assert.match(await textOf(reason), /不是有效的 BPMN 文件/);

  await deploy(page, "review.bpmn20.xml", REVIEW);
  await page.locator(".ant-message-notice", { hasText: "部署成功" }).waitFor();
  await page.goto("/flow/manager");
  const row = page.locator('[data-testid="flow-manager"] tr', { hasText: "两步复核" });
  // 流程图 draws the deployed definition (resource-view's XML).
  await row.getByTestId("manager-image").click();
  const drawn = page.locator(".ant-modal .djs-shape", { hasText: "复核" });
  await drawn.waitFor();
  await page.keyboard.press("Escape");
  await drawn.waitFor({ state: "detached" });
  await row.getByTestId("manager-state").click();
  await row.locator(".ant-tag", { hasText: "挂起" }).waitFor();
  await row.getByTestId("manager-remove").click();
  await page.getByTestId("remove-cascade").check();
  await page.getByTestId("remove-ok").click();
  await row.waitFor({ state: "detached" });

  // 流程跟踪 ends a running leave with a reason; without one it does not.
  const me = await page.evaluate(
    () =>
      (JSON.parse(localStorage.getItem("saber-userInfo") ?? "{}") as { content?: { user_id?: string } })
        .content?.user_id,
  );
  const instanceId = await startLeave(page, me ?? "");
  await page.goto("/flow/follow");
  const running = page.locator('[data-testid="flow-follow"] tr', { hasText: instanceId });
  await running.getByTestId("follow-delete").click();
  await page.locator(".ant-modal-footer .ant-btn-primary").click();
  await page.locator(".ant-form-item-explain-error", { hasText: "请填写删除原因" }).waitFor();
  await page.getByTestId("follow-reason").fill("重复申请");
  await page.locator(".ant-modal-footer .ant-btn-primary").click();
  await running.waitFor({ state: "detached" });
  assert.deepEqual(suite.session.errors, []);
});

test("every workflow screen in English: no Chinese label outside data, no serious accessibility violation", async () => {
  const { page } = suite.session;
  await page.evaluate(() =>
    localStorage.setItem("saber-language", JSON.stringify({ dataType: "string", content: "en" })),
  );
  for (const [path, testId] of [
    ["/work/start", "work-page"],
    ["/work/claim", "work-page"],
    ["/work/todo", "work-page"],
    ["/work/send", "work-page"],
    ["/work/done", "work-page"],
    ["/flow/deploy", "flow-deploy"],
    ["/flow/manager", "flow-manager"],
    ["/flow/follow", "flow-follow"],
  ] as const) {
    await page.goto(path);
    await page.getByTestId(testId).waitFor();
    await page.waitForLoadState("networkidle");
    // The signed-in user's name (管理员) in the top bar is data.
    assert.deepEqual(
      (await untranslated(page)).filter((label) => !label.includes("管理员")),
      [],
      path,
    );
    await expectAccessible(page, path);
  }
  await page.goto("/work/start");
  await page.locator('[data-list="start"] tr', { hasText: "Leave" }).getByTestId("work-start").click();
  await page.getByTestId("leave-form").waitFor();
  assert.deepEqual(
    (await untranslated(page)).filter((label) => !label.includes("管理员")),
    [],
    "leave form",
  );
  await expectAccessible(page, "leave form");
});

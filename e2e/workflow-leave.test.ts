import assert from "node:assert/strict";
import { test } from "node:test";
import type { Page } from "playwright-core";
import { expectAccessible } from "./axe.ts";
import { apiHeaders, openSession, signIn, storedToken, textOf, useBrowserSuite } from "./harness.ts";
import { untranslated } from "./untranslated.ts";

const suite = useBrowserSuite({ signedIn: true });

/** 我的事务 and its todo / claim / detail buttons (seed 035): what a department leader needs. */
const WORK_MENU_IDS = ["1801", "1802", "1803", "1804", "1805", "1806", ...range(1812, 1821)];

function range(from: number, to: number): string[] {
  return Array.from({ length: to - from + 1 }, (_, i) => String(from + i));
}

async function call(page: Page, token: string, path: string, body: unknown) {
  const response = await page.request.post(path, { headers: apiHeaders(token), data: body });
  const answer = (await response.json()) as { code: number; data: { id?: string }; msg: string };
  assert.equal(answer.code, 200, `${path}: ${answer.msg}`);
  return answer.data;
}

/** A leader of the platform's department: role alias `manager`, granted 我的事务. */
async function addLeader(page: Page, token: string) {
  const role = await call(page, token, "/api/blade-system/role/submit", {
    roleName: "部门经理",
    roleAlias: "manager",
  });
  await call(page, token, "/api/blade-system/role/grant", {
    roleIds: [role.id],
    menuIds: WORK_MENU_IDS,
    dataScopeIds: [],
    apiScopeIds: [],
  });
  await call(page, token, "/api/blade-user/submit", {
    account: "leader",
    password: "Leader-pw1",
    name: "王经理",
    realName: "王经理",
    roleId: role.id,
    deptId: "1",
  });
}

async function pickTime(page: Page, testId: string, value: string) {
  const input = page.locator(`input[data-testid="${testId}"], [data-testid="${testId}"] input`).first();
  await input.click();
  await input.fill(value);
  await input.press("Enter");
}

test("a 2-day leave: applied from the form, approved by the department leader from 待办, steps in the detail", async () => {
  const { page } = suite.session;
  const token = (await storedToken(page)) ?? "";
  await addLeader(page, token);

  // The administrator starts the leave process from 发起事务.
  await page.goto("/work/start");
  const leaveRow = page.locator('[data-list="start"] tr', { hasText: "请假流程" });
  await leaveRow.getByTestId("work-start").click();
  await page.getByTestId("leave-form").waitFor();
  await pickTime(page, "leave-start", "2026-12-01 09:00:00");
  await pickTime(page, "leave-end", "2026-12-03 09:00:00");
  assert.equal(await textOf(page.getByTestId("leave-days")), "2");
  await page.getByTestId("leave-reason").fill("回家探亲");
  await page.getByTestId("leave-submit").click();
  await page.locator('[data-list="send"] tr', { hasText: "请假流程" }).waitFor();

  // The department's leader is a candidate: claims it in 待签事务, then the badge counts one task,
  // opens 待办事务 and approves with a comment.
  const leader = await openSession(suite.browser, suite.server.baseUrl);
  try {
    await signIn(leader.page, { tenantId: "000000", username: "leader", password: "Leader-pw1" });
    await leader.page.locator('[data-testid="todo-badge"][data-count="0"]').waitFor();
    await leader.page.goto("/work/claim");
    await leader.page
      .locator('[data-list="claim"] tr', { hasText: "部门审批" })
      .getByTestId("work-claim")
      .click();
    await leader.page.locator('[data-testid="todo-badge"][data-count="1"]').waitFor();
    await leader.page.getByTestId("todo-button").click();
    await leader.page
      .locator('[data-list="todo"] tr', { hasText: "部门审批" })
      .getByTestId("work-handle")
      .click();
    await leader.page.getByTestId("leave-handle").waitFor();
    assert.match(await textOf(leader.page.getByTestId("leave-summary")), /回家探亲/);
    await leader.page.getByTestId("leave-comment").fill("同意，注意安全");
    await leader.page.getByTestId("leave-pass").click();
    await leader.page.locator('[data-list="todo"]').waitFor();
    await leader.page.locator('[data-testid="todo-badge"][data-count="0"]').waitFor();
    assert.deepEqual(leader.errors, []);
  } finally {
    await leader.context.close();
  }

  // The requester's detail shows the start and the leader's approval with the comment.
  await page.goto("/work/send");
  await page.locator('[data-list="send"] tr', { hasText: "请假流程" }).getByTestId("work-detail").click();
  const steps = page.getByTestId("flow-steps");
  const approval = steps.locator("tr", { hasText: "部门审批" });
  await approval.waitFor();
  assert.match(await textOf(approval), /王经理/);
  assert.match(await textOf(approval), /同意，注意安全/);
  assert.ok((await steps.locator("tbody tr", { hasText: "开始" }).count()) === 1, "the start is a step");
  assert.equal(await textOf(page.getByTestId("leave-days")), "2");
  assert.deepEqual(suite.session.errors, []);
});

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

test("流程部署 shows the parser's reason under the files; a deployed process is suspended, then deleted with cascade confirmed", async () => {
  const { page } = suite.session;
  await deploy(page, "broken.bpmn", "<definitions>");
  const reason = page.locator(".ant-form-item-explain-error", { hasText: "broken.bpmn" });
  await reason.waitFor();
  assert.match(await textOf(reason), /不是有效的 BPMN 文件/);

  await deploy(page, "review.bpmn20.xml", REVIEW);
  await page.locator(".ant-message-notice", { hasText: "部署成功" }).waitFor();
  await page.goto("/flow/manager");
  const row = page.locator('[data-testid="flow-manager"] tr', { hasText: "两步复核" });
  await row.getByTestId("manager-state").click();
  await row.locator(".ant-tag", { hasText: "挂起" }).waitFor();
  await row.getByTestId("manager-remove").click();
  await page.getByTestId("remove-cascade").check();
  await page.getByTestId("remove-ok").click();
  await row.waitFor({ state: "detached" });
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

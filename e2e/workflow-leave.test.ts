import assert from "node:assert/strict";
import { test } from "node:test";
import type { Page } from "playwright-core";
import { apiHeaders, openSession, signIn, storedToken, textOf, useBrowserSuite } from "./harness.ts";

const suite = useBrowserSuite({ signedIn: true });

/** 我的事务 and its todo / claim / detail buttons (seed 035): what a department leader needs. */
const WORK_MENU_IDS = ["1801", "1802", "1803", "1804", "1805", "1806", ...range(1812, 1821)];

function range(from: number, to: number): string[] {
  return Array.from({ length: to - from + 1 }, (_, i) => String(from + i));
}

async function call(page: Page, token: string, path: string, body: unknown): Promise<{ id: string }> {
  const response = await page.request.post(path, { headers: apiHeaders(token), data: body });
  const answer = (await response.json()) as { code: number; data: { id: string }; msg: string };
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
  // The picker commits on Enter and closes; the next field is touched only once it has.
  await page.locator(".ant-picker-dropdown:visible").waitFor({ state: "hidden" });
  const committed = await input.inputValue();
  assert.equal(committed, value, `${testId} holds the time typed`);
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
  await page.locator('[data-testid="leave-days"]', { hasText: /^2$/ }).waitFor();
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
  // The diagram beside the steps marks the approval the leader has done.
  const diagram = page.getByTestId("leave-diagram");
  await diagram.locator(".djs-shape.ml-flow-done", { hasText: "部门审批" }).waitFor();
  assert.equal(await diagram.locator(".djs-shape.ml-flow-current").count(), 0);
  // 跟踪 in the sent list opens the same instance's diagram page.
  await page.goto("/work/send");
  await page.locator('[data-list="send"] tr', { hasText: "请假流程" }).getByTestId("work-follow").click();
  await page
    .getByTestId("process-diagram")
    .locator(".djs-shape.ml-flow-done", { hasText: "部门审批" })
    .waitFor();
  assert.deepEqual(suite.session.errors, []);
});

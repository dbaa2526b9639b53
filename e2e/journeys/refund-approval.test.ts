import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import type { Browser, Page } from "playwright-core";
import { expectAccessible } from "../axe.ts";
import {
  launchBrowser,
  openSession,
  type RunningServer,
  type Session,
  signIn,
  startServer,
  textOf,
} from "../harness.ts";
import { seedMoneySite } from "../money-helpers.ts";
import { call, chooseOption, newOperator, type Operator, signInOperator } from "../registry-helpers.ts";

/**
 * A refund above the tenant's approval threshold, through the console only: the tenant's
 * administrator sets the threshold on 资金审批设置, refunds above it at the counter (已提交审批), a
 * second person of the approver role finds it in the bell and in 待办, reads what is asked on the
 * handle page and approves it with a comment; the refund is booked and its receipt reprinted from
 * 充值记录. Another is rejected and books nothing. Once in Chinese, once in English; axe on every
 * step. The API is asked only afterwards, to see what the server booked.
 */

let server: RunningServer;
let browser: Browser;
let operator: Operator;
let accountId: string;
const OWNER = "审批业主";
const PHONE = "13900003434";
const METER = "000000003434";
const approver = { username: "approver", password: "Approver-pw1", name: "钱审批" };

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
  // The site and the second person are set up beforehand; the story itself is the console's.
  operator = await newOperator(server.baseUrl, "审批花园物业");
  const site = await seedMoneySite(server.baseUrl, operator, {
    rooms: 1,
    firstCode: Number(METER),
    ownerName: OWNER,
    phone: PHONE,
  });
  const opened = await call<{ accountId: string }[]>(
    server.baseUrl,
    operator.token,
    "/api/blade-pms/message/openAccount",
    { body: { meterId: site.meters[0]!.id, deposit: "2000.00" } },
  );
  accountId = opened[0]!.accountId;
  const roles = await call<{ id: string; roleAlias: string }[]>(
    server.baseUrl,
    operator.token,
    "/api/blade-system/role/list",
  );
  const admin = roles.find((role) => role.roleAlias === "admin");
  assert.ok(admin, "the tenant's administrator role");
  const depts = await call<{ id: string }[]>(server.baseUrl, operator.token, "/api/blade-system/dept/list");
  await call(server.baseUrl, operator.token, "/api/blade-user/submit", {
    body: {
      account: approver.username,
      password: approver.password,
      name: approver.name,
      realName: approver.name,
      roleId: admin.id,
      deptId: depts[0]!.id,
    },
  });
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

interface Words {
  search: string;
  policy: string;
  saved: string;
  held: string;
  refund: string;
  amount: string;
  reason: string;
  passed: string;
  rejected: string;
  kind: string;
}

const zh: Words = {
  search: "查找业主、房间或表计",
  policy: "资金审批设置",
  saved: "已保存",
  held: "已提交审批",
  refund: "退费",
  amount: "金额",
  reason: "原因",
  passed: "已同意,已入账",
  rejected: "已驳回,未入账",
  kind: "柜台退款",
};
const en: Words = {
  search: "Find an owner, room or meter",
  policy: "Money approvals",
  saved: "Saved",
  held: "Submitted for approval",
  refund: "Refund",
  amount: "Amount",
  reason: "Reason",
  passed: "Approved: booked",
  rejected: "Rejected: nothing booked",
  kind: "Counter refund",
};

/** Opens a screen of 收费管理 from the side menu, as an operator does. */
async function openMoneyScreen(page: Page, code: string): Promise<void> {
  const sidebar = page.getByTestId("sidebar");
  const entry = sidebar.locator(`[data-testid="menu-item"][data-code="${code}"]`);
  if (!(await entry.isVisible()))
    await sidebar.locator('[data-testid="menu-group"][data-code="money"]').click();
  await entry.click();
}

/** The tenant's administrator sets the threshold and the approver role on 资金审批设置. */
async function setThreshold(page: Page, words: Words, threshold: string): Promise<void> {
  await openMoneyScreen(page, "moneyPolicy");
  const screen = page.getByTestId("money-policy");
  await screen.waitFor();
  await expectAccessible(page, "money policy");
  const input = screen.getByTestId("money-policy-threshold");
  await input.fill(threshold);
  await chooseOption(page, screen.getByTestId("money-policy-role"), "(admin)", false);
  await screen.getByTestId("money-policy-save").click();
  await page.locator(".ant-message-notice", { hasText: words.saved }).first().waitFor();
  await screen.locator(`[data-testid="money-policy-state"][data-threshold="${threshold}"]`).waitFor();
  await expectAccessible(page, "money policy saved");
}

/** A refund at the counter that the threshold holds: the counter says 已提交审批. */
async function refundAtCounter(page: Page, words: Words, amount: string, reason: string): Promise<string> {
  await openMoneyScreen(page, "ownerRecharge");
  const counter = page.getByTestId("counter-page");
  const search = counter.getByLabel(words.search);
  await search.fill(PHONE);
  await search.press("Enter");
  await counter.getByTestId("counter-owner").filter({ hasText: OWNER }).click();
  const account = counter.getByTestId("counter-accounts").locator(".ant-table-row", { hasText: METER });
  await account.getByTestId("counter-refund").click();
  const form = page.getByTestId("counter-form");
  await form.getByLabel(words.amount).fill(amount);
  await form.getByLabel(words.reason).fill(reason);
  await page.getByTestId("counter-submit").click();
  await page.getByTestId("counter-confirm-ok").click();
  const held = page.getByTestId("counter-approval");
  await held.waitFor();
  const said = await textOf(held);
  assert.match(said, new RegExp(words.held));
  const receiptNo = /R\d{10,}/.exec(said)?.[0];
  assert.ok(receiptNo, "the counter names the receipt number");
  await expectAccessible(page, "refund held for approval");
  await page.getByTestId("counter-submit").click();
  await held.waitFor({ state: "detached" });
  return receiptNo;
}

/** What the handle page shows of the request: amount, owner, room, requester, reason. */
async function readRequest(page: Page, words: Words, amount: string, reason: string): Promise<void> {
  const handle = page.getByTestId("approval-handle");
  await handle.waitFor();
  await handle.locator('[data-testid="flow-steps"] .ant-table-row').first().waitFor();
  assert.equal(await textOf(handle.getByTestId("approval-kind")), words.kind);
  assert.equal(await textOf(handle.getByTestId("approval-amount")), amount);
  assert.equal(await textOf(handle.getByTestId("approval-owner")), OWNER);
  assert.match(await textOf(handle.getByTestId("approval-room")), /收费园区 M101/);
  assert.ok((await textOf(handle.getByTestId("approval-requester"))).length > 0, "the requester is named");
  assert.equal(await textOf(handle.getByTestId("approval-reason")), reason);
  await expectAccessible(page, "approval handle page");
}

async function decide(page: Page, words: Words, pass: boolean, comment: string): Promise<void> {
  const handle = page.getByTestId("approval-handle");
  await handle.getByTestId("approval-comment").fill(comment);
  await handle.getByTestId(pass ? "approval-pass" : "approval-reject").click();
  await page
    .locator(".ant-message-notice", { hasText: pass ? words.passed : words.rejected })
    .first()
    .waitFor();
  await page.locator('[data-list="todo"]').waitFor();
  await expectAccessible(page, "after deciding");
}

/** The held refund of `amount` as the server keeps it (asked only after the story). */
async function refundRow(
  amount: string,
): Promise<{ id: string; state: number; receiptNo: string; balanceAfter: string }> {
  const page = await call<{
    records: { id: string; state: number; amount: string; receiptNo: string; balanceAfter: string }[];
  }>(server.baseUrl, operator.token, "/api/blade-pms/datarecharge/page", {
    query: { accountId, rechargeType: "2", current: "1", size: "50" },
  });
  const row = page.records.find((r) => r.amount === amount);
  assert.ok(row, `the refund of ${amount} is listed`);
  return row;
}

async function balance(): Promise<string> {
  const detail = await call<{ records: { accounts: { id: string; balance: string }[] }[] }>(
    server.baseUrl,
    operator.token,
    "/api/blade-pms/ownerRecharge/page",
    { query: { keyword: PHONE } },
  );
  return detail.records[0]!.accounts.find((a) => a.id === accountId)!.balance;
}

async function journey(
  requester: Session,
  second: Session,
  words: Words,
  amounts: { pass: string; reject: string },
) {
  const page = requester.page;
  await setThreshold(page, words, "100.00");

  // Approved: the second person finds it in the bell and opens the handle page from there.
  const before = await balance();
  const receiptNo = await refundAtCounter(page, words, amounts.pass, `${words.refund} A`);
  assert.equal(await balance(), before, "nothing booked while it waits");
  const other = second.page;
  await other.reload();
  await other.getByTestId("notice-button").click();
  const notice = other.getByTestId("approval-notice").filter({ hasText: amounts.pass });
  await notice.waitFor();
  await expectAccessible(other, "bell with the approval");
  await notice.getByTestId("approval-notice-open").click();
  await readRequest(other, words, amounts.pass, `${words.refund} A`);
  await decide(other, words, true, words === zh ? "核实无误,同意" : "Checked, approved");

  const booked = await refundRow(amounts.pass);
  assert.equal(booked.state, 1, "booked once approved");
  assert.equal(
    Number(before) - Number(await balance()),
    Number(amounts.pass),
    "the balance fell by the refund, once",
  );

  // The receipt of the approved refund, found in 充值记录 by the number the counter gave, reprinted.
  assert.equal(booked.receiptNo, receiptNo);
  await openMoneyScreen(page, "dataRecharge");
  const list = page.locator('[data-testid="money-list"][data-list="recharges"]:visible');
  await list.getByTestId("money-search-receiptNo").fill(receiptNo);
  await list.getByTestId("money-search-submit").click();
  const row = list.locator(".ant-table-row", { hasText: receiptNo });
  await row.getByTestId("recharge-reprint").click();
  const receipt = page.getByTestId("counter-receipt");
  await receipt.waitFor();
  assert.equal(await textOf(receipt.getByTestId("receipt-no")), booked.receiptNo);
  assert.equal(await textOf(receipt.getByTestId("receipt-amount")), amounts.pass);
  await expectAccessible(page, "reprinted receipt");
  await page.getByTestId("counter-receipt-close").click();

  // Rejected: found in 待签 then 待办, its 详情 opens, and rejecting books nothing.
  const kept = await balance();
  await refundAtCounter(page, words, amounts.reject, `${words.refund} B`);
  await other.getByTestId("sidebar").waitFor();
  await other.goto("/work/claim");
  const claim = other.locator('[data-list="claim"] .ant-table-row').first();
  await claim.getByTestId("work-claim").click();
  await other.locator('[data-testid="todo-badge"][data-count="1"]').waitFor();
  await other.getByTestId("todo-button").click();
  const todo = other.locator('[data-list="todo"] .ant-table-row').first();
  await todo.waitFor();
  await expectAccessible(other, "todo list with the approval");
  await todo.getByTestId("work-detail").click();
  const detail = other.getByTestId("approval-detail");
  await detail.waitFor();
  assert.equal(await textOf(detail.getByTestId("approval-amount")), amounts.reject);
  await expectAccessible(other, "approval detail page");
  await other.getByTestId("todo-button").click();
  await other.locator('[data-list="todo"] .ant-table-row').first().getByTestId("work-handle").click();
  await readRequest(other, words, amounts.reject, `${words.refund} B`);
  await decide(other, words, false, words === zh ? "金额有误" : "Wrong amount");

  const rejected = await refundRow(amounts.reject);
  assert.equal(rejected.state, 4, "rejected: not booked");
  assert.equal(await balance(), kept, "nothing moved");
}

async function toEnglish(session: Session): Promise<void> {
  await session.page.getByTestId("language-switch").click();
  await session.page.getByTestId("language-en").click();
  await session.page.waitForFunction(() => document.documentElement.lang === "en");
}

test("a refund above the threshold waits for a second person, who approves (booked, receipt reprinted) or rejects (nothing booked)", async () => {
  const requester = await openSession(browser, server.baseUrl);
  const second = await openSession(browser, server.baseUrl);
  try {
    await signInOperator(requester.page, operator);
    await signIn(second.page, { tenantId: operator.tenantId, ...approver });
    await journey(requester, second, zh, { pass: "150.00", reject: "120.00" });

    // The same story in English.
    await toEnglish(requester);
    await toEnglish(second);
    await journey(requester, second, en, { pass: "160.00", reject: "130.00" });
    assert.deepEqual([...requester.errors, ...second.errors], [], "no page error");
    assert.deepEqual([...requester.cspViolations, ...second.cspViolations], []);
  } finally {
    await requester.context.close();
    await second.context.close();
  }
});

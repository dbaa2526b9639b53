import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { nextId } from "../src/db/ids.ts";
import { addUser, provisionTenant } from "./fixtures.ts";
import { startTestServer, type TestServer } from "./helpers.ts";
import { buildSite, created } from "./registry-fixtures.ts";

const pms = "/api/blade-pms";
const FLOW = "/api/blade-flow";

describe("money approvals: refunds and corrections minus above the tenant's threshold", () => {
  let server: TestServer;
  let tenant: Awaited<ReturnType<typeof provisionTenant>>;
  let accountId: string;
  let platform: string;
  const token: Record<string, string> = {};

  const as = (who: string) => token[who] ?? tenant.token;
  const submit = (body: Record<string, unknown>, who = "requester") =>
    server.call("POST", `${pms}/datarecharge/submit`, as(who), { accountId, ...body });
  const records = async (who: string, url: string) => {
    const res = await server.call("GET", url, as(who));
    assert.equal(res.statusCode, 200, res.body);
    return res.json().data.records as Record<string, unknown>[];
  };
  const taskIn = async (who: string, list: "todo-list" | "claim-list", instanceId: string) =>
    (await records(who, `${FLOW}/work/${list}`)).find((r) => r.processInstanceId === instanceId);
  const balance = async () =>
    (
      await server.db.query<{ balance: string }>(
        "select balance::text as balance from pms_account where id = $1",
        [accountId],
      )
    )[0]!.balance;
  const ledgerOf = (rechargeId: string) =>
    server.db.query<{ entry_type: number; amount: string }>(
      "select entry_type, amount::text as amount from pms_ledger where recharge_id = $1",
      [rechargeId],
    );
  const ledgerCount = async () =>
    Number(
      (
        await server.db.query<{ n: string }>(
          "select count(*)::text as n from pms_ledger where account_id = $1",
          [accountId],
        )
      )[0]!.n,
    );
  /** The tenant's own value of a parameter, as its administrator would set it. */
  const setParam = async (key: string, value: string) => {
    await server.db.query("delete from sys_param where tenant_id = $1 and param_key = $2", [
      tenant.tenantId,
      key,
    ]);
    await server.db.query(
      `insert into sys_param (id, tenant_id, platform_wide, param_name, param_key, param_value)
       values ($1, $2, 0, $3, $3, $4)`,
      [nextId(), tenant.tenantId, key, value],
    );
  };
  /** Submits, checks the answer is "waiting for approval", and returns the ids. */
  const held = async (body: Record<string, unknown>) => {
    const res = await submit(body);
    assert.equal(res.statusCode, 200, res.body);
    assert.match(res.json().msg, /已提交审批/);
    const data = res.json().data as { id: string; state: number; processInstanceId: string };
    assert.equal(data.state, 3);
    assert.match(data.processInstanceId, /^\d+$/);
    return data;
  };
  const claimAndComplete = async (who: string, instanceId: string, body: Record<string, unknown>) => {
    const task = await taskIn(who, "claim-list", instanceId);
    assert.ok(task, `${who} may claim`);
    const claimed = await server.call("POST", `${FLOW}/work/claim-task?taskId=${task.taskId}`, as(who));
    assert.equal(claimed.statusCode, 200, claimed.body);
    return server.call("POST", `${FLOW}/work/complete-task`, as(who), { taskId: task.taskId, ...body });
  };

  before(async () => {
    server = await startTestServer();
    platform = (await server.login()).access_token;
    tenant = await provisionTenant(server, platform, "审批物业");
    token.requester = tenant.token;
    // Two more holders of the tenant's administrator role (the default approver role).
    for (const account of ["approver1", "approver2"]) {
      await addUser(server.db, {
        tenantId: tenant.tenantId,
        account,
        password: "Secret#2026",
        roleIds: [tenant.roleId],
      });
      token[account] = (await server.login(account, "Secret#2026", tenant.tenantId)).access_token;
    }
    const site = await buildSite(server, tenant.token);
    const scheme = await created(server, tenant.token, "chargingscheme/submit", {
      schemeName: "居民电价",
      energyType: 1,
      priceMode: 1,
      price: "0.5883",
    });
    await created(server, tenant.token, "meter/submit", {
      id: site.meter,
      productCode: "100000000101",
      collectorId: site.collector,
      controlStatus: 1,
      chargingSchemeId: scheme,
    });
    const opened = await server.call("POST", `${pms}/message/openAccount`, tenant.token, {
      meterId: site.meter,
      deposit: "1000.00",
    });
    assert.equal(opened.statusCode, 200, opened.body);
    accountId = opened.json().data[0].accountId;
  });
  after(() => server.close());

  test("without a threshold, and at or below it, a refund books at once", async () => {
    const free = await submit({ rechargeType: 2, amount: "500.00" });
    assert.equal(free.statusCode, 200, free.body);
    assert.equal(free.json().data.state, 1);
    assert.equal(await balance(), "50000");
    await setParam("money.approval.threshold", "100.00");
    const atLimit = await submit({ rechargeType: 2, amount: "100.00" });
    assert.equal(atLimit.statusCode, 200, atLimit.body);
    assert.equal(atLimit.json().msg, "入账成功");
    assert.equal(await balance(), "40000");
    assert.deepEqual(await ledgerOf(atLimit.json().data.id), [{ entry_type: 3, amount: "-10000" }]);
  });

  test("a refund above the threshold waits; a second person approves; it books once", async () => {
    const before = await ledgerCount();
    const { id, processInstanceId } = await held({ rechargeType: 2, amount: "100.01" });
    assert.equal(await balance(), "40000", "nothing booked while waiting");
    assert.equal(await ledgerCount(), before);

    // The requester follows it in the sent list; the approvers see it; the requester cannot take it.
    const sent = (await records("requester", `${FLOW}/work/send-list`)).find(
      (r) => r.processInstanceId === processInstanceId,
    );
    assert.equal(sent?.processIsFinished, "unfinished");
    assert.equal(sent?.businessTable, "pms_recharge");
    assert.equal(sent?.businessId, id);
    assert.equal(await taskIn("requester", "claim-list", processInstanceId), undefined);
    const task = await taskIn("approver1", "claim-list", processInstanceId);
    assert.ok(task);
    assert.ok(await taskIn("approver2", "claim-list", processInstanceId));
    const own = await server.call("POST", `${FLOW}/work/claim-task?taskId=${task.taskId}`, as("requester"));
    assert.equal(own.statusCode, 403);

    // Two approvers race for it: one claims; the claimer's two completes at once book once.
    const claims = await Promise.all(
      ["approver1", "approver2"].map((who) =>
        server.call("POST", `${FLOW}/work/claim-task?taskId=${task.taskId}`, as(who)),
      ),
    );
    assert.deepEqual(claims.map((c) => c.statusCode).sort(), [200, 409]);
    const winner = claims[0]!.statusCode === 200 ? "approver1" : "approver2";
    assert.ok(await taskIn(winner, "todo-list", processInstanceId), "in the approver's todo list");
    const completes = await Promise.all(
      [1, 2].map(() =>
        server.call("POST", `${FLOW}/work/complete-task`, as(winner), {
          taskId: task.taskId,
          flag: "ok",
          comment: "同意",
        }),
      ),
    );
    assert.deepEqual(completes.map((c) => c.statusCode).sort(), [200, 409]);
    assert.equal(await balance(), "29999");
    assert.deepEqual(await ledgerOf(id), [{ entry_type: 3, amount: "-10001" }]);
    assert.equal(await ledgerCount(), before + 1);

    const detail = await server.call("GET", `${pms}/datarecharge/detail?id=${id}`, tenant.token);
    assert.equal(detail.json().data.state, 1);
    assert.equal(detail.json().data.balanceAfter, "299.99");
    const finished = (await records("requester", `${FLOW}/work/send-list`)).find(
      (r) => r.processInstanceId === processInstanceId,
    );
    assert.equal(finished?.processIsFinished, "finished");
  });

  test("a rejected correction minus books nothing and shows the reason", async () => {
    const before = await ledgerCount();
    const { id, processInstanceId } = await held({ rechargeType: 4, amount: "250", remark: "抄表错误冲减" });
    const rejected = await claimAndComplete("approver2", processInstanceId, {
      flag: "no",
      comment: "金额有误",
    });
    assert.equal(rejected.statusCode, 200, rejected.body);
    assert.equal(await balance(), "29999");
    assert.equal(await ledgerCount(), before);
    assert.deepEqual(await ledgerOf(id), []);
    const detail = (await server.call("GET", `${pms}/datarecharge/detail?id=${id}`, tenant.token)).json()
      .data;
    assert.equal(detail.state, 4);
    assert.equal(detail.approvalNote, "金额有误");
    assert.equal(detail.processInstanceId, processInstanceId);
  });

  test("with no one but the requester to approve, the refund is refused and nothing is kept", async () => {
    await setParam("money.approval.role", "nobody");
    const before = await ledgerCount();
    const res = await submit({ rechargeType: 2, amount: "200", idempotencyKey: "refund-nobody-01" });
    assert.equal(res.statusCode, 400, res.body);
    assert.match(res.json().msg, /^amount: .*审批人/);
    assert.equal(await ledgerCount(), before);
    const [row] = await server.db.query(
      "select 1 from pms_recharge where idempotency_key = 'refund-nobody-01'",
    );
    assert.equal(row, undefined);
    // A recharge (money in) never waits.
    const recharge = await submit({ rechargeType: 1, amount: "500" });
    assert.equal(recharge.json().data.state, 1);
  });

  test("the approval process is started by the money module only", async () => {
    const startable = await records("approver1", `${FLOW}/work/start-list`);
    assert.ok(startable.some((r) => r.key === "Leave"));
    assert.ok(!startable.some((r) => r.key === "MoneyApproval"));
    const [definition] = await server.db.query<{ id: string }>(
      "select id from wf_definition where def_key = 'MoneyApproval' and tenant_id = ''",
    );
    const [other] = await server.db.query<{ id: string }>(
      "select id::text as id from sys_user where tenant_id = $1 and account = 'approver2'",
      [tenant.tenantId],
    );
    const byHand = await server.call("POST", "/api/blade-desk/process/leave/start-process", as("approver1"), {
      startTime: "2026-12-01 09:00:00",
      endTime: "2026-12-02 09:00:00",
      reason: "绕过审批",
      processDefinitionId: definition!.id,
      taskUser: other!.id,
    });
    assert.equal(byHand.statusCode, 400, byHand.body);
    assert.match(byHand.json().msg, /^processDefinitionId: .*不能手动发起/);
  });

  test("an approval ended by hand, or with its deployment, rejects the held refund with the reason", async () => {
    const before = await ledgerCount();
    await setParam("money.approval.role", "admin");
    const first = await held({ rechargeType: 2, amount: "101" });
    const deleted = await server.call("POST", `${FLOW}/follow/delete-process-instance`, platform, {
      processInstanceId: first.processInstanceId,
      deleteReason: "重复申请",
    });
    assert.equal(deleted.statusCode, 200, deleted.body);
    const firstRow = (
      await server.call("GET", `${pms}/datarecharge/detail?id=${first.id}`, tenant.token)
    ).json().data;
    assert.equal(firstRow.state, 4);
    assert.equal(firstRow.approvalNote, "审批流程已删除: 重复申请");

    const second = await held({ rechargeType: 2, amount: "102" });
    const [definition] = await server.db.query<{ deployment_id: string }>(
      "select deployment_id::text as deployment_id from wf_definition where def_key = 'MoneyApproval' and tenant_id = ''",
    );
    const removed = await server.call(
      "POST",
      `${FLOW}/manager/delete-deployment?deploymentIds=${definition!.deployment_id}&cascade=true`,
      platform,
    );
    assert.equal(removed.statusCode, 200, removed.body);
    const secondRow = (
      await server.call("GET", `${pms}/datarecharge/detail?id=${second.id}`, tenant.token)
    ).json().data;
    assert.equal(secondRow.state, 4);
    assert.match(secondRow.approvalNote, /部署已删除/);
    assert.equal(await ledgerCount(), before);
    assert.equal(await balance(), "79999");
  });
});

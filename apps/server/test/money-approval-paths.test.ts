import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { WxpayDouble } from "../src/modules/wxpay/double/wxpay-double.ts";
import { addUser, provisionTenant } from "./fixtures.ts";
import { startTestServer, type TestServer } from "./helpers.ts";
import { buildSite, created } from "./registry-fixtures.ts";
import { doubleConfig, testMerchant } from "./wxpay-fixtures.ts";

const pms = "/api/blade-pms";
const FLOW = "/api/blade-flow";

/**
 * The tenant's money policy (资金审批设置) and the approval on every path money leaves by: the
 * counter's correction minus, a closing's refund, a WeChat Pay refund, and group operations. Each
 * held one books nothing until a second person approves (then once), and nothing on rejection.
 */
describe("money policy and approvals on every money-out path", () => {
  let server: TestServer;
  let tenant: Awaited<ReturnType<typeof provisionTenant>>;
  let other: Awaited<ReturnType<typeof provisionTenant>>;
  let site: Awaited<ReturnType<typeof buildSite>>;
  let accountId: string;
  let closingMeter: string;
  let group: string;
  const token: Record<string, string> = {};
  const double = new WxpayDouble();
  const merchant = testMerchant("1900000555", "wx5555555555555555", "5555555555abcdefghijklmnopqrstuv");

  const as = (who: string) => token[who] ?? tenant.token;
  const post = (path: string, body: Record<string, unknown>, who = "requester") =>
    server.call("POST", `${pms}/${path}`, as(who), body);
  const get = (path: string, who = "requester") => server.call("GET", `${pms}/${path}`, as(who));
  const one = async <T>(sql: string, params: unknown[]) => (await server.db.query<T>(sql, params))[0];
  const balanceOf = async (id: string) =>
    (await one<{ balance: string }>("select balance::text as balance from pms_account where id = $1", [id]))!
      .balance;
  const ledgerCount = async (id: string) =>
    Number(
      (await one<{ n: string }>("select count(*)::text as n from pms_ledger where account_id = $1", [id]))!.n,
    );
  const setPolicy = async (threshold: string, approverRole = "admin") => {
    const res = await post("money-policy/submit", { threshold, approverRole });
    assert.equal(res.statusCode, 200, res.body);
    return res.json().data as { threshold: string; approverRole: string; own: boolean };
  };
  /** The approver claims the instance's task and decides it. */
  const decide = async (instanceId: string, pass: boolean, comment: string, who = "approver") => {
    const claims = (await server.call("GET", `${FLOW}/work/claim-list`, as(who))).json().data.records as {
      taskId: string;
      processInstanceId: string;
    }[];
    const task = claims.find((r) => r.processInstanceId === instanceId);
    assert.ok(task, `${who} may claim the approval`);
    const claimed = await server.call("POST", `${FLOW}/work/claim-task?taskId=${task.taskId}`, as(who));
    assert.equal(claimed.statusCode, 200, claimed.body);
    const done = await server.call("POST", `${FLOW}/work/complete-task`, as(who), {
      taskId: task.taskId,
      processInstanceId: instanceId,
      comment,
      ...(pass ? { flag: "ok" } : {}),
    });
    assert.equal(done.statusCode, 200, done.body);
  };
  const openAccount = async (meterId: string, deposit: string) => {
    const opened = await post("message/openAccount", { meterId, deposit });
    assert.equal(opened.statusCode, 200, opened.body);
    return opened.json().data[0].accountId as string;
  };

  before(async () => {
    server = await startTestServer();
    const platform = (await server.login()).access_token;
    tenant = await provisionTenant(server, platform, "资金审批物业");
    other = await provisionTenant(server, platform, "邻近物业");
    token.requester = tenant.token;
    await addUser(server.db, {
      tenantId: tenant.tenantId,
      account: "approver",
      password: "Secret#2026",
      roleIds: [tenant.roleId],
    });
    token.approver = (await server.login("approver", "Secret#2026", tenant.tenantId)).access_token;
    // A user of the tenant with no part in any approval and no money screen.
    const role = await server.call("POST", "/api/blade-system/role/submit", tenant.token, {
      roleName: "抄表员",
      roleAlias: "clerk",
      sort: 9,
    });
    assert.equal(role.statusCode, 200, role.body);
    const [clerk] = await server.db.query<{ id: string }>(
      "select id::text as id from sys_role where tenant_id = $1 and role_alias = 'clerk'",
      [tenant.tenantId],
    );
    assert.ok(clerk);
    await addUser(server.db, {
      tenantId: tenant.tenantId,
      account: "bystander",
      password: "Secret#2026",
      roleIds: [clerk.id],
    });
    token.bystander = (await server.login("bystander", "Secret#2026", tenant.tenantId)).access_token;

    site = await buildSite(server, tenant.token);
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
    accountId = await openAccount(site.meter, "1000.00");
    // A second owner's meter in room 102, to close.
    const owner = await created(server, tenant.token, "owner/submit", {
      ownerName: "李四",
      ownerCode: "O2",
      phone: "13800000002",
    });
    await created(server, tenant.token, "ownerroom/submit", { ownerId: owner, roomId: site.room102 });
    closingMeter = await created(server, tenant.token, "meter/save", {
      productCode: "100000000102",
      collectorId: site.collector,
      channel: 2,
      controlStatus: 1,
      chargingSchemeId: scheme,
    });
    await created(server, tenant.token, "roommeter/submit", {
      roomId: site.room102,
      energyType: 1,
      meterId: closingMeter,
    });
    group = await created(server, tenant.token, "ownerGroup/save", { groupName: "一号楼" });
    const bound = await post("ownerGroup/bindOwner", { pid: group, childIdList: [site.owner] });
    assert.equal(bound.statusCode, 200, bound.body);

    const base = await server.app.listen({ port: 0, host: "127.0.0.1" });
    await double.listen();
    double.addMerchant({
      mchid: merchant.mchid,
      appid: merchant.appid,
      publicKey: merchant.publicKey,
      apiV3Key: merchant.apiV3Key,
    });
    await created(
      server,
      tenant.token,
      "wxconfig/submit",
      doubleConfig(merchant, double, base, tenant.tenantId),
    );
  });
  after(async () => {
    await server.close();
    await double.close();
  });

  test("the tenant's administrator sets, reads and clears its own policy; other tenants keep the default", async () => {
    const initial = (await get("money-policy/detail")).json().data;
    assert.deepEqual([initial.threshold, initial.approverRole, initial.own], ["", "admin", false]);
    assert.ok(initial.roles.some((r: { roleAlias: string }) => r.roleAlias === "admin"));

    const set = await setPolicy("100");
    assert.deepEqual([set.threshold, set.approverRole, set.own], ["100.00", "admin", true]);
    const elsewhere = (await server.call("GET", `${pms}/money-policy/detail`, other.token)).json().data;
    assert.deepEqual([elsewhere.threshold, elsewhere.own], ["", false]);

    // Cleared: no approval at all, even where the platform's default says otherwise.
    await server.db.query(
      "update sys_param set param_value = '50' where tenant_id = '000000' and param_key = 'money.approval.threshold'",
    );
    try {
      assert.equal((await setPolicy("")).threshold, "");
      const refund = await post("datarecharge/submit", { accountId, rechargeType: 2, amount: "60" });
      assert.equal(refund.json().data.state, 1, "no approval once cleared");
      const defaulted = (await server.call("GET", `${pms}/money-policy/detail`, other.token)).json().data;
      assert.deepEqual([defaulted.threshold, defaulted.own], ["50.00", false]);
    } finally {
      await server.db.query(
        "update sys_param set param_value = '' where tenant_id = '000000' and param_key = 'money.approval.threshold'",
      );
    }

    for (const [body, message] of [
      [{ threshold: "12.345", approverRole: "admin" }, /^threshold: /],
      [{ threshold: "-1", approverRole: "admin" }, /^threshold: /],
      [{ threshold: "10", approverRole: "nosuchrole" }, /^approverRole: /],
      [{ approverRole: "admin" }, /^threshold: /],
    ] as const) {
      const bad = await post("money-policy/submit", body);
      assert.equal(bad.statusCode, 400, bad.body);
      assert.match(bad.json().msg, message);
    }
    const refused = await post("money-policy/submit", { threshold: "1", approverRole: "admin" }, "bystander");
    assert.equal(refused.statusCode, 403);
    assert.equal((await setPolicy("100")).threshold, "100.00");
  });

  test("a correction minus above the threshold waits; approved, it books once; its handle data names who and where", async () => {
    await setPolicy("100");
    const before = await balanceOf(accountId);
    const res = await post("datarecharge/submit", {
      accountId,
      rechargeType: 4,
      amount: "120",
      remark: "重复充值冲减",
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.match(res.json().msg, /已提交审批/);
    const { id, processInstanceId } = res.json().data as { id: string; processInstanceId: string };
    assert.equal(await balanceOf(accountId), before);

    const detail = await get(`money-approval/detail?processInstanceId=${processInstanceId}`, "approver");
    assert.equal(detail.statusCode, 200, detail.body);
    const request = detail.json().data;
    assert.equal(request.kind, "correction");
    assert.equal(request.amount, "120.00");
    assert.equal(request.ownerName, "张三");
    assert.match(request.roomName, /1号楼 101$/);
    assert.equal(request.reason, "重复充值冲减");
    assert.equal(request.state, 3);
    assert.ok(request.requester);
    const hidden = await get(`money-approval/detail?processInstanceId=${processInstanceId}`, "bystander");
    assert.equal(hidden.statusCode, 403);
    const foreign = await server.call(
      "GET",
      `${pms}/money-approval/detail?processInstanceId=${processInstanceId}`,
      other.token,
    );
    assert.equal(foreign.statusCode, 404);

    await decide(processInstanceId, true, "核实无误");
    assert.equal(BigInt(before) - BigInt(await balanceOf(accountId)), 12000n);
    const ledger = await server.db.query<{ amount: string }>(
      "select amount::text as amount from pms_ledger where recharge_id = $1",
      [id],
    );
    assert.deepEqual(ledger, [{ amount: "-12000" }]);
    const after = (await get(`money-approval/detail?processInstanceId=${processInstanceId}`)).json().data;
    assert.equal(after.state, 1);
  });

  test("a closing above the threshold waits with the account open; rejected it stays open, approved it closes once", async () => {
    await setPolicy("100");
    const closingAccount = await openAccount(closingMeter, "300.00");
    const entries = await ledgerCount(closingAccount);
    const held = await post("message/closeAccount", { meterId: closingMeter });
    assert.equal(held.statusCode, 200, held.body);
    assert.match(held.json().msg, /已提交审批/);
    const [first] = held.json().data as { state: number; processInstanceId: string; refunded: string }[];
    assert.deepEqual([first!.state, first!.refunded], [3, "0.00"]);
    const account = () =>
      one<{ status: number }>("select status from pms_account where id = $1", [closingAccount]);
    assert.equal((await account())!.status, 1, "open while waiting");
    assert.equal(await ledgerCount(closingAccount), entries);
    const again = await post("message/closeAccount", { meterId: closingMeter });
    assert.equal(again.statusCode, 400);
    assert.match(again.json().msg, /^meterIds: .*已提交审批/);
    // 销户记录 lists the waiting closing with the refund it asks for and its state; the export too.
    const listed = async () =>
      (await get(`datacloseaccount/page?accountId=${closingAccount}`)).json().data.records as {
        closeState: number;
        refund: string;
        operator: string;
      }[];
    const [waiting] = await listed();
    assert.deepEqual([waiting?.closeState, waiting?.refund], [3, "300.00"]);
    assert.ok(waiting?.operator, "the one who asked");

    const request = (
      await get(`money-approval/detail?processInstanceId=${first!.processInstanceId}`, "approver")
    ).json().data;
    assert.deepEqual([request.kind, request.amount, request.ownerName], ["closing", "300.00", "李四"]);

    await decide(first!.processInstanceId, false, "业主仍在租住");
    assert.equal((await account())!.status, 1, "rejected: still open");
    assert.deepEqual(await listed(), [], "a rejected closing is no closing");
    assert.equal(await balanceOf(closingAccount), "30000");
    assert.equal(await ledgerCount(closingAccount), entries);
    const rejected = (await get(`money-approval/detail?processInstanceId=${first!.processInstanceId}`)).json()
      .data;
    assert.deepEqual([rejected.state, rejected.approvalNote], [4, "业主仍在租住"]);

    const second = (await post("message/closeAccount", { meterId: closingMeter })).json().data[0];
    assert.equal(second.state, 3);
    await decide(second.processInstanceId, true, "同意退租");
    assert.equal((await account())!.status, 2, "approved: closed");
    const [done] = await listed();
    assert.deepEqual([done?.closeState, done?.refund], [1, "300.00"]);
    assert.equal(await balanceOf(closingAccount), "0");
    const refunds = await server.db.query<{ amount: string }>(
      "select amount::text as amount from pms_ledger where account_id = $1 and cause = '销户退款'",
      [closingAccount],
    );
    assert.deepEqual(refunds, [{ amount: "-30000" }]);
    const closed = (await get(`money-approval/detail?processInstanceId=${second.processInstanceId}`)).json()
      .data;
    assert.equal(closed.state, 1);
  });

  test("a WeChat Pay refund above the threshold waits; rejected nothing moves, approved it is booked and sent once", async () => {
    await setPolicy("100");
    const native = await post("wxpay/native", { meterId: site.meter, amount: "400" });
    assert.equal(native.statusCode, 200, native.body);
    const order = native.json().data as { id: string; outTradeNo: string };
    await double.pay(merchant.mchid, order.outTradeNo);
    const refundRow = (rechargeId: string) =>
      one<{ status: string }>("select status from pms_wx_refund where recharge_id = $1", [rechargeId]);
    const reserved = async () =>
      (await one<{ refund_amount: string }>(
        "select refund_amount::text as refund_amount from pms_wx_pay where id = $1",
        [order.id],
      ))!.refund_amount;

    const before = await balanceOf(accountId);
    const entries = await ledgerCount(accountId);
    const rejectedRes = await post("wxpay/refund", { id: order.id, amount: "150", reason: "多充" });
    assert.equal(rejectedRes.statusCode, 200, rejectedRes.body);
    assert.match(rejectedRes.json().msg, /已提交审批/);
    const waiting = rejectedRes.json().data as {
      rechargeId: string;
      processInstanceId: string;
      status: string;
    };
    assert.equal(waiting.status, "APPROVAL");
    assert.equal(await reserved(), "15000", "the amount is reserved while it waits");
    assert.equal(double.order(merchant.mchid, order.outTradeNo)?.refunded ?? 0, 0);
    const request = (
      await get(`money-approval/detail?processInstanceId=${waiting.processInstanceId}`, "approver")
    ).json().data;
    assert.deepEqual([request.kind, request.amount], ["wxRefund", "150.00"]);
    await decide(waiting.processInstanceId, false, "请核实订单");
    assert.equal((await refundRow(waiting.rechargeId))!.status, "REJECTED");
    assert.equal(await reserved(), "0");
    assert.equal(await balanceOf(accountId), before);
    assert.equal(await ledgerCount(accountId), entries);

    const approvedRes = await post("wxpay/refund", { id: order.id, amount: "150", reason: "多充" });
    const approved = approvedRes.json().data as { rechargeId: string; processInstanceId: string };
    assert.equal(await ledgerCount(accountId), entries);
    await decide(approved.processInstanceId, true, "同意退款");
    assert.equal(BigInt(before) - BigInt(await balanceOf(accountId)), 15000n);
    assert.equal(await ledgerCount(accountId), entries + 1);
    // The call to WeChat Pay goes out once the approval has committed.
    for (let i = 0; i < 200 && (await refundRow(approved.rechargeId))!.status !== "SUCCESS"; i++)
      await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal((await refundRow(approved.rechargeId))!.status, "SUCCESS");
    assert.equal(double.order(merchant.mchid, order.outTradeNo)?.refunded, 15000);
    assert.equal(await reserved(), "15000");

    // At or below the threshold: at once, as before.
    const small = await post("wxpay/refund", { id: order.id, amount: "50" });
    assert.equal(small.json().data.status, "SUCCESS");
    assert.equal(double.order(merchant.mchid, order.outTradeNo)?.refunded, 20000);
  });

  test("a group operation books money in only: never held, and asking it for a refund still recharges", async () => {
    await setPolicy("100");
    const before = await balanceOf(accountId);
    const res = await post("ownerRecharge/rechargeGroup", {
      ownerGroupId: group,
      energyType: 1,
      amount: "500",
      rechargeType: 2,
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().data.count, 1);
    assert.equal(BigInt(await balanceOf(accountId)) - BigInt(before), 50000n);
    const waiting = await one<{ n: string }>(
      "select count(*)::text as n from pms_recharge where tenant_id = $1 and state = 3",
      [tenant.tenantId],
    );
    assert.equal(waiting!.n, "0");
  });
});

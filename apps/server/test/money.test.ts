import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { addUser, provisionTenant } from "./fixtures.ts";
import { startTestServer, type TestServer } from "./helpers.ts";
import { buildSite, created } from "./registry-fixtures.ts";

const pms = "/api/blade-pms";

describe("prepaid money: accounts, recharges, the ledger", () => {
  let server: TestServer;
  let platform: string;
  let tenant: Awaited<ReturnType<typeof provisionTenant>>;
  let site: Awaited<ReturnType<typeof buildSite>>;
  let other: Awaited<ReturnType<typeof provisionTenant>>;
  let accountId: string;

  const post = (path: string, body?: Record<string, unknown>, token = tenant.token) =>
    server.call("POST", `${pms}/${path}`, token, body);
  const get = (path: string, token = tenant.token) => server.call("GET", `${pms}/${path}`, token);
  const ledgerRows = async () =>
    Number((await server.db.query<{ n: string }>("select count(*)::text as n from pms_ledger"))[0]!.n);
  const balanceOf = async (id: string) =>
    (
      await server.db.query<{ balance: string }>(
        "select balance::text as balance from pms_account where id = $1",
        [id],
      )
    )[0]!.balance;

  before(async () => {
    server = await startTestServer();
    platform = (await server.login()).access_token;
    tenant = await provisionTenant(server, platform, "收费物业");
    other = await provisionTenant(server, platform, "隔壁物业");
    site = await buildSite(server, tenant.token);
    const scheme = await created(server, tenant.token, "chargingscheme/submit", {
      schemeName: "居民电价",
      energyType: 1,
      priceMode: 1,
      price: "0.5883",
    });
    const alarm = await created(server, tenant.token, "alarmscheme/submit", {
      schemeName: "余额告警",
      energyType: 1,
      firstAlarm: "50",
      secondAlarm: "20",
      arrearsLimit: "10",
    });
    await created(server, tenant.token, "meter/submit", {
      id: site.meter,
      productCode: "100000000101",
      collectorId: site.collector,
      controlStatus: 1,
      chargingSchemeId: scheme,
      alarmSchemeId: alarm,
    });
  });
  after(() => server.close());

  test("an account opens for the room's owner with its deposit; a meter opens once", async () => {
    const res = await post("message/openAccount", { meterId: site.meter, deposit: "100.00" });
    assert.equal(res.statusCode, 200, res.body);
    const [opened] = res.json().data;
    accountId = opened.accountId;
    assert.equal(opened.balance, "100.00");
    const [meter] = await server.db.query<{ account_status: number }>(
      "select account_status from pms_meter where id = $1",
      [site.meter],
    );
    assert.equal(meter!.account_status, 1);
    const again = await post("message/openAccount", { meterId: site.meter });
    assert.equal(again.statusCode, 400);
    assert.match(again.json().msg, /^meterId: .*已开户/);
    // The water meter has no charging scheme: nothing to price it with.
    const water = await post("waterparam/openAccount", { meterId: site.water, deposit: "10" });
    assert.equal(water.statusCode, 400);
    assert.match(water.json().msg, /^chargingSchemeId: /);
    const [owner] = await server.db.query<{ balance: string }>(
      "select balance::text as balance from pms_owner where id = $1",
      [site.owner],
    );
    assert.equal(Number(owner!.balance), 100);
  });

  test("a recharge books once per idempotency key", async () => {
    const body = { meterId: site.meter, amount: "50", paymentMethod: 3, idempotencyKey: "desk-0001-aaaa" };
    const first = await post("datarecharge/submit", body);
    assert.equal(first.statusCode, 200, first.body);
    assert.equal(first.json().data.balanceAfter, "150.00");
    assert.match(first.json().data.receiptNo, /^R\d{8}/);
    const before = await ledgerRows();
    const second = await post("datarecharge/submit", body);
    assert.equal(second.statusCode, 200);
    assert.equal(second.json().data.replayed, true);
    assert.equal(second.json().data.id, first.json().data.id);
    assert.equal(await ledgerRows(), before);
    assert.equal(await balanceOf(accountId), "15000");
    const reused = await post("datarecharge/submit", { ...body, amount: "60" });
    assert.equal(reused.statusCode, 400);
    assert.match(reused.json().msg, /^idempotencyKey: /);
  });

  test("a receipt read back (补打) keeps its number and names the site from the tenant as it is now", async () => {
    const [booked] = (await get("datarecharge/page?size=10&rechargeType=1")).json().data.records;
    const read = async () => (await get(`datarecharge/detail?id=${booked.id}`)).json().data;
    const first = await read();
    assert.match(first.receiptNo, /^R\d{8}\d{1,10}$/);
    assert.equal(first.receiptNo, booked.receiptNo, "the list row and the receipt carry one number");
    assert.equal(first.tenantName, "收费物业");
    assert.equal(first.roomName, "1号楼 101", "the room with its building");
    assert.equal(first.balanceAfter, "150.00");
    assert.equal(first.operator, "admin");
    // The site is renamed: a reprint carries the new name, and still the same number.
    const [row] = await server.db.query<{ id: string }>("select id from sys_tenant where tenant_id = $1", [
      tenant.tenantId,
    ]);
    const renamed = await server.call("POST", "/api/blade-system/tenant/submit", platform, {
      id: row!.id,
      tenantName: "收费物业(新)",
    });
    assert.equal(renamed.statusCode, 200, renamed.body);
    const again = await read();
    assert.equal(again.tenantName, "收费物业(新)");
    assert.equal(again.receiptNo, first.receiptNo);
    // The opening has its own number (K, the day, the account), the same in its list row and detail.
    const [opening] = (await get(`dataopenaccount/page?accountId=${accountId}`)).json().data.records;
    assert.match(opening.receiptNo, /^K\d{8}\d{1,10}$/);
    assert.ok(opening.receiptNo.endsWith(accountId.slice(-10)));
    assert.equal(
      (await get(`dataopenaccount/detail?id=${accountId}`)).json().data.receiptNo,
      opening.receiptNo,
    );
    // Another tenant cannot read it.
    const foreign = await get(`datarecharge/detail?id=${booked.id}`, other.token);
    assert.equal(foreign.statusCode, 404);
    await server.call("POST", "/api/blade-system/tenant/submit", platform, {
      id: row!.id,
      tenantName: "收费物业",
    });
  });

  test("refunds stay within the balance; corrections need a reason; bad amounts book nothing", async () => {
    const before = await ledgerRows();
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ amount: "-1" }, /^amount: /],
      [{ amount: "0" }, /^amount: 金额必须大于 0/],
      [{ amount: "0.001" }, /^amount: /],
      [{ amount: "abc" }, /^amount: /],
      [{ amount: "1e3" }, /^amount: /],
      [{ amount: "1000000.01" }, /^amount: 单笔金额不能超过/],
      [{ amount: "1", paymentMethod: 9 }, /^paymentMethod: /],
      [{ amount: "1", rechargeType: 7 }, /^rechargeType: /],
      [{ amount: "150.01", rechargeType: 2 }, /^amount: 退款金额不能超过余额 150\.00 元/],
      [{ amount: "1", rechargeType: 3 }, /^remark: 冲正必须填写原因/],
      [{ amount: "1", idempotencyKey: "x" }, /^idempotencyKey: /],
      [{ amount: "1", meterId: "1" }, /^meterId: 该表计尚未开户/],
    ];
    for (const [extra, message] of cases) {
      const res = await post("datarecharge/submit", { meterId: site.meter, ...extra });
      assert.equal(res.statusCode, 400, `${JSON.stringify(extra)}: ${res.body}`);
      assert.match(res.json().msg, message, JSON.stringify(extra));
    }
    assert.equal(await ledgerRows(), before, "nothing was booked");

    const refund = await post("datarecharge/submit", { accountId, amount: "20", rechargeType: 2 });
    assert.equal(refund.json().data.balanceAfter, "130.00");
    const minus = await post("datarecharge/submit", {
      accountId,
      amount: "0.5",
      rechargeType: 4,
      remark: "重复收款",
    });
    assert.equal(minus.json().data.balanceAfter, "129.50");
    assert.equal(await balanceOf(accountId), "12950");
  });

  test("a booked recharge is never deleted and its money never edited", async () => {
    const page = (await get("datarecharge/page?size=10")).json().data;
    assert.equal(page.total, 3);
    // A refund is never income: recharges taken, refunds and the net apart (corrections are neither).
    assert.deepEqual(page.totals, {
      credit: "50.00",
      debit: "20.50",
      income: "50.00",
      refund: "20.00",
      net: "30.00",
      correction: "-0.50",
    });
    const [latest] = page.records;
    assert.equal(latest.ownerName, "张三");
    assert.equal(latest.productCode, "100000000101");
    const removed = await post(`datarecharge/remove?ids=${latest.id}`);
    assert.equal(removed.statusCode, 400);
    assert.match(removed.json().msg, /^充值记录已入账,不能删除/);
    const edited = await post("datarecharge/update", { id: latest.id, amount: "1" });
    assert.equal(edited.statusCode, 400);
    assert.equal((await post("datarecharge/update", { id: latest.id, remark: "收据重打" })).statusCode, 200);
    const detail = (await get(`datarecharge/detail?id=${latest.id}`)).json().data;
    assert.equal(detail.remark, "收据重打");
    assert.equal(detail.amount, "0.50");
    // The ledger refuses changes at the database itself.
    await assert.rejects(server.db.query("update pms_ledger set amount = 0"), /append-only/);
    await assert.rejects(server.db.query("delete from pms_ledger"), /append-only/);
  });

  test("another tenant neither sees nor touches the accounts", async () => {
    const res = await post("datarecharge/submit", { accountId, amount: "5" }, other.token);
    assert.equal(res.statusCode, 404);
    assert.equal((await get("datarecharge/page", other.token)).json().data.total, 0);
    const owners = (await get("ownerRecharge/page", other.token)).json().data;
    assert.equal(owners.total, 0);
    const opened = await post("message/openAccount", { meterId: site.meter }, other.token);
    assert.equal(opened.statusCode, 404);
    assert.equal(await balanceOf(accountId), "12950");
  });

  test("the front desk finds owners by name, phone, room or meter, with accounts and levels", async () => {
    for (const keyword of ["张", "13800000001", "101", "00000000101"]) {
      const found = (await get(`ownerRecharge/page?keyword=${encodeURIComponent(keyword)}`)).json().data;
      assert.equal(found.total, 1, keyword);
      const [owner] = found.records;
      assert.equal(owner.accounts.length, 1);
      assert.deepEqual(
        {
          balance: owner.accounts[0].balance,
          level: owner.accounts[0].alarmLevel,
          code: owner.accounts[0].productCode,
        },
        { balance: "129.50", level: 0, code: "100000000101" },
      );
    }
    assert.equal((await get("ownerRecharge/page?keyword=nobody")).json().data.total, 0);
  });

  test("levels follow the balance down to arrears and back", async () => {
    const refund = (amount: string) => post("datarecharge/submit", { accountId, amount, rechargeType: 2 });
    await refund("89.50"); // 40.00: low (≤ 50)
    let [row] = await server.db.query<{ alarm_level: number; arrears_status: number }>(
      "select alarm_level, arrears_status from pms_account where id = $1",
      [accountId],
    );
    assert.deepEqual(row, { alarm_level: 1, arrears_status: 0 });
    await refund("25"); // 15.00: severely low (≤ 20)
    [row] = await server.db.query("select alarm_level, arrears_status from pms_account where id = $1", [
      accountId,
    ]);
    assert.deepEqual(row, { alarm_level: 2, arrears_status: 0 });
    await post("datarecharge/submit", { accountId, amount: "20", rechargeType: 4, remark: "补扣电费" }); // -5.00
    [row] = await server.db.query("select alarm_level, arrears_status from pms_account where id = $1", [
      accountId,
    ]);
    assert.deepEqual(row, { alarm_level: 3, arrears_status: 1 });
    await post("datarecharge/submit", { accountId, amount: "105" }); // 100.00
    [row] = await server.db.query("select alarm_level, arrears_status from pms_account where id = $1", [
      accountId,
    ]);
    assert.deepEqual(row, { alarm_level: 0, arrears_status: 0 });
  });

  // PGlite runs one transaction at a time whatever the callers do, so the race is real only on the
  // PostgreSQL server (CI); the embedded run keeps a smaller burst for its time.
  const burst = process.env.TEST_DATABASE_URL ? 1000 : 200;
  test(`${burst} concurrent recharges on one account end with the exact balance and as many entries`, async () => {
    const start = BigInt(await balanceOf(accountId));
    const before = await ledgerRows();
    const results = await Promise.all(
      Array.from({ length: burst }, (_, i) =>
        post("datarecharge/submit", {
          accountId,
          amount: "0.01",
          idempotencyKey: `burst-${String(i).padStart(6, "0")}`,
        }),
      ),
    );
    assert.deepEqual(
      results.filter((r) => r.statusCode !== 200).map((r) => r.body),
      [],
    );
    assert.equal(BigInt(await balanceOf(accountId)), start + BigInt(burst));
    assert.equal(await ledgerRows(), before + burst);
  });

  test("the ledger check proves every balance and names any that differ", async () => {
    const check = async () => (await server.call("GET", `${pms}/ledger/check`, platform)).json().data;
    assert.deepEqual(await check(), { consistent: true, mismatches: [] });
    await server.db.query("update pms_account set balance = balance + 1 where id = $1", [accountId]);
    const broken = await check();
    assert.equal(broken.consistent, false);
    assert.ok(
      broken.mismatches.some(
        (m: { id: string; problem: string }) => m.id === accountId && m.problem === "balance",
      ),
    );
    await server.db.query("update pms_account set balance = balance - 1 where id = $1", [accountId]);
    // A tenant administrator checks their own tenant only.
    assert.deepEqual(
      (await server.call("GET", `${pms}/ledger/check`, tenant.token)).json().data.mismatches,
      [],
    );
  });

  test("a cashier without the refund button cannot refund", async () => {
    const [role] = await server.db.query<{ id: string }>(
      "insert into sys_role (id, tenant_id, role_name, role_alias) values (990001, $1, '收银员', 'cashier') returning id::text as id",
      [tenant.tenantId],
    );
    await server.db.query(
      `insert into sys_role_menu (id, role_id, menu_id)
       select 990000 + m.id, $1, m.id from sys_menu m where m.code in ('owner', 'ownerRecharge_recharge')`,
      [role!.id],
    );
    await addUser(server.db, {
      tenantId: tenant.tenantId,
      account: "cashier",
      password: "Cashier-2026",
      roleIds: [role!.id],
    });
    const cashier = (await server.login("cashier", "Cashier-2026", tenant.tenantId)).access_token;
    assert.equal((await post("datarecharge/submit", { accountId, amount: "1" }, cashier)).statusCode, 200);
    assert.equal(
      (await post("datarecharge/submit", { accountId, amount: "1", rechargeType: 2 }, cashier)).statusCode,
      403,
    );
  });

  test("closing pays back the balance, frees the meter, and both operations are listed", async () => {
    const balance = await balanceOf(accountId);
    const closed = await post("message/closeAccount", { meterId: site.meter });
    assert.equal(closed.statusCode, 200, closed.body);
    const [outcome] = closed.json().data;
    assert.equal(outcome.refunded, (Number(balance) / 100).toFixed(2));
    assert.equal(outcome.debt, "0.00");
    assert.equal(await balanceOf(accountId), "0");
    const [meter] = await server.db.query<{ account_status: number }>(
      "select account_status from pms_meter where id = $1",
      [site.meter],
    );
    assert.equal(meter!.account_status, 0);
    const late = await post("datarecharge/submit", { meterId: site.meter, amount: "1" });
    assert.equal(late.statusCode, 400);
    assert.match(late.json().msg, /^meterId: 该表计尚未开户/);
    assert.equal((await post("message/closeAccount", { meterId: site.meter })).statusCode, 400);

    const closings = (await get("datacloseaccount/page")).json().data;
    assert.equal(closings.total, 1);
    assert.equal(closings.records[0].refund, outcome.refunded);
    assert.equal(closings.records[0].ownerName, "张三");
    assert.deepEqual(closings.totals, { refund: outcome.refunded, debt: "0.00" });
    // One closing by its account; it is part of the account's record and is never removed.
    const closing = (await get(`datacloseaccount/detail?id=${accountId}`)).json().data;
    assert.deepEqual([closing.refund, closing.ownerName], [outcome.refunded, "张三"]);
    assert.equal((await get("datacloseaccount/detail?id=1")).statusCode, 404);
    const removal = await post(`datacloseaccount/remove?ids=${accountId}`);
    assert.equal(removal.statusCode, 400);
    assert.match(removal.json().msg, /^销户记录是账户的记录,不能删除/);
    assert.equal((await get(`dataopenaccount/detail?id=${accountId}`)).json().data.deposit, "100.00");
    const openings = (await get("dataopenaccount/page")).json().data;
    assert.equal(openings.records[0].deposit, "100.00");
    assert.deepEqual(openings.totals, { deposit: "100.00" });
    // The meter opens again, as a new account; the old one keeps its ledger.
    const reopened = await post("message/openAccount", { meterId: site.meter, deposit: "30" });
    assert.equal(reopened.statusCode, 200, reopened.body);
    assert.notEqual(reopened.json().data[0].accountId, accountId);
    const both = (await get("dataopenaccount/page?size=1")).json().data;
    assert.equal(both.total, 2);
    // Totals cover the whole search, not the page shown.
    assert.deepEqual(both.totals, { deposit: "130.00" });
    assert.deepEqual((await server.call("GET", `${pms}/ledger/check`, platform)).json().data.mismatches, []);
  });

  test("the home page sums money by recharge type and payment method, and draws an owner's paths", async () => {
    const types = (await get("homepage/rechargeTypeRatio?dateType=2")).json().data as {
      rechargeType: number;
      amount: string;
      count: number;
    }[];
    const recharges = types.find((t) => t.rechargeType === 1)!;
    const refunds = types.find((t) => t.rechargeType === 2)!;
    // 50 + 105 + 1 (cashier) + the burst of 0.01s; refunds 20 + 89.50 + 25.
    assert.equal(refunds.amount, "134.50");
    assert.equal(refunds.count, 3);
    assert.equal(Number(recharges.amount), 156 + burst / 100);
    const methods = (await get("homepage/paymentMethodRatio?dateType=1")).json().data as {
      paymentMethod: number;
    }[];
    assert.deepEqual(
      methods.map((m) => m.paymentMethod),
      [1, 3],
    );
    assert.equal((await get("homepage/rechargeTypeRatio?dateType=9")).statusCode, 400);
    const path = (await get(`homepage/getOwnerRechargePath?ownerId=${site.owner}&days=7`)).json().data;
    assert.equal(path.length, 7);
    // Refunds and corrections minus: 134.50 + 0.50 + 20.
    assert.equal(Number(path.at(-1).refund), 155);
    const usage = (await get(`homepage/getOwnerPath?ownerId=${site.owner}`)).json().data;
    assert.equal(usage.length, 30);
    assert.equal((await get(`homepage/getOwnerPath?ownerId=${site.owner}&days=0`)).statusCode, 400);
  });
});

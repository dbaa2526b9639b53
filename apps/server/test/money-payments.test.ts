import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import ExcelJS from "exceljs";
import { addUser, provisionTenant } from "./fixtures.ts";
import { BASIC, startTestServer, type TestServer } from "./helpers.ts";
import { buildSite, created } from "./registry-fixtures.ts";

const pms = "/api/blade-pms";

describe("payments, group recharges, scheme changes, place filters and money exports", () => {
  let server: TestServer;
  let platform: string;
  let tenant: Awaited<ReturnType<typeof provisionTenant>>;
  let other: Awaited<ReturnType<typeof provisionTenant>>;
  let site: Awaited<ReturnType<typeof buildSite>>;
  let scheme: string;
  let alarm: string;
  /** Owner 张三 in room 101 (building 1) and owner 李四 in room 201 (building 2), each with an electric account. */
  let account1: string;
  let account2: string;
  let owner2: string;
  let group: string;

  const post = (path: string, body?: Record<string, unknown>, token = tenant.token) =>
    server.call("POST", `${pms}/${path}`, token, body);
  const get = (path: string, token = tenant.token) => server.call("GET", `${pms}/${path}`, token);
  const count = async (sql: string, params: unknown[] = []) =>
    Number((await server.db.query<{ n: string }>(`select count(*)::text as n ${sql}`, params))[0]!.n);
  const balanceOf = async (id: string) =>
    (
      await server.db.query<{ balance: string }>(
        "select balance::text as balance from pms_account where id = $1",
        [id],
      )
    )[0]!.balance;
  const sheetOf = async (path: string) => {
    const res = await get(path);
    assert.equal(res.statusCode, 200, res.body.slice(0, 300));
    assert.match(String(res.headers["content-type"]), /spreadsheetml/);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    const rows: unknown[][] = [];
    sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    return { rows, sheet };
  };

  before(async () => {
    server = await startTestServer();
    platform = (await server.login()).access_token;
    tenant = await provisionTenant(server, platform, "收款物业");
    other = await provisionTenant(server, platform, "别家物业");
    site = await buildSite(server, tenant.token);
    scheme = await created(server, tenant.token, "chargingscheme/submit", {
      schemeName: "居民电价",
      energyType: 1,
      priceMode: 1,
      price: "0.5883",
    });
    alarm = await created(server, tenant.token, "alarmscheme/submit", {
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
    });
    const meter2 = await created(server, tenant.token, "meter/submit", {
      productCode: "100000000201",
      collectorId: site.collector,
      channel: 2,
      controlStatus: 1,
      chargingSchemeId: scheme,
    });
    await created(server, tenant.token, "roommeter/submit", {
      roomId: site.room201,
      energyType: 1,
      meterId: meter2,
    });
    owner2 = await created(server, tenant.token, "owner/submit", {
      ownerName: "李四",
      ownerCode: "O2",
      phone: "13800000002",
    });
    await created(server, tenant.token, "ownerroom/submit", { ownerId: owner2, roomId: site.room201 });
    // One meter at a time: each answers its account at once (a batch would be a job).
    const accounts: string[] = [];
    for (const meterId of [site.meter, meter2]) {
      const opened = await post("message/openAccount", { meterId, deposit: "10" });
      assert.equal(opened.statusCode, 200, opened.body);
      accounts.push(opened.json().data[0].accountId);
    }
    [account1, account2] = accounts as [string, string];
    group = await created(server, tenant.token, "ownerGroup/save", { groupName: "一期住户" });
    const bound = await post("ownerGroup/bindOwner", { pid: group, childIdList: [site.owner, owner2] });
    assert.equal(bound.statusCode, 200, bound.body);
  });
  after(() => server.close());

  test("a counter recharge records its paid payment once, linked to the recharge", async () => {
    const body = { accountId: account1, amount: "30.50", paymentMethod: 3, idempotencyKey: "counter-0001" };
    const first = await post("datarecharge/submit", body);
    assert.equal(first.statusCode, 200, first.body);
    const again = await post("datarecharge/submit", body);
    assert.equal(again.json().data.replayed, true);
    const rechargeId = first.json().data.id;
    const payments = await server.db.query<{ id: string; state: number; amount: string; channel: string }>(
      `select p.id::text as id, p.state, p.amount::text as amount, p.channel
         from pms_payment p join pms_recharge r on r.payment_id = p.id where r.id = $1`,
      [rechargeId],
    );
    assert.deepEqual(
      payments.map(({ state, amount, channel }) => ({ state, amount, channel })),
      [{ state: 1, amount: "3050", channel: "counter" }],
    );
    assert.equal(await count("from pms_payment where account_id = $1", [account1]), 1);
    const detail = await get(`payment/detail?id=${payments[0]!.id}`);
    assert.equal(detail.statusCode, 200, detail.body);
    const shown = detail.json().data;
    assert.equal(shown.amount, "30.50");
    assert.equal(shown.paymentMethod, 3);
    assert.equal(shown.transactionNo, first.json().data.receiptNo);
    assert.deepEqual(
      shown.recharges.map((r: { id: string }) => r.id),
      [rechargeId],
    );
    // A refund is money going out: no payment.
    const refund = await post("datarecharge/submit", {
      accountId: account1,
      amount: "0.50",
      rechargeType: 2,
    });
    assert.equal(refund.statusCode, 200, refund.body);
    assert.equal(await count("from pms_payment where account_id = $1", [account1]), 1);
  });

  let orderId: string;
  test("an order is saved unpaid; its confirmation books the recharge exactly once", async () => {
    const saved = await post("payment/save", {
      accountId: account2,
      amount: "88.00",
      paymentMethod: 5,
      remark: "线上下单",
    });
    assert.equal(saved.statusCode, 200, saved.body);
    const order = saved.json().data;
    orderId = order.id;
    assert.equal(order.state, 0);
    assert.equal(order.channel, "online");
    assert.equal(order.ownerName, "李四");
    // A room is named with its building, like everywhere in the console.
    assert.equal(order.roomName, "2号楼 201");
    assert.deepEqual(order.recharges, []);
    const before = await balanceOf(account2);
    const ledger = await count("from pms_ledger where account_id = $1", [account2]);

    const noNumber = await post("payment/submit", { id: orderId, state: 1 });
    assert.equal(noNumber.statusCode, 400);
    assert.match(noNumber.json().msg, /^transactionNo: /);
    assert.equal(await balanceOf(account2), before);

    // Two confirmations at once (a payment callback and an operator): one books.
    const confirm = { id: orderId, state: 1, transactionNo: "WX4200001234" };
    const answers = await Promise.all([post("payment/submit", confirm), post("payment/submit", confirm)]);
    for (const res of answers) assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(answers.map((res) => res.json().data.booked).sort(), [false, true]);
    assert.equal(BigInt(await balanceOf(account2)), BigInt(before) + 8800n);
    assert.equal(await count("from pms_ledger where account_id = $1", [account2]), ledger + 1);
    const third = await post("payment/submit", confirm);
    assert.equal(third.json().data.booked, false);
    assert.equal(await count("from pms_ledger where account_id = $1", [account2]), ledger + 1);

    const detail = (await get(`payment/detail?id=${orderId}`)).json().data;
    assert.equal(detail.state, 1);
    assert.notEqual(detail.paidTime, "");
    assert.equal(detail.recharges.length, 1);
    assert.equal(detail.recharges[0].amount, "88.00");
    assert.equal(detail.recharges[0].paymentMethod, 5);

    for (const [field, value] of [
      ["amount", "90"],
      ["accountId", account1],
      ["paymentMethod", 1],
    ] as const) {
      const changed = await post("payment/submit", { id: orderId, [field]: value });
      assert.equal(changed.statusCode, 400, changed.body);
      assert.match(changed.json().msg, new RegExp(`^${field}: `));
    }
    const unpay = await post("payment/submit", { id: orderId, state: 0 });
    assert.match(unpay.json().msg, /^state: /);
    const remark = await post("payment/submit", { id: orderId, remark: "已核对" });
    assert.equal(remark.statusCode, 200, remark.body);
    assert.equal(remark.json().data.remark, "已核对");
    assert.equal(BigInt(await balanceOf(account2)), BigInt(before) + 8800n);
  });

  test("submit creates, changes and closes orders; bad input is refused by field and stores nothing", async () => {
    const stored = await count("from pms_payment");
    for (const [body, field] of [
      [{ amount: "5" }, "accountId"],
      [{ accountId: account1, amount: "-5" }, "amount"],
      [{ accountId: account1, amount: "5", paymentMethod: 9 }, "paymentMethod"],
      [{ accountId: account1, amount: "5", channel: "=cmd" }, "channel"],
      [{ accountId: account1, amount: "5", state: 2 }, "state"],
      [{ accountId: account1, amount: "5", state: 1 }, "transactionNo"],
      [{ meterId: site.water, amount: "5", energyType: 2 }, "meterId"],
    ] as const) {
      const res = await post("payment/submit", body);
      assert.equal(res.statusCode, 400, `${JSON.stringify(body)}: ${res.body}`);
      assert.match(res.json().msg, new RegExp(`^${field}: `));
    }
    assert.equal(
      (await post("payment/save", { accountId: account1, amount: "5", state: 1 })).statusCode,
      400,
    );
    assert.equal(await count("from pms_payment"), stored);

    const created = await post("payment/submit", { meterId: site.meter, amount: "12", paymentMethod: 4 });
    assert.equal(created.statusCode, 200, created.body);
    const id = created.json().data.id;
    assert.equal(created.json().data.accountId, account1);
    const changed = await post("payment/submit", { id, amount: "15.5", channel: "bank" });
    assert.equal(changed.json().data.amount, "15.50");
    assert.equal(changed.json().data.channel, "bank");
    const closed = await post("payment/submit", { id, state: 2 });
    assert.equal(closed.json().data.state, 2);
    const reopened = await post("payment/submit", { id, state: 0 });
    assert.equal(reopened.statusCode, 400);

    // Paid at once: created and booked in one call.
    const before = BigInt(await balanceOf(account1));
    const paid = await post("payment/submit", {
      accountId: account1,
      amount: "7",
      paymentMethod: 2,
      state: 1,
      transactionNo: "UP-777",
    });
    assert.equal(paid.statusCode, 200, paid.body);
    assert.equal(paid.json().data.booked, true);
    assert.equal(BigInt(await balanceOf(account1)), before + 700n);
    // Another tenant cannot see or confirm it.
    assert.equal((await get(`payment/detail?id=${id}`, other.token)).statusCode, 404);
    assert.equal(
      (await post("payment/submit", { id, state: 1, transactionNo: "X1" }, other.token)).statusCode,
      404,
    );
  });

  test("remove takes unpaid and failed payments only; a paid one is refused by id and nothing goes", async () => {
    const unpaid = (await post("payment/save", { accountId: account1, amount: "3" })).json().data.id;
    const mixed = await server.call("POST", `${pms}/payment/remove?ids=${unpaid},${orderId}`, tenant.token);
    assert.equal(mixed.statusCode, 400);
    assert.match(mixed.json().msg, new RegExp(`^ids: .*${orderId}`));
    assert.equal(await count("from pms_payment where id = $1", [unpaid]), 1);
    const failed = (await post("payment/save", { accountId: account1, amount: "4" })).json().data.id;
    await post("payment/submit", { id: failed, state: 2 });
    const removed = await server.call("POST", `${pms}/payment/remove?ids=${unpaid},${failed}`, tenant.token);
    assert.equal(removed.statusCode, 200, removed.body);
    assert.equal(removed.json().data.removed, 2);
    assert.equal(await count("from pms_payment where id in ($1, $2)", [unpaid, failed]), 0);
    const foreign = await server.call("POST", `${pms}/payment/remove?ids=${orderId}`, other.token);
    assert.equal(foreign.statusCode, 404);
  });

  test("payment/list pages with owner, meter and place, filters and totals", async () => {
    const all = (await get("payment/list?size=100")).json().data;
    for (const key of ["records", "total", "size", "current", "pages", "totals"]) assert.ok(key in all, key);
    const paidFen = await server.db.query<{ paid: string; unpaid: string }>(
      `select coalesce(sum(amount) filter (where state = 1), 0)::text as paid,
              coalesce(sum(amount) filter (where state = 0), 0)::text as unpaid
         from pms_payment where tenant_id = $1`,
      [tenant.tenantId],
    );
    assert.equal(all.totals.paid, (Number(paidFen[0]!.paid) / 100).toFixed(2));
    assert.equal(all.totals.unpaid, (Number(paidFen[0]!.unpaid) / 100).toFixed(2));
    assert.equal(all.total, await count("from pms_payment where tenant_id = $1", [tenant.tenantId]));
    const row = all.records.find((r: { id: string }) => r.id === orderId);
    assert.equal(row.ownerName, "李四");
    assert.equal(row.phone, "13800000002");
    assert.equal(row.productCode, "100000000201");
    assert.equal(row.areaName, "2号楼");

    const ids = async (query: string) =>
      (await get(`payment/list?size=100&${query}`)).json().data.records.map((r: { id: string }) => r.id);
    assert.deepEqual(await ids(`areaId=${site.building2}`), [orderId]);
    assert.deepEqual(await ids(`roomId=${site.room201}`), [orderId]);
    assert.ok((await ids(`areaId=${site.park}`)).length === all.total);
    assert.deepEqual(await ids("paymentMethod=5"), [orderId]);
    assert.deepEqual(await ids("ownerName=李"), [orderId]);
    assert.deepEqual(await ids("phone=0002"), [orderId]);
    assert.deepEqual(await ids("channel=online&state=1"), [orderId]);
    assert.equal((await ids("state=0")).length, 0);
    assert.equal((await ids("startTime=2000-01-01&endTime=2000-01-02")).length, 0);
    assert.equal((await get("payment/list?channel=nowhere")).statusCode, 400);
    assert.equal((await get("payment/list?state=7")).statusCode, 400);
    assert.equal((await get("payment/list", other.token)).json().data.total, 0);
  });

  test("a group recharge books every owner's account at once, once per key, or nothing", async () => {
    const before = [BigInt(await balanceOf(account1)), BigInt(await balanceOf(account2))];
    const ledger = await count("from pms_ledger");
    const body = { ownerGroupId: group, amount: "20", paymentMethod: 1, idempotencyKey: "group-2026-0001" };
    const res = await post("ownerRecharge/rechargeGroup", body);
    assert.equal(res.statusCode, 200, res.body);
    const answer = res.json().data;
    assert.equal(answer.count, 2);
    assert.equal(answer.total, "40.00");
    assert.deepEqual(answer.recharges.map((r: { ownerName: string }) => r.ownerName).sort(), [
      "张三",
      "李四",
    ]);
    assert.deepEqual(answer.recharges.map((r: { productCode: string }) => r.productCode).sort(), [
      "100000000101",
      "100000000201",
    ]);
    assert.equal(BigInt(await balanceOf(account1)), before[0]! + 2000n);
    assert.equal(BigInt(await balanceOf(account2)), before[1]! + 2000n);
    assert.equal(await count("from pms_ledger"), ledger + 2);
    // Each recharge paid at the counter.
    const ids = answer.recharges.map((r: { id: string }) => r.id);
    assert.equal(
      await count(
        "from pms_recharge r join pms_payment p on p.id = r.payment_id where r.id = any($1::bigint[]) and p.state = 1",
        [ids],
      ),
      2,
    );

    // The same group recharge sent twice at once (a double click): one books, the other finds it.
    const twice = { ...body, idempotencyKey: "group-2026-0002" };
    const pair = await Promise.all([
      post("ownerRecharge/rechargeGroup", twice),
      post("ownerRecharge/rechargeGroup", twice),
    ]);
    for (const res of pair) assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(pair.map((res) => res.json().data.replayed).sort(), [false, true]);
    assert.equal(await count("from pms_ledger"), ledger + 4);

    const again = await server.call("POST", `${pms}/ownerRecharge/rechargeGroup`, tenant.token, {
      ...body,
      idempotencyKey: undefined,
    });
    assert.equal(again.statusCode, 200);
    // Without the key it is a new operation; with the header key, the first one again.
    const replay = await server.inject({
      method: "POST",
      url: `${pms}/ownerRecharge/rechargeGroup`,
      headers: {
        authorization: BASIC,
        "blade-auth": `bearer ${tenant.token}`,
        "idempotency-key": "group-2026-0001",
      },
      payload: { ownerGroupId: group, amount: "20", paymentMethod: 1 },
    });
    assert.equal(replay.statusCode, 200, replay.body);
    assert.deepEqual(
      replay
        .json()
        .data.recharges.map((r: { id: string }) => r.id)
        .sort(),
      [...ids].sort(),
    );
    assert.equal(await count("from pms_ledger"), ledger + 6);

    // An owner without an electric account: the whole group is refused by name, nothing booked.
    const owner3 = await created(server, tenant.token, "owner/submit", {
      ownerName: "王五",
      ownerCode: "O3",
    });
    await post("ownerGroup/bindOwner", { pid: group, childIdList: [owner3] });
    const refused = await post("ownerRecharge/rechargeGroup", { ownerGroupId: group, amount: "5" });
    assert.equal(refused.statusCode, 400);
    assert.match(refused.json().msg, /^ownerGroupId: .*王五/);
    assert.equal(await count("from pms_ledger"), ledger + 6);
    const water = await post("ownerRecharge/rechargeGroup", {
      ownerGroupId: group,
      amount: "5",
      energyType: 2,
    });
    assert.match(water.json().msg, /^ownerGroupId: .*张三.*李四.*王五|^ownerGroupId: /);
    for (const [params, field] of [
      [{ amount: "5" }, "ownerGroupId"],
      [{ ownerGroupId: group, amount: "0" }, "amount"],
      [{ ownerGroupId: group, amount: "5", paymentMethod: 8 }, "paymentMethod"],
      [{ ownerGroupId: group, amount: "5", idempotencyKey: "short" }, "idempotencyKey"],
    ] as const) {
      const bad = await post("ownerRecharge/rechargeGroup", params);
      assert.equal(bad.statusCode, 400, bad.body);
      assert.match(bad.json().msg, new RegExp(`^${field}: `));
    }
    assert.equal(
      (await post("ownerRecharge/rechargeGroup", { ownerGroupId: group, amount: "5" }, other.token))
        .statusCode,
      404,
    );
    assert.equal(await count("from pms_ledger"), ledger + 6);
  });

  test("ownerRecharge/update changes an account's schemes, never its money", async () => {
    const balance = await balanceOf(account1);
    const res = await post("ownerRecharge/update", { accountId: account1, alarmSchemeId: alarm });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().data.alarmSchemeId, alarm);
    assert.equal(res.json().data.chargingSchemeId, scheme);
    const [row] = await server.db.query<{ alarm_scheme_id: string; meter_alarm: string }>(
      `select a.alarm_scheme_id::text as alarm_scheme_id, m.alarm_scheme_id::text as meter_alarm
         from pms_account a join pms_meter m on m.id = a.meter_id where a.id = $1`,
      [account1],
    );
    assert.deepEqual(row, { alarm_scheme_id: alarm, meter_alarm: alarm });
    assert.equal(await balanceOf(account1), balance);
    const water = await created(server, tenant.token, "alarmscheme/submit", {
      schemeName: "水费告警",
      energyType: 2,
      firstAlarm: "5",
      secondAlarm: "2",
      arrearsLimit: "1",
    });
    const theirs = await created(server, other.token, "alarmscheme/submit", {
      schemeName: "别家告警",
      energyType: 1,
      firstAlarm: "5",
      secondAlarm: "2",
      arrearsLimit: "1",
    });
    for (const [body, field] of [
      [{ accountId: account1, alarmSchemeId: water }, "alarmSchemeId"],
      [{ accountId: account1, alarmSchemeId: theirs }, "alarmSchemeId"],
      [{ accountId: account1 }, "chargingSchemeId"],
      [{ accountId: account1, alarmSchemeId: alarm, balance: "1000" }, "balance"],
      [{ alarmSchemeId: alarm }, "accountId"],
    ] as const) {
      const bad = await post("ownerRecharge/update", body);
      assert.equal(bad.statusCode, 400, bad.body);
      assert.match(bad.json().msg, new RegExp(`^${field}: `));
    }
    assert.equal(
      (await post("ownerRecharge/update", { accountId: account1, alarmSchemeId: theirs }, other.token))
        .statusCode,
      404,
    );
    assert.equal(await balanceOf(account1), balance);
  });

  test("area and room filters on the recharge, account-operation and owner pages; rows name room and area", async () => {
    const recharges = (await get(`datarecharge/page?size=100&areaId=${site.building2}`)).json().data;
    assert.ok(recharges.total > 0);
    for (const r of recharges.records) {
      assert.equal(r.accountId, account2);
      assert.equal(r.roomName, "2号楼 201");
      assert.equal(r.areaName, "2号楼");
    }
    const byRoom = (await get(`datarecharge/page?size=100&roomId=${site.room101}`)).json().data;
    assert.ok(byRoom.records.every((r: { accountId: string }) => r.accountId === account1));
    assert.equal(
      (await get(`datarecharge/page?areaId=${site.park}`)).json().data.total,
      (await get("datarecharge/page")).json().data.total,
    );
    const openings = (await get(`dataopenaccount/page?areaId=${site.building1}`)).json().data;
    assert.deepEqual(
      openings.records.map((r: { id: string; roomName: string }) => [r.id, r.roomName]),
      [[account1, "1号楼 101"]],
    );
    assert.equal((await get(`datacloseaccount/page?roomId=${site.room101}`)).json().data.total, 0);
    const owners = (await get(`ownerRecharge/page?areaId=${site.building2}`)).json().data;
    assert.deepEqual(
      owners.records.map((o: { id: string; accounts: { roomName: string }[] }) => [
        o.id,
        o.accounts.map((a) => a.roomName),
      ]),
      [[owner2, ["2号楼 201"]]],
    );
    assert.equal((await get(`ownerRecharge/page?roomId=${site.room102}`)).json().data.total, 0);
    assert.equal((await get("datarecharge/page?areaId=abc")).statusCode, 400);
  });

  test("exports: recharges, payments, openings, closings and a statement as sheets with their totals", async () => {
    const page = (await get("datarecharge/page?size=1000")).json().data;
    const recharges = await sheetOf("datarecharge/export");
    assert.equal(recharges.rows[0]![0], "收据号");
    assert.equal(recharges.rows.length, page.total + 2);
    const amountColumn = (recharges.rows[0] as string[]).indexOf("金额(元)");
    const last = recharges.rows.at(-1)!;
    assert.equal(last[0], "合计");
    assert.equal(last[amountColumn], Number(page.totals.credit));
    assert.equal(recharges.sheet.getColumn(amountColumn + 1).numFmt, "0.00");
    const first = recharges.rows[1]!;
    assert.equal(first[amountColumn], Number(page.records[0].amount));
    assert.ok(
      ["充值", "退费", "冲正加", "冲正减"].includes(
        String(first[(recharges.rows[0] as string[]).indexOf("充值类型")]),
      ),
    );

    const filtered = await sheetOf(`datarecharge/export?roomId=${site.room201}`);
    const roomTotal = (await get(`datarecharge/page?roomId=${site.room201}`)).json().data.total;
    assert.equal(filtered.rows.length, roomTotal + 2);
    const roomColumn = (filtered.rows[0] as string[]).indexOf("房间");
    assert.equal(filtered.rows[1]![roomColumn], "2号楼 201", "the sheet names the room with its building");

    const payments = await sheetOf("payment/export?channel=online");
    assert.equal(payments.rows.length, 3);
    const header = payments.rows[0] as string[];
    assert.equal(payments.rows[1]![header.indexOf("渠道")], "线上");
    assert.equal(payments.rows[1]![header.indexOf("支付方式")], "微信在线支付");
    assert.equal(payments.rows[1]![header.indexOf("状态")], "已支付");
    assert.equal(payments.rows[2]![header.indexOf("金额(元)")], 88);
    assert.equal(payments.rows[1]![header.indexOf("房间")], "2号楼 201");

    const openings = await sheetOf("dataopenaccount/export");
    assert.equal(openings.rows.length, 4);
    assert.equal(openings.rows.at(-1)![(openings.rows[0] as string[]).indexOf("预存(元)")], 20);
    const openingRooms = openings.rows
      .slice(1, -1)
      .map((r) => r[(openings.rows[0] as string[]).indexOf("房间")]);
    assert.deepEqual(openingRooms.sort(), ["1号楼 101", "2号楼 201"]);
    // Each opening with its receipt number (K…) as reprinted, and how its deposit was paid when recorded.
    const openingHeader = openings.rows[0] as string[];
    for (const row of openings.rows.slice(1, -1)) {
      assert.match(String(row[openingHeader.indexOf("收据号")]), /^K\d{8}\d+$/);
      assert.ok(openingHeader.includes("支付方式"));
    }

    // A name typed like a formula stays text.
    await server.db.query("update pms_owner set owner_name = '=HYPERLINK(\"x\")' where id = $1", [owner2]);
    const risky = await sheetOf(`payment/export?roomId=${site.room201}`);
    assert.equal(risky.rows[1]![(risky.rows[0] as string[]).indexOf("业主")], '\'=HYPERLINK("x")');
    await server.db.query("update pms_owner set owner_name = '李四' where id = $1", [owner2]);

    const balance = BigInt(await balanceOf(account2));
    const closed = await post("message/closeAccount", {
      meterId: (
        await server.db.query<{ meter_id: string }>(
          "select meter_id::text as meter_id from pms_account where id = $1",
          [account2],
        )
      )[0]!.meter_id,
    });
    assert.equal(closed.statusCode, 200, closed.body);
    const closings = await sheetOf("datacloseaccount/export");
    const closingHeader = closings.rows[0] as string[];
    assert.equal(closings.rows.length, 3);
    assert.equal(closings.rows[1]![closingHeader.indexOf("退款(元)")], Number(balance) / 100);
    assert.equal(closings.rows[1]![closingHeader.indexOf("房间")], "2号楼 201");
    // The closing's state, receipt number, final reading and what became of supply, as 销户记录 shows them.
    assert.equal(closings.rows[1]![closingHeader.indexOf("状态")], "已销户");
    assert.match(String(closings.rows[1]![closingHeader.indexOf("收据号")]), /^X\d{8}\d+$/);
    for (const column of ["最终读数", "抄表时间", "供电"]) assert.ok(closingHeader.includes(column), column);
    assert.equal(closings.rows.at(-1)![closingHeader.indexOf("退款(元)")], Number(balance) / 100);

    const today = new Intl.DateTimeFormat("en-CA", { timeZone: "Asia/Shanghai" }).format(new Date());
    const close = await server.call("POST", `${pms}/account/closeDay?day=${today}`, platform);
    assert.equal(close.statusCode, 200, close.body);
    const statement = (
      await get(`account/statement?accountId=${account1}&startDay=${today}&endDay=${today}`)
    ).json().data;
    assert.equal(statement.account.roomName, "1号楼 101");
    const sheet = await sheetOf(
      `account/statementExport?accountId=${account1}&startDay=${today}&endDay=${today}`,
    );
    assert.equal(sheet.rows.length, statement.days.length + 2);
    const statementHeader = sheet.rows[0] as string[];
    assert.equal(sheet.rows.at(-1)![statementHeader.indexOf("收入(元)")], Number(statement.totals.credit));
    assert.equal(
      sheet.rows.at(-1)![statementHeader.indexOf("期末余额(元)")],
      Number(statement.closingBalance),
    );
    assert.equal(
      (await get(`account/statementExport?accountId=${account1}&startDay=${today}`)).statusCode,
      400,
    );

    // Bounded like every export: past export.maxRows the sheet stops, says so, and still ends with the totals.
    await server.db.query(
      `insert into sys_param (id, tenant_id, param_name, param_key, param_value, platform_wide)
       values (990201, '000000', '导出行数上限', 'export.maxRows', '2', 1)`,
    );
    const cut = await get("datarecharge/export");
    assert.equal(cut.headers["x-export-truncated"], "2");
    const bounded = await sheetOf("datarecharge/export");
    assert.equal(bounded.rows.length, 5);
    assert.match(String(bounded.rows[3]![0]), /仅导出前 2 行/);
    assert.equal(bounded.rows[4]![0], "合计");
    await server.db.query("delete from sys_param where id = 990201");
  });

  test("permissions: reading is not paying, paying is not removing, exporting needs its button", async () => {
    const [role] = await server.db.query<{ id: string }>(
      "insert into sys_role (id, tenant_id, role_name, role_alias) values (990101, $1, '出纳', 'teller') returning id::text as id",
      [tenant.tenantId],
    );
    await server.db.query(
      `insert into sys_role_menu (id, role_id, menu_id)
       select 990100 + m.id, $1, m.id from sys_menu m where m.code in ('payment', 'payment_add')`,
      [role!.id],
    );
    await addUser(server.db, {
      tenantId: tenant.tenantId,
      account: "teller",
      password: "Teller-2026",
      roleIds: [role!.id],
    });
    const teller = (await server.login("teller", "Teller-2026", tenant.tenantId)).access_token;
    assert.equal((await get("payment/list", teller)).statusCode, 200);
    const order = await post("payment/save", { accountId: account1, amount: "1" }, teller);
    assert.equal(order.statusCode, 200, order.body);
    const id = order.json().data.id;
    assert.equal((await server.call("POST", `${pms}/payment/remove?ids=${id}`, teller)).statusCode, 403);
    assert.equal((await get("payment/export", teller)).statusCode, 403);
    assert.equal((await get("datarecharge/export", teller)).statusCode, 403);
    assert.equal(
      (await post("ownerRecharge/rechargeGroup", { ownerGroupId: group, amount: "1" }, teller)).statusCode,
      403,
    );
    assert.equal(
      (await post("ownerRecharge/update", { accountId: account1, alarmSchemeId: alarm }, teller)).statusCode,
      403,
    );
  });

  test("the platform administrator's money lists cross tenants, name each row's tenant and narrow to one", async () => {
    const listed = async (path: string, token: string) => {
      const res = await get(path, token);
      assert.equal(res.statusCode, 200, res.body);
      return res.json().data as { total: number; records: { tenantId: string; tenantName: string }[] };
    };
    for (const path of ["datarecharge/page", "payment/list", "dataopenaccount/page"]) {
      const own = await listed(`${path}?size=100`, tenant.token);
      assert.ok(own.total > 0, path);
      // Across every tenant, the tenant's rows are there and say whose they are.
      const all = await listed(`${path}?size=100`, platform);
      const theirs = all.records.filter((r) => r.tenantId === tenant.tenantId);
      assert.equal(theirs.length, own.total, path);
      assert.ok(
        theirs.every((r) => r.tenantName === "收款物业"),
        path,
      );
      // Narrowed to the tenant, or to another: its rows only, totals of that search.
      const narrowed = await listed(`${path}?size=100&tenantId=${tenant.tenantId}`, platform);
      assert.equal(narrowed.total, own.total, path);
      assert.equal((await listed(`${path}?tenantId=${other.tenantId}`, platform)).total, 0, path);
      // A tenant naming another stays in its own.
      assert.equal((await listed(`${path}?tenantId=${tenant.tenantId}`, other.token)).total, 0, path);
      assert.equal((await get(`${path}?tenantId=bad'`, platform)).statusCode, 400, path);
    }
    // Export across tenants opens with the tenant's code and name.
    const res = await get("datarecharge/export", platform);
    assert.equal(res.statusCode, 200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const header = (book.worksheets[0]!.getRow(1).values as unknown[]).slice(1, 3);
    assert.deepEqual(header, ["租户编号", "租户"]);
  });
});

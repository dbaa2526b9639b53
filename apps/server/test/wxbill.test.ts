import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { planFleet, plannedSecret } from "@meterline/simulator";
import ExcelJS from "exceljs";
import { FieldCipher } from "../src/crud/field-cipher.ts";
import { WxpayDouble } from "../src/modules/wxpay/double/wxpay-double.ts";
import { chinaDay } from "../src/modules/wxpay/wxbill-compare.ts";
import { downloadTradeBill } from "../src/modules/wxpay/wxbill-download.ts";
import { reconcileYesterday } from "../src/modules/wxpay/wxbill-job.ts";
import { loadMerchant, type WxpayDeps } from "../src/modules/wxpay/wxpay.service.ts";
import { WxpayCallError } from "../src/modules/wxpay/wxpay-client.ts";
import { provisionTenant } from "./fixtures.ts";
import { startTestServer, type TestServer } from "./helpers.ts";
import { created } from "./registry-fixtures.ts";
import { doubleConfig, type TestMerchant, testMerchant } from "./wxpay-fixtures.ts";

const PLAN = { meters: 1, dtus: 1, waterRatio: 0, prepaidRatio: 0, seed: "wxbill" } as const;
const pms = "/api/blade-pms";

interface Diff {
  id: string;
  kind: string;
  outTradeNo: string;
  receiptNo: string;
  ownerName: string;
  roomName: string;
  counterOperator: string;
  counterRechargeId: string;
  wechatAmount: string | null;
  localAmount: string | null;
  state: string;
  action: string;
  reason: string;
  ledgerId: string;
  rechargeId: string;
}

describe("WeChat Pay reconciliation: the daily trade bill against the orders and the ledger", () => {
  let server: TestServer;
  let admin: string;
  let base: string;
  let deps: WxpayDeps;
  let accountId: string;
  let meterId: string;
  let other: Awaited<ReturnType<typeof provisionTenant>>;
  const double = new WxpayDouble();
  const plan = planFleet(PLAN);
  const merchant = testMerchant("1900000109", "wx8888888888888888", "0123456789abcdefghijklmnopqrstuv");
  const otherMerchant = testMerchant("1900000222", "wx2222222222222222", "ABCDEFGHIJKLMNOPQRSTUVWXYZ012345");
  const today = chinaDay(new Date());
  const yesterday = chinaDay(new Date(Date.now() - 24 * 3_600_000));
  const logs: string[] = [];

  const post = (path: string, body: Record<string, unknown>, token = admin) =>
    server.call("POST", `${pms}/${path}`, token, body);
  const get = (path: string, token = admin) => server.call("GET", `${pms}/${path}`, token);
  const balance = async () =>
    BigInt(
      (
        await server.db.query<{ balance: string }>(
          "select balance::text as balance from pms_account where id = $1",
          [accountId],
        )
      )[0]!.balance,
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
  const paidOrder = async (amount: string) => {
    const res = await post("wxpay/native", { meterId, amount });
    assert.equal(res.statusCode, 200, res.body);
    const made = res.json().data as { id: string; outTradeNo: string };
    await double.pay(merchant.mchid, made.outTradeNo);
    return made;
  };
  const diffs = async (query = "", token = admin) => {
    const res = await get(`wxbill/diff-list?size=100${query}`, token);
    assert.equal(res.statusCode, 200, res.body);
    return res.json().data.records as Diff[];
  };
  const bill = async (day: string, token = admin) => {
    const res = await get(`wxbill/list?billDate=${day}`, token);
    assert.equal(res.statusCode, 200, res.body);
    return res.json().data.records[0] as
      | {
          id: string;
          state: string;
          successCount: number;
          refundCount: number;
          openCount: number;
          localCount: number;
          counterCount: number;
          counterTotal: string;
          errorCode: string;
          error: string;
        }
      | undefined;
  };
  const configure = (token: string, m: TestMerchant, tenantId: string) =>
    created(server, token, "wxconfig/submit", doubleConfig(m, double, base, tenantId));

  before(async () => {
    server = await startTestServer();
    admin = (await server.login()).access_token;
    base = await server.app.listen({ port: 0, host: "127.0.0.1" });
    await double.listen();
    double.addMerchant(merchant);
    double.addMerchant(otherMerchant);
    deps = {
      db: server.db,
      cipher: new FieldCipher(server.dataKey),
      timeZone: "Asia/Shanghai",
      log: (message, fields) => logs.push(`${message}: ${String(fields.error ?? fields.reason)}`),
    };
    await configure(admin, merchant, "000000");
    other = await provisionTenant(server, admin, "隔壁物业");
    await configure(other.token, otherMerchant, other.tenantId);
    const collector = await created(server, admin, "collector/submit", {
      collectorName: "DTU",
      collectorCode: plan.dtuIds[0],
      registrationSecret: plannedSecret(plan, plan.dtuIds[0]!),
    });
    const area = await created(server, admin, "area/save", { areaName: "对账园区", areaType: 1 });
    const ownerId = await created(server, admin, "owner/submit", {
      ownerName: "赵六",
      ownerCode: "WB1",
      phone: "13800000010",
    });
    const room = await created(server, admin, "room/save", { areaId: area, roomName: "501" });
    await created(server, admin, "ownerroom/submit", { ownerId, roomId: room });
    const scheme = await created(server, admin, "chargingscheme/submit", {
      schemeName: "电价",
      energyType: 1,
      priceMode: 1,
      price: "0.5883",
    });
    meterId = await created(server, admin, "meter/save", {
      productCode: plan.meters[0]!.address,
      collectorId: collector,
      controlStatus: 1,
      chargingSchemeId: scheme,
    });
    await created(server, admin, "roommeter/submit", { roomId: room, energyType: 1, meterId });
    const opened = await post("message/openAccount", { meterId, deposit: "100.00" });
    assert.equal(opened.statusCode, 200, opened.body);
    accountId = opened.json().data[0].accountId;
  });
  after(async () => {
    await double.close();
    await server.close();
  });

  test("a day of payments and a refund reconciles clean", async () => {
    await paidOrder("20");
    const refunded = await paidOrder("15");
    const refund = await post("wxpay/refund", { id: refunded.id, amount: "5", reason: "多充" });
    assert.equal(refund.statusCode, 200, refund.body);
    // Its result never reached us (WeChat Pay unreachable when asked): the bill settles it.
    await server.db.query("update pms_wx_refund set status = 'PROCESSING', refund_id = ''");
    const res = await post("wxbill/reconcile", { billDate: today });
    assert.equal(res.statusCode, 200, res.body);
    const [settled] = await server.db.query<{ status: string; refund_id: string }>(
      "select status, refund_id from pms_wx_refund",
    );
    assert.equal(settled?.status, "SUCCESS");
    assert.match(settled?.refund_id ?? "", /^5030\d+/);
    const day = await bill(today);
    assert.equal(day?.state, "balanced");
    assert.equal(day?.successCount, 2);
    assert.equal(day?.refundCount, 1);
    assert.equal(day?.openCount, 0);
    assert.deepEqual(await diffs(), []);
  });

  test("a bill larger than the bound is refused before it is read", async () => {
    const real = await loadMerchant(server.db, deps.cipher, "000000");
    await assert.rejects(
      downloadTradeBill(real, today, 200),
      (error: unknown) => error instanceof WxpayCallError && error.code === "BILL_TOO_LARGE",
    );
    assert.equal((await downloadTradeBill(real, today)).trades.length, 3);
  });

  test("bad days are refused naming billDate", async () => {
    for (const billDate of ["2026-13-01", "2026-02-30", "yesterday", "", "2999-01-01"]) {
      const res = await post("wxbill/reconcile", { billDate });
      assert.equal(res.statusCode, 400, `${billDate}: ${res.body}`);
      assert.match(res.json().msg, /^billDate: /);
    }
  });

  let unbooked: { id: string; outTradeNo: string };
  let hidden: { id: string; outTradeNo: string };
  let changed: { id: string; outTradeNo: string };

  test("planted wechat_only, local_only and amount mismatches are listed", async () => {
    double.notifyPlan({ mode: "drop" });
    const res = await post("wxpay/native", { meterId, amount: "30" });
    unbooked = res.json().data;
    await double.pay(merchant.mchid, unbooked.outTradeNo);
    double.notifyPlan({ mode: "deliver" });
    double.plantPayment(merchant.mchid, "MLNEVERSEEN0001", 777, today);
    hidden = await paidOrder("12");
    double.hideFromBill(merchant.mchid, hidden.outTradeNo);
    changed = await paidOrder("40");
    double.plantAmount(merchant.mchid, changed.outTradeNo, 4150);

    const res2 = await post("wxbill/reconcile", { billDate: today });
    assert.equal(res2.statusCode, 200, res2.body);
    const found = await diffs(`&billDate=${today}`);
    const byNo = new Map(found.map((d) => [d.outTradeNo, d]));
    assert.equal(found.length, 4, JSON.stringify(found));
    assert.deepEqual(
      [byNo.get(unbooked.outTradeNo)?.kind, byNo.get(unbooked.outTradeNo)?.wechatAmount],
      ["wechat_only", "30.00"],
    );
    assert.deepEqual(
      [byNo.get("MLNEVERSEEN0001")?.kind, byNo.get("MLNEVERSEEN0001")?.wechatAmount],
      ["wechat_only", "7.77"],
    );
    assert.deepEqual(
      [byNo.get(hidden.outTradeNo)?.kind, byNo.get(hidden.outTradeNo)?.localAmount],
      ["local_only", "12.00"],
    );
    const amount = byNo.get(changed.outTradeNo);
    assert.deepEqual([amount?.kind, amount?.wechatAmount, amount?.localAmount], ["amount", "41.50", "40.00"]);
    const day = await bill(today);
    assert.equal(day?.state, "differences");
    assert.equal(day?.openCount, 4);
    assert.equal((await diffs("&kind=local_only")).length, 1);
    assert.equal((await diffs("&state=settled")).length, 0);
    // Reconciling again replaces the open differences: still four, not eight.
    assert.equal((await post("wxbill/reconcile", { billDate: today })).statusCode, 200);
    assert.equal((await diffs()).length, 4);
  });

  test("settling needs a reason and an action that fits the difference", async () => {
    const [first] = await diffs("&kind=wechat_only");
    for (const [body, field] of [
      [{ id: first!.id, action: "book", reason: " " }, "reason"],
      [{ id: first!.id, action: "book", reason: "x".repeat(201) }, "reason"],
      [{ id: first!.id, action: "reverse", reason: "核对" }, "action"],
      [{ id: first!.id, action: "delete", reason: "核对" }, "action"],
      [{ action: "book", reason: "核对" }, "id"],
    ] as const) {
      const res = await post("wxbill/settle", body);
      assert.equal(res.statusCode, 400, res.body);
      assert.match(res.json().msg, new RegExp(`^${field}: `));
    }
    assert.equal((await diffs("&state=open")).length, 4);
  });

  const settle = (id: string, action: string, reason: string, token = admin) =>
    post("wxbill/settle", { id, action, reason }, token);
  const diffOf = async (no: string) => (await diffs()).find((d) => d.outTradeNo === no)!;

  test("another tenant sees nothing and settles nothing", async () => {
    assert.deepEqual(await diffs("", other.token), []);
    const listed = await get("wxbill/list", other.token);
    assert.equal(listed.json().data.total, 0);
    const target = await diffOf(unbooked.outTradeNo);
    const res = await settle(target.id, "acknowledge", "试试", other.token);
    assert.equal(res.statusCode, 404, res.body);
    assert.equal((await diffOf(unbooked.outTradeNo)).state, "open");
  });

  test("wechat_only of a known order is booked through settleTransaction, once", async () => {
    const before = await balance();
    const ledger = await ledgerCount();
    const target = await diffOf(unbooked.outTradeNo);
    const res = await settle(target.id, "book", "通知丢失,按账单入账");
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(await balance(), before + 3000n);
    assert.equal(await ledgerCount(), ledger + 1);
    const [order] = await server.db.query<{ state: number; recharge_id: string; payment_id: string }>(
      "select state, recharge_id::text as recharge_id, payment_id::text as payment_id from pms_wx_pay where id = $1",
      [unbooked.id],
    );
    assert.equal(order?.state, 1);
    const settled = await diffOf(unbooked.outTradeNo);
    assert.deepEqual(
      [settled.state, settled.action, settled.reason],
      ["settled", "book", "通知丢失,按账单入账"],
    );
    const [entry] = await server.db.query<{ entry_type: number; amount: string; recharge_id: string }>(
      "select entry_type, amount::text as amount, recharge_id::text as recharge_id from pms_ledger where id = $1",
      [settled.ledgerId],
    );
    assert.deepEqual([entry?.entry_type, entry?.amount, entry?.recharge_id], [2, "3000", order?.recharge_id]);
    const again = await settle(target.id, "book", "再来一次");
    assert.equal(again.statusCode, 400, again.body);
    assert.match(again.json().msg, /^id: 该差异已处理/);
    // The late notification finds the order paid and books nothing either.
    await double.resend(merchant.mchid, unbooked.outTradeNo);
    assert.equal(await balance(), before + 3000n);
    assert.equal(await ledgerCount(), ledger + 1);
  });

  test("wechat_only of an order Meterline never took can only be acknowledged, moving no money", async () => {
    const before = await balance();
    const ledger = await ledgerCount();
    const target = await diffOf("MLNEVERSEEN0001");
    const refused = await settle(target.id, "book", "入账");
    assert.equal(refused.statusCode, 400, refused.body);
    assert.match(refused.json().msg, /^action: /);
    const res = await settle(target.id, "acknowledge", "其他系统的订单");
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(await balance(), before);
    assert.equal(await ledgerCount(), ledger);
    assert.equal((await diffOf("MLNEVERSEEN0001")).state, "settled");
  });

  test("local_only is reversed by a correction minus; amount booked as a correction of the difference", async () => {
    const before = await balance();
    const ledger = await ledgerCount();
    const local = await diffOf(hidden.outTradeNo);
    // Money leaving the account passes the tenant's approval: above its threshold, with nobody
    // else to approve, the reversal is refused and the difference stays open.
    const threshold = (value: string) =>
      server.db.query(
        "update sys_param set param_value = $1 where tenant_id = '000000' and param_key = 'money.approval.threshold'",
        [value],
      );
    await threshold("5");
    const gated = await settle(local.id, "reverse", "微信支付无此笔");
    assert.equal(gated.statusCode, 400, gated.body);
    assert.match(gated.json().msg, /^amount: 超过审批金额/);
    assert.equal((await diffOf(hidden.outTradeNo)).state, "open");
    assert.equal(await ledgerCount(), ledger);
    await threshold("");
    assert.equal((await settle(local.id, "reverse", "微信支付无此笔")).statusCode, 200);
    assert.equal(await balance(), before - 1200n);
    const reversed = await diffOf(hidden.outTradeNo);
    const [minus] = await server.db.query<{ entry_type: number; amount: string }>(
      "select entry_type, amount::text as amount from pms_ledger where id = $1",
      [reversed.ledgerId],
    );
    assert.deepEqual([minus?.entry_type, minus?.amount], [5, "-1200"]);

    const amount = await diffOf(changed.outTradeNo);
    assert.equal((await settle(amount.id, "correct", "按微信实收调整")).statusCode, 200);
    assert.equal(await balance(), before - 1200n + 150n);
    const corrected = await diffOf(changed.outTradeNo);
    const [plus] = await server.db.query<{ entry_type: number; amount: string }>(
      "select entry_type, amount::text as amount from pms_ledger where id = $1",
      [corrected.ledgerId],
    );
    assert.deepEqual([plus?.entry_type, plus?.amount], [4, "150"]);
    assert.equal(await ledgerCount(), ledger + 2);
    // Twice is refused and books nothing more.
    assert.equal((await settle(amount.id, "correct", "再调")).statusCode, 400);
    assert.equal(await ledgerCount(), ledger + 2);
  });

  test("reconciling the day again keeps the settled differences and opens none", async () => {
    assert.equal((await post("wxbill/reconcile", { billDate: today })).statusCode, 200);
    const all = await diffs();
    assert.equal(all.length, 4);
    assert.ok(all.every((d) => d.state === "settled"));
    const day = await bill(today);
    assert.deepEqual([day?.state, day?.openCount], ["balanced", 0]);
  });

  test("the differences export as .xlsx with Chinese labels, the tenant's own only", async () => {
    const res = await get("wxbill/diff-export?state=settled");
    assert.equal(res.statusCode, 200, res.body.slice(0, 300));
    assert.match(String(res.headers["content-type"]), /spreadsheetml/);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const rows: string[][] = [];
    book.worksheets[0]!.eachRow((row) =>
      rows.push((row.values as unknown[]).slice(1).map((v) => String(v ?? ""))),
    );
    assert.deepEqual(rows[0]?.slice(0, 3), ["对账日期", "类型", "商户订单号"]);
    const amount = rows.find((r) => r[2] === changed.outTradeNo);
    assert.deepEqual(amount?.slice(4, 8), ["41.5", "40", "已处理", "调整差额"]);
    assert.equal(rows.length, 5);
    const theirs = await get("wxbill/diff-export", other.token);
    assert.equal(theirs.statusCode, 200);
    const empty = new ExcelJS.Workbook();
    await empty.xlsx.load(theirs.rawPayload as unknown as ArrayBuffer);
    assert.equal(empty.worksheets[0]!.rowCount, 1);
  });

  test("a bill whose hash does not match is refused, the run answers why, and nothing is listed", async () => {
    double.plantPayment(merchant.mchid, "MLYESTERDAY0001", 500, yesterday);
    double.tamperBillHash(merchant.mchid);
    const res = await post("wxbill/reconcile", { billDate: yesterday });
    // The run was made and recorded: its answer is the failed day with the reason, for the console to show.
    assert.equal(res.statusCode, 200, res.body);
    assert.match(res.json().msg, /^对账失败: .*SHA1/);
    const answered = res.json().data as { state: string; errorCode: string; error: string };
    assert.deepEqual([answered.state, answered.errorCode], ["failed", "BILL_HASH"]);
    assert.match(answered.error, /SHA1/);
    const day = await bill(yesterday);
    assert.equal(day?.state, "failed");
    assert.match(day?.error ?? "", /SHA1/);
    assert.deepEqual(await diffs(`&billDate=${yesterday}`), []);
  });

  test("the daily job reconciles yesterday after 10:00 Beijing time and retries a failed day later", async () => {
    double.tamperBillHash(merchant.mchid, false);
    const morning = new Date(`${today}T00:30:00Z`); // 08:30 in Beijing
    assert.equal(await reconcileYesterday(deps, morning), 0);
    const noon = new Date(`${today}T04:00:00Z`); // 12:00 in Beijing
    // Failed half an hour ago: not yet again (the other tenant's day is reconciled).
    await server.db.query(
      "update pms_wx_bill set update_time = $1 where tenant_id = '000000' and bill_date = $2",
      [new Date(noon.getTime() - 30 * 60_000), yesterday],
    );
    await reconcileYesterday(deps, noon);
    assert.equal((await bill(yesterday))?.state, "failed");
    assert.equal((await bill(yesterday, other.token))?.state, "balanced");
    await server.db.query(
      "update pms_wx_bill set update_time = $1 where tenant_id = '000000' and bill_date = $2",
      [new Date(noon.getTime() - 2 * 3_600_000), yesterday],
    );
    assert.equal(await reconcileYesterday(deps, noon), 1);
    const day = await bill(yesterday);
    assert.deepEqual([day?.state, day?.openCount], ["differences", 1]);
    assert.equal((await diffs(`&billDate=${yesterday}`))[0]?.outTradeNo, "MLYESTERDAY0001");
    // Done days are left alone.
    assert.equal(await reconcileYesterday(deps, noon), 0);
  });

  test("a settlement waiting for approval reads held; rejected, the difference is open again and can be settled anew", async () => {
    const reversed = await diffOf(hidden.outTradeNo);
    assert.equal(reversed.state, "settled");
    const first = reversed.rechargeId;
    // The money approval's own states (031): 3 waits for a second person, 4 was rejected.
    const approval = (state: number) =>
      server.db.query("update pms_recharge set state = $2 where id = $1", [first, state]);
    await approval(3);
    assert.equal((await diffOf(hidden.outTradeNo)).state, "held");
    assert.equal((await settle(reversed.id, "acknowledge", "再处理")).statusCode, 400);
    assert.equal((await bill(today))?.state, "differences");
    await approval(4);
    assert.equal((await diffOf(hidden.outTradeNo)).state, "open");
    assert.deepEqual(
      (await diffs(`&state=open&billDate=${today}`)).map((d) => d.outTradeNo),
      [hidden.outTradeNo],
    );
    assert.deepEqual([(await bill(today))?.state, (await bill(today))?.openCount], ["differences", 1]);
    // Settled again: a new correction (the rejected one is not replayed), and the day balances.
    assert.equal((await settle(reversed.id, "reverse", "审批驳回后重新冲正")).statusCode, 200);
    const again = await diffOf(hidden.outTradeNo);
    assert.equal(again.state, "settled");
    assert.notEqual(again.rechargeId, first);
    assert.deepEqual([(await bill(today))?.state, (await bill(today))?.openCount], ["balanced", 0]);
  });

  /** A counter recharge of the account, moved to `day` at Beijing `time` (the day the bill is asked for). */
  const counterRecharge = async (amount: string, paymentMethod: number, day: string, time: string) => {
    const res = await post("datarecharge/submit", {
      accountId,
      amount,
      paymentMethod,
      idempotencyKey: `wxbill-counter-${amount}-${paymentMethod}-${day}`,
    });
    assert.equal(res.statusCode, 200, res.body);
    const taken = res.json().data as { id: string; receiptNo: string };
    await server.db.query("update pms_recharge set create_time = $2 where id = $1", [
      taken.id,
      new Date(`${day}T${time}+08:00`),
    ]);
    return taken;
  };
  const counterDay = chinaDay(new Date(Date.now() - 3 * 86_400_000));

  test("a counter 微信 recharge that the (empty) bill lacks makes the day unbalanced and is listed with its recharge", async () => {
    const wechat = await counterRecharge("200", 3, counterDay, "09:30:00");
    // Cash is not WeChat money: it is not counted.
    await counterRecharge("80", 1, counterDay, "09:40:00");
    const res = await post("wxbill/reconcile", { billDate: counterDay });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().msg, "对账完成");
    const day = await bill(counterDay);
    assert.deepEqual(
      [day?.state, day?.successCount, day?.localCount, day?.counterCount, day?.counterTotal, day?.openCount],
      ["differences", 0, 0, 1, "200.00", 1],
    );
    const found = await diffs(`&billDate=${counterDay}`);
    assert.equal(found.length, 1, JSON.stringify(found));
    const [operator] = await server.db.query<{ operator: string }>(
      "select operator from pms_recharge where id = $1",
      [wechat.id],
    );
    const diff = found[0]!;
    assert.deepEqual(
      [diff.kind, diff.state, diff.localAmount, diff.wechatAmount, diff.receiptNo, diff.counterRechargeId],
      ["counter_only", "open", "200.00", null, wechat.receiptNo, wechat.id],
    );
    assert.deepEqual([diff.ownerName, diff.roomName, diff.outTradeNo], ["赵六", "对账园区 501", ""]);
    assert.ok(operator?.operator);
    assert.equal(diff.counterOperator, operator?.operator);
    assert.equal((await diffs("&kind=counter_only")).length, 1);
  });

  test("a counter recharge the bill has as a trade without an order is matched, not a difference", async () => {
    // Paid with the merchant's code at the counter: WeChat Pay lists it, no order of ours names it.
    await counterRecharge("150", 3, counterDay, "11:58:00");
    double.plantPayment(merchant.mchid, "POSCOUNTER000001", 15000, counterDay);
    assert.equal((await post("wxbill/reconcile", { billDate: counterDay })).statusCode, 200);
    const day = await bill(counterDay);
    assert.deepEqual(
      [day?.state, day?.successCount, day?.counterCount, day?.counterTotal, day?.openCount],
      ["differences", 1, 2, "350.00", 1],
    );
    assert.deepEqual(
      (await diffs(`&billDate=${counterDay}`)).map((d) => [d.kind, d.localAmount]),
      [["counter_only", "200.00"]],
    );
  });

  test("settling the counter difference with a note balances the day; a later one can be reversed", async () => {
    const [open] = await diffs(`&billDate=${counterDay}&state=open`);
    const ledger = await ledgerCount();
    const acknowledged = await settle(open!.id, "acknowledge", "业主扫了收银员的个人收款码,款已上交");
    assert.equal(acknowledged.statusCode, 200, acknowledged.body);
    assert.equal(await ledgerCount(), ledger);
    assert.deepEqual([(await bill(counterDay))?.state, (await bill(counterDay))?.openCount], ["balanced", 0]);
    // Reconciling again keeps it settled, and the day balanced.
    assert.equal((await post("wxbill/reconcile", { billDate: counterDay })).statusCode, 200);
    assert.deepEqual([(await bill(counterDay))?.state, (await bill(counterDay))?.openCount], ["balanced", 0]);

    // 微信在线支付 written down at the counter, with no order: WeChat money the bill must have too.
    const online = await counterRecharge("60", 5, counterDay, "15:00:00");
    assert.equal((await post("wxbill/reconcile", { billDate: counterDay })).statusCode, 200);
    assert.equal((await bill(counterDay))?.state, "differences");
    const [later] = await diffs(`&billDate=${counterDay}&state=open`);
    assert.deepEqual([later?.kind, later?.receiptNo], ["counter_only", online.receiptNo]);
    assert.equal((await settle(later!.id, "book", "入账")).statusCode, 400);
    const before = await balance();
    const reversed = await settle(later!.id, "reverse", "未收到款");
    assert.equal(reversed.statusCode, 200, reversed.body);
    assert.equal(await balance(), before - 6000n);
    const settled = (await diffs(`&billDate=${counterDay}`)).find((d) => d.id === later!.id)!;
    const [minus] = await server.db.query<{ entry_type: number; amount: string; payment_method: number }>(
      `select l.entry_type, l.amount::text as amount, r.payment_method
         from pms_ledger l join pms_recharge r on r.id = l.recharge_id where l.id = $1`,
      [settled.ledgerId],
    );
    assert.deepEqual([minus?.entry_type, minus?.amount, minus?.payment_method], [5, "-6000", 5]);
    // The reversal is no new WeChat money: the day stays balanced when reconciled again.
    assert.equal((await post("wxbill/reconcile", { billDate: counterDay })).statusCode, 200);
    assert.deepEqual(
      [(await bill(counterDay))?.state, (await bill(counterDay))?.counterCount],
      ["balanced", 3],
    );
  });

  test("a run without a merchant, or with WeChat Pay unreachable, is stored failed and answers why", async () => {
    const third = await provisionTenant(server, admin, "未配微信物业");
    const none = await post("wxbill/reconcile", { billDate: yesterday }, third.token);
    assert.equal(none.statusCode, 200, none.body);
    assert.match(none.json().msg, /^对账失败: 未配置或未启用微信支付/);
    assert.deepEqual(
      [none.json().data.state, none.json().data.errorCode, none.json().data.mchid],
      ["failed", "MERCHANT", ""],
    );
    const listed = await bill(yesterday, third.token);
    assert.deepEqual(
      [listed?.state, listed?.errorCode, listed?.error],
      ["failed", "MERCHANT", "未配置或未启用微信支付"],
    );

    // Configured now, but WeChat Pay cannot be reached: the run's failure replaces the one without a merchant.
    const closed = new WxpayDouble();
    await closed.listen();
    const unreachable = testMerchant("1900000333", "wx3333333333333333", "3333333333333333333333333333333a");
    await created(server, third.token, "wxconfig/submit", {
      ...doubleConfig(unreachable, closed, base, third.tenantId),
    });
    await closed.close();
    const down = await post("wxbill/reconcile", { billDate: yesterday }, third.token);
    assert.equal(down.statusCode, 200, down.body);
    assert.deepEqual([down.json().data.state, down.json().data.errorCode], ["failed", "NETWORK"]);
    assert.match(down.json().msg, /^对账失败: 微信支付不可达/);
    const days = (await get(`wxbill/list?billDate=${yesterday}`, third.token)).json().data.records as {
      mchid: string;
      error: string;
    }[];
    assert.deepEqual(
      days.map((d) => d.mchid),
      ["1900000333"],
    );
    assert.match(days[0]!.error, /微信支付不可达/);
  });
});

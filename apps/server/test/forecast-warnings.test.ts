import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { addDays } from "@meterline/analytics";
import type { Queryable } from "../src/db/client.ts";
import { nextId } from "../src/db/ids.ts";
import { warnDailyIfDue, warnTenant } from "../src/modules/forecast-warnings/forecast-warnings.service.ts";
import { DbReadingsSink } from "../src/modules/metering/readings-sink.db.ts";
import { localDay } from "../src/modules/metering/usage-periods.ts";
import { provisionTenant } from "./fixtures.ts";
import { startTestServer, type TestServer } from "./helpers.ts";
import { buildSite, created } from "./registry-fixtures.ts";
import { type SmsDouble, startAliyunDouble } from "./sms-doubles.ts";

const pms = "/api/blade-pms";
const H5 = `${pms}/h5`;
const ZONE = "Asia/Shanghai";
const ZHANG = "13800000001";
const LI = "13800000002";
/** Ten yuan of usage charges a day. */
const DAILY_FEN = 1000;

interface QueuedOut {
  id: string;
  ruleCode: string | null;
  templateParams: string;
  state: number;
}

/** Waits for the notice queue (polling every half second here) to bring a state about. */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 30_000;
  let last = await read();
  while (!done(last)) {
    if (Date.now() > deadline) assert.fail(`${what}: still ${JSON.stringify(last)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    last = await read();
  }
  return last;
}

describe("owner warnings before the forecast cut: daily run, SMS once per episode, owner page", () => {
  let server: TestServer;
  let aliyun: SmsDouble;
  let a: string;
  let b: string;
  let tenantA: string;
  let site: Awaited<ReturnType<typeof buildSite>>;
  let zhangAccount: string;
  let liAccount: string;
  /** The tenant's local today: the charges are of the days before it, as the owner page reads them. */
  const today = localDay(new Date(), ZONE);
  /** 10:00 local on the day `offset` days from today: a daily run's clock. */
  const morning = (offset: number) => new Date(`${addDays(today, offset)}T10:00:00+08:00`);

  const post = (path: string, body: Record<string, unknown>, token = a) =>
    server.call("POST", `${pms}/${path}`, token, body);
  const forecastMessages = async (): Promise<QueuedOut[]> => {
    const res = await server.call("GET", `${pms}/messagequeue/list?current=1&size=100`, a);
    assert.equal(res.statusCode, 200, res.body);
    return (res.json().data.records as QueuedOut[]).filter((m) => m.ruleCode === "balance_forecast");
  };
  /** Texts that reached the provider double carrying a forecast (sign-in codes do not). */
  const warningTexts = () => aliyun.received.filter((m) => "days" in (m.params as Record<string, string>));
  /** A ledger entry of the account (usage charge of a day, or a correction minus) and its balance. */
  const book = (accountId: string, fen: number, entryType: 6 | 5, day: string | null) =>
    server.db.query(
      `with moved as (
         update pms_account set balance = balance - $3 where id = $1 and tenant_id = $2
         returning tenant_id, id, owner_id, balance)
       insert into pms_ledger (id, tenant_id, account_id, owner_id, entry_type, amount, balance_after, usage_day, cause)
       select $4, tenant_id, id, owner_id, $5, -$3::bigint, balance, $6::date, '测试用量' from moved`,
      [accountId, tenantA, fen, nextId(), entryType, day],
    );
  /** Usage charges of ten yuan on each day from `from` to `to` days from today. */
  const spendDays = async (accountId: string, from: number, to: number) => {
    for (let offset = from; offset <= to; offset++)
      await book(accountId, DAILY_FEN, 6, addDays(today, offset));
  };
  const balanceOf = async (accountId: string) =>
    (
      await server.db.query<{ balance: string }>(
        "select balance::text as balance from pms_account where id = $1",
        [accountId],
      )
    )[0]!.balance;
  const runDay = (offset: number) => warnDailyIfDue(server.db, morning(offset), ZONE);
  /** The forecast the console's meter page shows beside the account's balance. */
  const consoleForecast = async (meterId: string) => {
    const res = await server.call("GET", `${pms}/meter/overview?id=${meterId}`, a);
    assert.equal(res.statusCode, 200, res.body);
    return res.json().data.meter.account.forecast as { days: number; day: string } | undefined;
  };

  before(async () => {
    server = await startTestServer({
      notices: { pollSeconds: 0.5, backoff: { baseSeconds: 0.2, maxSeconds: 1 } },
    });
    aliyun = await startAliyunDouble({ LTAIforecast: "forecast-secret" });
    const platform = (await server.login()).access_token;
    const first = await provisionTenant(server, platform, "甲物业");
    a = first.token;
    tenantA = first.tenantId;
    b = (await provisionTenant(server, platform, "乙物业")).token;
    const setting = await server.call("POST", "/api/blade-resource/sms/submit", a, {
      category: 3,
      smsCode: "ali",
      templateId: "SMS_BALANCE",
      accessKey: "LTAIforecast",
      secretKey: "forecast-secret",
      signName: "甲物业",
      endpoint: aliyun.url,
    });
    assert.equal(setting.statusCode, 200, setting.body);
    const enabled = await server.call("POST", "/api/blade-resource/sms/enable", a, {
      id: setting.json().data.id,
    });
    assert.equal(enabled.statusCode, 200, enabled.body);

    site = await buildSite(server, a);
    const price = await created(server, a, "chargingscheme/submit", {
      schemeName: "一元电",
      energyType: 1,
      priceMode: 1,
      price: "1",
    });
    const li = await created(server, a, "owner/submit", { ownerName: "李四", ownerCode: "O2", phone: LI });
    await created(server, a, "ownerroom/submit", { ownerId: li, roomId: site.room102 });
    const liMeter = await created(server, a, "meter/save", {
      productCode: "100000000102",
      collectorId: site.collector,
      channel: 2,
    });
    await created(server, a, "roommeter/submit", { roomId: site.room102, energyType: 1, meterId: liMeter });
    const sink = new DbReadingsSink(server.db, ZONE);
    // 张三: 25 yuan left after two weeks at ten a day; 李四: 500 left at the same pace.
    for (const [meterId, address, deposit] of [
      [site.meter, "100000000101", "165"],
      [liMeter, "100000000102", "640"],
    ] as const) {
      await created(server, a, "meter/submit", {
        id: meterId,
        productCode: address,
        collectorId: site.collector,
        controlStatus: 1,
        chargingSchemeId: price,
      });
      await sink.record({
        meterId,
        address,
        at: new Date(Date.now() - 3_600_000),
        energy: { total: "1000.00", tariffs: [] },
        relay: "closed",
        missing: [],
      });
      const opened = await post("message/openAccount", { meterId, deposit });
      assert.equal(opened.statusCode, 200, opened.body);
    }
    const accounts = await server.db.query<{ id: string; meter_id: string }>(
      "select id::text as id, meter_id::text as meter_id from pms_account where tenant_id = $1 and status = 1",
      [tenantA],
    );
    zhangAccount = accounts.find((x) => x.meter_id === site.meter)!.id;
    liAccount = accounts.find((x) => x.meter_id === liMeter)!.id;
    // Both opened a month ago, and spent ten yuan on each of the last fourteen days.
    await server.db.query(
      "update pms_account set opened_time = now() - interval '30 days' where tenant_id = $1",
      [tenantA],
    );
    await spendDays(zhangAccount, -14, -1);
    await spendDays(liAccount, -14, -1);
    assert.equal(await balanceOf(zhangAccount), "2500");
    assert.equal(await balanceOf(liAccount), "50000");
  });
  after(async () => {
    await server?.close();
    await aliyun?.close();
  });

  test("the warning days are the tenant's setting beside its money policy; bad input is refused naming the field", async () => {
    const detail = await server.call("GET", `${pms}/money-policy/detail`, a);
    assert.equal(detail.statusCode, 200, detail.body);
    assert.deepEqual(
      [detail.json().data.warnDays, detail.json().data.warnDaysOwn, detail.json().data.warnDaysDefault],
      [3, false, 3],
      "the platform's default of three days applies until the tenant sets its own",
    );
    for (const warnDays of ["abc", "2.5", "-1", "31", true]) {
      const bad = await post("money-policy/warn-days", { warnDays });
      assert.equal(bad.statusCode, 400, `${warnDays}: ${bad.body}`);
      assert.match(bad.json().msg, /^warnDays: /);
    }
    const missing = await post("money-policy/warn-days", {});
    assert.equal(missing.statusCode, 400);
    assert.match(missing.json().msg, /^warnDays: /);
    // Another tenant turns its warnings off; this tenant's stay as they were.
    const off = await post("money-policy/warn-days", { warnDays: "" }, b);
    assert.equal(off.statusCode, 200, off.body);
    assert.deepEqual([off.json().data.warnDays, off.json().data.warnDaysOwn], [0, true]);
    const set = await post("money-policy/warn-days", { warnDays: "3" });
    assert.equal(set.statusCode, 200, set.body);
    assert.deepEqual([set.json().data.warnDays, set.json().data.warnDaysOwn], [3, true]);
  });

  test("the owner page answers each account's forecast, and whether it is within the warning days", async () => {
    const address = "10.7.0.1";
    const sent = await server.inject({
      method: "POST",
      url: `${H5}/code`,
      remoteAddress: address,
      payload: { tenantId: tenantA, phone: ZHANG },
    });
    assert.equal(sent.statusCode, 200, sent.body);
    const code = (
      aliyun.received.filter((m) => m.phones.includes(ZHANG)).at(-1)!.params as Record<string, string>
    ).code;
    const signedIn = await server.inject({
      method: "POST",
      url: `${H5}/sign-in`,
      remoteAddress: address,
      payload: { tenantId: tenantA, phone: ZHANG, code },
    });
    assert.equal(signedIn.statusCode, 200, signedIn.body);
    const token = signedIn.json().data.token as string;
    const bound = await server.inject({
      method: "POST",
      url: `${H5}/bind`,
      remoteAddress: address,
      headers: { "h5-auth": token },
      payload: { room: "101", phone: ZHANG },
    });
    assert.equal(bound.statusCode, 200, bound.body);
    const me = await server.inject({ method: "GET", url: `${H5}/me`, headers: { "h5-auth": token } });
    assert.equal(me.statusCode, 200, me.body);
    const account = (
      me.json().data.accounts as { id: string; forecastDays: number; forecastWarning: boolean }[]
    ).find((x) => x.id === zhangAccount);
    // 25 yuan at ten a day: gone in the third day, within the three warning days.
    assert.deepEqual([account?.forecastDays, account?.forecastWarning], [3, true]);
  });

  test("25 yuan at 10 a day with 3 warning days: one SMS; none again the same day or the next; none for plenty", async () => {
    assert.deepEqual(await runDay(0), [tenantA], "the tenant with open accounts runs");
    const [message] = await until(
      forecastMessages,
      (list) => list.length === 1 && list[0]!.state === 3,
      "the warning sent",
    );
    assert.deepEqual(JSON.parse(message!.templateParams), {
      name: "张三",
      room: "1号楼 101",
      balance: "25.00",
      days: "3",
    });
    assert.equal(warningTexts().length, 1);
    assert.deepEqual(warningTexts()[0]!.phones, [ZHANG], "李四, with 50 days left, gets none");
    assert.equal(warningTexts()[0]!.templateId, "SMS_BALANCE");
    // Every send is recorded with the message it belongs to.
    const records = await server.call(
      "GET",
      `${pms}/sms/page?current=1&size=100&messageId=${message!.id}`,
      a,
    );
    assert.equal(records.json().data.records.length, 1);
    // The console's meter page shows the run's figure beside the balance.
    assert.deepEqual(await consoleForecast(site.meter), { days: 3, day: today });

    // The same day again (later, or by another process): already run, nothing sent.
    assert.deepEqual(
      await warnDailyIfDue(server.db, new Date(morning(0).getTime() + 6 * 3_600_000), ZONE),
      [],
    );
    assert.equal(await warnTenant(server.db, tenantA, morning(0), ZONE), undefined);
    // Before nine in the morning nothing runs at all.
    assert.deepEqual(
      await warnDailyIfDue(server.db, new Date(`${addDays(today, 1)}T08:59:00+08:00`), ZONE),
      [],
    );
    // The next day the balance is lower still: the same episode, no second SMS.
    await spendDays(zhangAccount, 0, 0);
    await spendDays(liAccount, 0, 0);
    assert.deepEqual(await warnTenant(server.db, tenantA, morning(1), ZONE), {
      accounts: 2,
      warned: 0,
      ended: 0,
    });
    await new Promise((resolve) => setTimeout(resolve, 1200));
    assert.equal((await forecastMessages()).length, 1);
    assert.equal(warningTexts().length, 1);
  });

  test("a recharge lifts the forecast above the warning days and ends the episode; a new fall warns again", async () => {
    const recharge = await post("datarecharge/submit", {
      meterId: site.meter,
      amount: "100",
      paymentMethod: 1,
      idempotencyKey: "forecast-recharge-1",
    });
    assert.equal(recharge.statusCode, 200, recharge.body);
    // The morning's figure is stale once the balance rose: the console no longer shows it.
    assert.equal(await consoleForecast(site.meter), undefined);
    await spendDays(zhangAccount, 1, 1);
    await spendDays(liAccount, 1, 1);
    assert.equal(await balanceOf(zhangAccount), "10500");
    assert.deepEqual(await warnTenant(server.db, tenantA, morning(2), ZONE), {
      accounts: 2,
      warned: 0,
      ended: 1,
    });
    const [episode] = await server.db.query<{ open: number; forecast_days: number }>(
      "select open, forecast_days from pms_forecast_warning where tenant_id = $1 and account_id = $2",
      [tenantA, zhangAccount],
    );
    assert.equal(episode!.open, 0);
    assert.ok(episode!.forecast_days > 3, `forecast ${episode!.forecast_days} days`);

    // Spent on, and 70 yuan taken off by a correction: 25 left again, a new warning.
    await spendDays(zhangAccount, 2, 2);
    await spendDays(liAccount, 2, 2);
    await book(zhangAccount, 7000, 5, null);
    assert.equal(await balanceOf(zhangAccount), "2500");
    // Set-based: the tenant's run is six statements (claim, setting, accounts, charges, messages,
    // episodes), none of them per account.
    let statements = 0;
    const counting = new Proxy(server.db, {
      get(target, property, receiver) {
        if (property !== "transaction") return Reflect.get(target, property, receiver);
        return <T>(fn: (tx: Queryable) => Promise<T>) =>
          target.transaction((tx) =>
            fn({
              query: (sql, params) => {
                statements++;
                return tx.query(sql, params);
              },
            }),
          );
      },
    });
    assert.deepEqual(await warnDailyIfDue(counting, morning(3), ZONE), [tenantA]);
    assert.equal(statements, 6);
    const messages = await until(
      forecastMessages,
      (list) => list.length === 2 && list.every((m) => m.state === 3),
      "the second warning sent",
    );
    assert.deepEqual(messages.map((m) => JSON.parse(m.templateParams).balance).sort(), ["25.00", "25.00"]);
    assert.equal(warningTexts().length, 2);
    assert.ok(warningTexts().every((m) => m.phones[0] === ZHANG));
  });

  test("warning days 0: nothing is sent, however close the cut", async () => {
    const off = await post("money-policy/warn-days", { warnDays: 0 });
    assert.equal(off.statusCode, 200, off.body);
    // The open episode ends with warnings off, so that turning them on again would warn anew.
    assert.deepEqual(await warnTenant(server.db, tenantA, morning(4), ZONE), {
      accounts: 2,
      warned: 0,
      ended: 1,
    });
    await book(zhangAccount, 1000, 6, addDays(today, 3));
    assert.deepEqual(await warnTenant(server.db, tenantA, morning(5), ZONE), {
      accounts: 2,
      warned: 0,
      ended: 0,
    });
    await new Promise((resolve) => setTimeout(resolve, 1200));
    assert.equal((await forecastMessages()).length, 2);
    assert.equal(warningTexts().length, 2);
  });
});

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { silentLogger } from "@meterline/gateway";
import {
  type ElectricMeter,
  type FleetHandle,
  planFleet,
  plannedSecret,
  startFleet,
} from "@meterline/simulator";
import { FieldCipher } from "../src/crud/field-cipher.ts";
import { type EmbeddedMetering, startEmbeddedMetering } from "../src/modules/metering/embedded-gateway.ts";
import { provisionTenant } from "./fixtures.ts";
import { startTestServer, type TestServer } from "./helpers.ts";
import { created } from "./registry-fixtures.ts";

// Three electric meters on one DTU: the plan makes the second one local prepaid, the others not.
const PLAN = { meters: 3, dtus: 1, waterRatio: 0, prepaidRatio: 0.5, seed: "meter-writes" } as const;
const pms = "/api/blade-pms";

describe("money written to meters: local-prepaid purchases and the arrears cut, on the simulated fleet", () => {
  let server: TestServer;
  let admin: string;
  let metering: EmbeddedMetering;
  let fleet: FleetHandle;
  const plan = planFleet(PLAN);
  const [remote, prepaid, protectedMeter] = plan.meters;
  const ids: Record<string, string> = {};
  let prepaidAccount: string;

  const post = (path: string, body: Record<string, unknown>, token = admin) =>
    server.call("POST", `${pms}/${path}`, token, body);
  const sim = (address: string) => fleet.meter(address) as ElectricMeter;
  /** `recheckMs`: how soon a write left "timeout" is read back again by the same gateway. */
  const startGateway = (port: string, recheckMs = 600_000) =>
    startEmbeddedMetering({
      db: server.db,
      cipher: new FieldCipher(server.dataKey),
      logger: silentLogger,
      // Polls only when asked: a fault injected for a write must meet that write.
      pollIntervalMs: 3_600_000,
      demoFleet: false,
      env: {
        GATEWAY_PORT: port,
        GATEWAY_HOST: "127.0.0.1",
        GATEWAY_REQUEST_TIMEOUT_MS: "700",
        GATEWAY_TIMEOUT_RECHECK_MS: String(recheckMs),
      },
    });
  const waitFor = async <T>(what: string, probe: () => Promise<T | undefined>): Promise<T> => {
    for (let i = 0; i < 300; i++) {
      const value = await probe();
      if (value !== undefined) return value;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`timed out waiting for ${what}`);
  };
  const command = async (id: string) =>
    (
      await server.db.query<{
        state: string;
        evidence: string | null;
        command_type: string;
        payload: string;
      }>("select state, evidence, command_type, payload from pms_meter_command where id = $1", [id])
    )[0]!;
  const settled = (id: string) =>
    waitFor(`command ${id} settled`, async () => {
      const row = await command(id);
      return row.state === "success" || row.state === "fail" ? row : undefined;
    });
  const recharge = async (id: string) =>
    (
      await server.db.query<{
        state: number;
        balance_after: string | null;
        ledger_id: string | null;
        payment_id: string | null;
      }>(
        "select state, balance_after::text as balance_after, ledger_id::text as ledger_id, payment_id::text as payment_id from pms_recharge where id = $1",
        [id],
      )
    )[0]!;
  const entries = async (accountId: string, type?: number) =>
    server.db.query<{
      id: string;
      entry_type: number;
      amount: string;
      recharge_id: string | null;
      cause: string;
    }>(
      `select id::text as id, entry_type, amount::text as amount, recharge_id::text as recharge_id, cause from pms_ledger
        where account_id = $1 and ($2::int is null or entry_type = $2) order by create_time, id`,
      [accountId, type ?? null],
    );
  const account = async (id: string) =>
    (
      await server.db.query<{ balance: string; arrears_cut: number; alarm_level: number }>(
        "select balance::text as balance, arrears_cut, alarm_level from pms_account where id = $1",
        [id],
      )
    )[0]!;
  const commandsOf = (meterId: string) =>
    server.db.query<{ id: string; source: string; state: string }>(
      "select id::text as id, source, state from pms_meter_command where meter_id = $1 order by create_time, id",
      [meterId],
    );
  /** Polls the meter and waits for the reading to land (its read time moves). */
  const poll = async (address: string) => {
    const readTime = async () =>
      (
        await server.db.query<{ t: Date | null }>(
          "select max(read_time) as t from pms_meter_current_data where product_code = $1",
          [address],
        )
      )[0]?.t?.getTime() ?? 0;
    const before = await readTime();
    metering.gateway.pollNow([ids[address]!]);
    await waitFor(`a reading of ${address}`, async () => ((await readTime()) > before ? true : undefined));
    // The sink stores the reading, then shadows a local-prepaid account in its own transaction:
    // wait for that too (briefly: a reading the shadow must leave alone moves nothing).
    const read = await readTime();
    for (let i = 0; i < 20; i++) {
      const [open] = await server.db.query<{ t: Date | null }>(
        "select priced_time as t from pms_account where meter_id = $1 and status = 1 and control_status = 0",
        [ids[address]],
      );
      if (!open || (open.t?.getTime() ?? 0) >= read) return;
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  before(async () => {
    server = await startTestServer();
    admin = (await server.login()).access_token;
    const collector = await created(server, admin, "collector/submit", {
      collectorName: "DTU",
      collectorCode: plan.dtuIds[0],
      registrationSecret: plannedSecret(plan, plan.dtuIds[0]!),
    });
    const area = await created(server, admin, "area/save", { areaName: "写表园区", areaType: 1 });
    const owner = await created(server, admin, "owner/submit", { ownerName: "李四", ownerCode: "MW1" });
    const scheme = await created(server, admin, "chargingscheme/submit", {
      schemeName: "本地费控电价",
      energyType: 1,
      priceMode: 1,
      price: "0.5883",
    });
    const alarm = await created(server, admin, "alarmscheme/submit", {
      schemeName: "断电告警",
      energyType: 1,
      firstAlarm: "50",
      secondAlarm: "20",
      arrearsLimit: "10",
      tripOnArrears: 1,
    });
    const guarded = await created(server, admin, "alarmscheme/submit", {
      schemeName: "保电告警",
      energyType: 1,
      firstAlarm: "50",
      secondAlarm: "20",
      arrearsLimit: "10",
      tripOnArrears: 1,
      // Supply is never cut from midnight to 23:59 local time.
      protectTimes: JSON.stringify([{ start: "00:00", end: "23:59" }]),
    });
    for (const [meter, controlStatus, alarmSchemeId] of [
      [remote!, 1, alarm],
      [prepaid!, 0, alarm],
      [protectedMeter!, 1, guarded],
    ] as const) {
      const room = await created(server, admin, "room/save", {
        areaId: area,
        roomName: meter.address.slice(-3),
      });
      await created(server, admin, "ownerroom/submit", { ownerId: owner, roomId: room });
      ids[meter.address] = await created(server, admin, "meter/save", {
        productCode: meter.address,
        collectorId: collector,
        controlStatus,
        chargingSchemeId: scheme,
        alarmSchemeId,
      });
      await created(server, admin, "roommeter/submit", {
        roomId: room,
        energyType: 1,
        meterId: ids[meter.address],
      });
    }
    assert.deepEqual(
      plan.meters.map((m) => m.localPrepaid),
      [false, true, false],
    );
    metering = await startGateway("0");
    fleet = await startFleet({ ...PLAN, gateway: metering.gateway.address() });
    // The first poll reads every meter, the prepaid one's purchase count among them.
    await waitFor("the prepaid meter's purchase count", async () => {
      const [row] = await server.db.query<{ purchase_count: number }>(
        "select purchase_count from pms_meter_purchase_count where meter_id = $1",
        [ids[prepaid!.address]],
      );
      return row ? row.purchase_count : undefined;
    });
  });
  after(async () => {
    await fleet?.close();
    await metering?.close();
    await server.close();
  });

  test("opening a local-prepaid meter writes its prices and limits, then the deposit as its first purchase", async () => {
    const meter = sim(prepaid!.address);
    const balanceBefore = meter.balanceFen;
    const res = await post("message/openAccount", { meterId: ids[prepaid!.address], deposit: "100" });
    assert.equal(res.statusCode, 200, res.body);
    const [opened] = res.json().data;
    prepaidAccount = opened.accountId;
    assert.equal(opened.balance, "0.00", "nothing is booked before the meter confirms");
    assert.equal(
      opened.meterWrites.commandIds.length,
      10,
      "4 prices, the ladder cleared (threshold 1, price 1), 3 limits and the deposit",
    );
    assert.equal(opened.meterWrites.depositCommandId, opened.meterWrites.commandIds[9]);
    for (const id of opened.meterWrites.commandIds) {
      const done = await settled(id);
      assert.equal(done.state, "success", done.evidence ?? "");
    }
    assert.deepEqual(meter.prices, [5883, 5883, 5883, 5883]);
    assert.deepEqual(
      [meter.ladderThresholds[0], meter.ladderPrices[0]],
      [0, 0],
      "a flat price has no ladder",
    );
    assert.deepEqual([meter.alarm1Fen, meter.alarm2Fen, meter.overdraftLimitFen], [5000, 2000, 1000]);
    assert.equal(meter.purchaseCount, 1);
    assert.ok(meter.balanceFen > balanceBefore + 10_000 - 100 && meter.balanceFen <= balanceBefore + 10_000);
    const deposits = await entries(prepaidAccount, 1);
    assert.deepEqual(
      deposits.map((e) => e.amount),
      ["10000"],
    );
    assert.equal((await account(prepaidAccount)).balance, "10000");

    // The next reading makes the account the meter's balance: the money already in the meter is an
    // unexplained rise (a correction naming it), and the ledger still adds up.
    await poll(prepaid!.address);
    const [read] = await server.db.query<{ balance: string }>(
      "select balance::text as balance from pms_meter_current_data where meter_id = $1",
      [ids[prepaid!.address]],
    );
    const shadow = await account(prepaidAccount);
    assert.equal(shadow.balance, String(Math.round(Number(read!.balance) * 100)));
    const corrections = await entries(prepaidAccount, 4);
    assert.equal(corrections.length, 1);
    assert.match(corrections[0]!.cause, /^表内余额 [\d.]+ 元高于账面 100\.00 元/);
    const check = await server.call("GET", `${pms}/ledger/check`, admin);
    assert.equal(check.json().data.consistent, true, check.body);
  });

  test("a recharge is written to the meter and booked once when the meter confirms it", async () => {
    const meter = sim(prepaid!.address);
    const balanceBefore = meter.balanceFen;
    const body = {
      meterId: ids[prepaid!.address],
      amount: "50",
      paymentMethod: 3,
      idempotencyKey: "meter-0001-aaaa",
    };
    const first = await post("message/recharge", body);
    assert.equal(first.statusCode, 200, first.body);
    const taken = first.json().data;
    assert.deepEqual([taken.state, taken.balanceAfter, taken.amount], [0, null, "50.00"]);
    assert.match(taken.receiptNo, /^R\d{8}/);
    const replay = await post("message/recharge", body);
    assert.equal(replay.json().data.id, taken.id);
    assert.equal(replay.json().data.commandId, taken.commandId);
    assert.equal(replay.json().data.replayed, true);
    const done = await settled(taken.commandId);
    assert.equal(done.state, "success", done.evidence ?? "");
    assert.deepEqual(JSON.parse(done.payload).purchaseCount, 2);
    const booked = await recharge(taken.id);
    assert.equal(booked.state, 1);
    assert.equal(meter.purchaseCount, 2);
    assert.equal(meter.counters.recharges, 2, "the deposit and this one: never a second write");
    assert.ok(meter.balanceFen > balanceBefore + 5_000 - 100 && meter.balanceFen <= balanceBefore + 5_000);
    const recharges = await entries(prepaidAccount, 2);
    assert.deepEqual(
      recharges.map((e) => [e.amount, e.recharge_id]),
      [["5000", taken.id]],
    );
    assert.equal(booked.balance_after, (await account(prepaidAccount)).balance);
    // Money the meter holds is money received: a paid payment by the method taken, linked to it.
    const [payment] = await server.db.query<{ state: number; amount: string; payment_method: number }>(
      "select state, amount::text as amount, payment_method from pms_payment where id = $1",
      [booked.payment_id],
    );
    assert.deepEqual(payment, { state: 1, amount: "5000", payment_method: 3 });
    // The replay after the booking answers the booked recharge.
    const later = await post("message/recharge", body);
    assert.deepEqual([later.json().data.state, later.json().data.balanceAfter !== null], [1, true]);
    assert.equal(
      (await commandsOf(ids[prepaid!.address]!)).filter((c) => c.source === "recharge/meter").length,
      1,
    );
  });

  test("a lost reply is settled by reading the purchase count back: booked exactly once", async () => {
    const meter = sim(prepaid!.address);
    const recharges = meter.counters.recharges;
    fleet.injectFault(prepaid!.address, "noReply");
    const res = await post("message/recharge", {
      accountId: prepaidAccount,
      amount: "12.34",
      idempotencyKey: "meter-0002-lost",
    });
    assert.equal(res.statusCode, 200, res.body);
    const { id, commandId } = res.json().data;
    const done = await settled(commandId);
    assert.equal(done.state, "success", done.evidence ?? "");
    const evidence = JSON.parse(done.evidence!);
    assert.match(evidence.detail, /no reply; read-back shows the command took effect/);
    assert.deepEqual([evidence.readBack.item, evidence.readBack.value], ["purchase-count", "3"]);
    assert.equal(meter.counters.recharges, recharges + 1, "the meter received exactly one purchase");
    assert.equal((await recharge(id)).state, 1);
    assert.equal((await entries(prepaidAccount, 2)).filter((e) => e.recharge_id === id).length, 1);
  });

  test("a write whose reply and read-back are both lost waits as timeout until a read-back settles it", async () => {
    const meter = sim(prepaid!.address);
    const recharges = meter.counters.recharges;
    // The write's reply, then all three read-back attempts, are lost.
    fleet.injectFault(prepaid!.address, "noReply");
    fleet.injectFault(prepaid!.address, "ignore", 3);
    const res = await post("message/recharge", {
      accountId: prepaidAccount,
      amount: "7",
      idempotencyKey: "meter-0003-dark",
    });
    const { id, commandId } = res.json().data;
    const open = await waitFor("the write timed out", async () => {
      const row = await command(commandId);
      return row.state === "timeout" ? row : undefined;
    });
    assert.match(JSON.parse(open.evidence!).detail, /no reply/);
    assert.equal(meter.counters.recharges, recharges + 1, "the meter did take it");
    assert.equal((await recharge(id)).state, 0, "not done until proven");
    assert.equal((await entries(prepaidAccount, 2)).filter((e) => e.recharge_id === id).length, 0);
    // No second purchase while this one's outcome is open.
    const blocked = await post("message/recharge", { accountId: prepaidAccount, amount: "1" });
    assert.equal(blocked.statusCode, 400);
    assert.match(blocked.json().msg, /^accountId: .*尚未确认/);
    // Nor a closing: the purchase would be booked after the closing refund.
    const closing = await post("message/closeAccount", { meterId: ids[prepaid!.address] });
    assert.equal(closing.statusCode, 400, closing.body);
    assert.match(closing.json().msg, /^meterIds: .*未确认的写表充值/);
    // The next gateway adopts the open write and reads the purchase count back; it never writes again.
    const port = metering.gateway.address().port;
    await metering.close();
    metering = await startGateway(String(port), 3_000);
    const done = await settled(commandId);
    assert.equal(done.state, "success", done.evidence ?? "");
    assert.equal(JSON.parse(done.evidence!).readBack.value, "4");
    assert.equal(meter.counters.recharges, recharges + 1);
    assert.equal((await recharge(id)).state, 1);
    assert.equal((await entries(prepaidAccount, 2)).filter((e) => e.recharge_id === id).length, 1);
  });

  test("a live gateway reads a timed-out write back again until the purchase count settles it", async () => {
    const meter = sim(prepaid!.address);
    const recharges = meter.counters.recharges;
    fleet.injectFault(prepaid!.address, "noReply");
    fleet.injectFault(prepaid!.address, "ignore", 3);
    const res = await post("message/recharge", { accountId: prepaidAccount, amount: "3" });
    const { id, commandId } = res.json().data;
    await waitFor("the write timed out", async () =>
      (await command(commandId)).state === "timeout" ? true : undefined,
    );
    assert.equal((await recharge(id)).state, 0);
    // No restart, no reconnection: the gateway reads the count again a few seconds later.
    const done = await settled(commandId);
    assert.equal(done.state, "success", done.evidence ?? "");
    assert.match(JSON.parse(done.evidence!).detail, /read-back shows the command took effect/);
    assert.equal(meter.counters.recharges, recharges + 1, "written once");
    assert.equal((await recharge(id)).state, 1);
    assert.equal((await entries(prepaidAccount, 2)).filter((e) => e.recharge_id === id).length, 1);
  });

  test("a purchase the meter refuses books nothing, and the next one carries the meter's real count", async () => {
    const meter = sim(prepaid!.address);
    const [balance, count] = [(await account(prepaidAccount)).balance, meter.purchaseCount];
    // More than the meter's hoarding limit (100,000 yuan): it refuses the write.
    const res = await post("message/recharge", { accountId: prepaidAccount, amount: "200000" });
    const { id, commandId } = res.json().data;
    const done = await settled(commandId);
    assert.equal(done.state, "fail", done.evidence ?? "");
    assert.deepEqual([(await recharge(id)).state, (await recharge(id)).ledger_id], [2, null]);
    assert.equal((await recharge(id)).payment_id, null, "a refused write records no money received");
    assert.equal((await account(prepaidAccount)).balance, balance, "nothing booked");
    assert.equal(meter.purchaseCount, count);
    // rechargeNew routes a local-prepaid account to the meter too.
    const next = await post("message/rechargeNew", { accountId: prepaidAccount, amount: "10" });
    assert.equal(next.statusCode, 200, next.body);
    assert.deepEqual([next.json().data.state, typeof next.json().data.commandId], [0, "string"]);
    const written = await settled(next.json().data.commandId);
    assert.equal(written.state, "success", written.evidence ?? "");
    assert.equal(JSON.parse(written.payload).purchaseCount, count + 1);
    assert.equal(meter.purchaseCount, count + 1);
  });

  test("the account follows the meter's own balance down as usage, levels included", async () => {
    const readBalance = async () =>
      (
        await server.db.query<{ balance: string }>(
          "select balance::text as balance from pms_meter_current_data where meter_id = $1",
          [ids[prepaid!.address]],
        )
      )[0]!.balance;
    const fen = (yuan: string) => String(Math.round(Number(yuan) * 100));
    await poll(prepaid!.address);
    assert.equal((await account(prepaidAccount)).balance, fen(await readBalance()));
    const charges = (await entries(prepaidAccount, 6)).length;
    // The meter spends down to 30 yuan (below its first alarm of 50): the drop is booked as usage.
    sim(prepaid!.address).balanceFen = 3_000;
    await poll(prepaid!.address);
    const after = await account(prepaidAccount);
    assert.equal(after.balance, fen(await readBalance()));
    assert.ok(Number(after.balance) <= 3_000 && Number(after.balance) > 2_900, after.balance);
    const usage = await entries(prepaidAccount, 6);
    assert.equal(usage.length, charges + 1);
    assert.match(usage.at(-1)!.cause, /^表内扣费 \d{4}-\d{2}-\d{2}$/);
    // Statements say the meter priced it (its tiers are the meter's own), whole: one part, the entry's amount.
    const parts = await server.db.query<{ part: string; charge: string }>(
      `select l.part, (-l.amount)::text as charge from pms_ledger l where l.id = $1 and l.part is not null
       union all
       select p.part, p.charge::text as charge from pms_ledger_part p
         join pms_ledger l on l.id = p.ledger_id where l.id = $1`,
      [usage.at(-1)!.id],
    );
    assert.deepEqual(parts, [{ part: "meter", charge: String(-Number(usage.at(-1)!.amount)) }]);
    assert.equal(after.alarm_level, 1, "low, as the alarm scheme says");
    assert.equal(after.arrears_cut, 0, "the server never cuts a meter that trips itself");
    const check = await server.call("GET", `${pms}/ledger/check`, admin);
    assert.equal(check.json().data.consistent, true, check.body);
  });

  test("each shadow charge carries the kWh it paid for: statements and the daily close show the day's usage", async () => {
    const meter = sim(prepaid!.address);
    const registerOf = async () =>
      (
        await server.db.query<{ register_total: string | null }>(
          "select register_total::text as register_total from pms_account where id = $1",
          [prepaidAccount],
        )
      )[0]!.register_total;
    const shownTotal = async () =>
      (
        await server.db.query<{ total: string }>(
          "select (total_value * 100)::bigint::text as total from pms_meter_current_data where meter_id = $1",
          [ids[prepaid!.address]],
        )
      )[0]!.total;
    await poll(prepaid!.address);
    const before = await registerOf();
    assert.ok(before !== null, "the account knows the register its last charge was for");
    // 12.34 kWh more on the flat register, and the meter's own deduction for it.
    meter.energy.steps[2]! += 1234;
    meter.balanceFen -= 726;
    await poll(prepaid!.address);
    const usage = await server.db.query<{ usage: string | null; usage_day: string; amount: string }>(
      `select usage::text as usage, to_char(usage_day, 'YYYY-MM-DD') as usage_day, amount::text as amount
         from pms_ledger where account_id = $1 and entry_type = 6 order by create_time desc, id desc limit 1`,
      [prepaidAccount],
    );
    const expected = BigInt(await shownTotal()) - BigInt(before);
    assert.ok(expected >= 1234n, String(expected));
    assert.equal(
      usage[0]!.usage,
      expected.toString(),
      "the charge carries the register's rise since the last one",
    );
    assert.equal(await registerOf(), await shownTotal());
    // Every charge of the account carries its usage, and they add up to the registers' rise.
    const [sums] = await server.db.query<{ unpriced: string; total: string }>(
      `select count(*) filter (where usage is null)::text as unpriced, coalesce(sum(usage), 0)::text as total
         from pms_ledger where account_id = $1 and entry_type = 6`,
      [prepaidAccount],
    );
    assert.equal(sums!.unpriced, "0");
    // The day's close (and the statement built on it) shows that usage, not 0.
    const day = usage[0]!.usage_day;
    const closed = await post("account/closeDay", { day });
    assert.equal(closed.statusCode, 200, closed.body);
    const [row] = await server.db.query<{ usage: string; usage_charge: string }>(
      "select usage::text as usage, usage_charge::text as usage_charge from pms_account_day where account_id = $1 and day = $2::date",
      [prepaidAccount, day],
    );
    assert.equal(row!.usage, sums!.total);
    assert.ok(BigInt(row!.usage) >= expected);
    const statement = await server.call(
      "GET",
      `${pms}/account/statement?accountId=${prepaidAccount}&startDay=${day}&endDay=${day}`,
      admin,
    );
    assert.equal(statement.statusCode, 200, statement.body);
    assert.equal(statement.json().data.totals.usage, (Number(row!.usage) / 100).toFixed(2));
  });

  test("changing a local-prepaid account to a ladder, then to time of use, writes the tables and the meter charges by them", async () => {
    const meter = sim(prepaid!.address);
    // Only the energy the test spends is used: the meter prices it, the books follow.
    meter.relayOpen = true;
    const ladder = await created(server, admin, "chargingscheme/submit", {
      schemeName: "阶梯电价",
      energyType: 1,
      priceMode: 2,
      ladderCycle: 2,
      ladder: JSON.stringify([
        { limit: "10", price: "0.4883" },
        { limit: "20", price: "0.5383" },
        { limit: null, price: "0.7883" },
      ]),
    });
    const changed = await post("ownerRecharge/update", {
      accountId: prepaidAccount,
      chargingSchemeId: ladder,
    });
    assert.equal(changed.statusCode, 200, changed.body);
    const { commandIds } = changed.json().data.meterWrites;
    // 4 zero tariff prices, 2 thresholds, 3 prices, the end of the ladder, the cycle, 3 limits.
    assert.equal(commandIds.length, 14);
    for (const id of commandIds) {
      const done = await settled(id);
      assert.equal(done.state, "success", done.evidence ?? "");
    }
    assert.deepEqual(meter.prices, [0, 0, 0, 0]);
    assert.deepEqual(meter.ladderThresholds.slice(0, 3), [1000, 2000, 0]);
    assert.deepEqual(meter.ladderPrices.slice(0, 3), [4883, 5383, 7883]);
    assert.deepEqual([meter.ladderCycle, meter.cycleSteps], [2, 0]);

    // 25 kWh across the steps: 10 × 0.4883 + 10 × 0.5383 + 5 × 0.7883 = 14.2075 yuan, 1420 fen
    // deducted now and the 0.75 fen left over carried by the meter to its next deduction (the
    // fraction of a fen the meter carried from before is dropped, so the figures are exact).
    await poll(prepaid!.address);
    const before = BigInt((await account(prepaidAccount)).balance);
    // Energy the meter measured earlier without a fen charged for it yet waits on the books (the
    // register is moved on with a charge only) and goes with this charge: 0.01 kWh, or none.
    const [booked] = await server.db.query<{ register: string }>(
      "select register_total::text as register from pms_account where id = $1",
      [prepaidAccount],
    );
    const waiting = BigInt(meter.shownTotal()) - BigInt(booked!.register);
    assert.ok(waiting >= 0n && waiting < 100n, `${waiting} hundredths of a kWh not yet charged`);
    const inMeter = meter.balanceFen;
    meter.microYuan = 0;
    meter.use([0, 1000, 1500, 0], Date.now());
    assert.equal(meter.balanceFen, inMeter - 1420);
    await poll(prepaid!.address);
    const [charge] = await server.db.query<{ amount: string; usage: string }>(
      `select amount::text as amount, usage::text as usage from pms_ledger
        where account_id = $1 and entry_type = 6 order by create_time desc, id desc limit 1`,
      [prepaidAccount],
    );
    assert.deepEqual(charge, { amount: "-1420", usage: String(2500n + waiting) });
    assert.equal(BigInt((await account(prepaidAccount)).balance), before - 1420n);

    // Time of use: the band prices go in, the ladder is cleared, and each band is charged its price.
    const tou = await created(server, admin, "chargingscheme/submit", {
      schemeName: "分时电价",
      energyType: 1,
      priceMode: 3,
      tipPrice: "1.2000",
      peakPrice: "0.9000",
      peacePrice: "0.6000",
      lowPrice: "0.3000",
      touPeriods: JSON.stringify([
        { start: "00:00", end: "08:00", band: "low" },
        { start: "08:00", end: "24:00", band: "peace" },
      ]),
    });
    const toTou = await post("ownerRecharge/update", { accountId: prepaidAccount, chargingSchemeId: tou });
    assert.equal(toTou.statusCode, 200, toTou.body);
    for (const id of toTou.json().data.meterWrites.commandIds)
      assert.equal((await settled(id)).state, "success");
    assert.deepEqual(meter.prices, [12_000, 9_000, 6_000, 3_000]);
    // …and when each applies: 00:00 valley (tariff 4), 08:00 flat (tariff 3).
    assert.deepEqual(meter.tou.dayTables[0], [
      { start: 0, tariff: 4 },
      { start: 480, tariff: 3 },
    ]);
    assert.deepEqual([meter.ladderThresholds[0], meter.ladderPrices[0]], [0, 0]);
    const afterLadder = meter.balanceFen;
    // 1 kWh in each band: 1.20 + 0.90 + 0.60 + 0.30 = 3.00 yuan (plus the 0.75 fen carried: still 300).
    assert.equal(meter.microYuan, 7_500);
    meter.use([100, 100, 100, 100], Date.now());
    assert.equal(meter.balanceFen, afterLadder - 300);
    await poll(prepaid!.address);
    assert.equal((await account(prepaidAccount)).balance, String(meter.balanceFen));
    const check = await server.call("GET", `${pms}/ledger/check`, admin);
    assert.equal(check.json().data.consistent, true, check.body);
    meter.relayOpen = false;
  });

  test("bad input names the field and stores nothing", async () => {
    const other = await provisionTenant(server, admin, "别家物业");
    const opened = await post("message/openAccount", { meterId: ids[remote!.address], deposit: "100" });
    assert.equal(opened.statusCode, 200, opened.body);
    const remoteAccount = opened.json().data[0].accountId;
    const count = async () =>
      (await server.db.query<{ n: string }>("select count(*)::text as n from pms_recharge"))[0]!.n;
    const before = await count();
    const cases: [Record<string, unknown>, RegExp, string?][] = [
      [{ accountId: prepaidAccount, amount: "0" }, /^amount: /],
      [{ accountId: prepaidAccount, amount: "1.001" }, /^amount: /],
      [{ accountId: prepaidAccount }, /^amount: /],
      [{ accountId: prepaidAccount, amount: "1", paymentMethod: 9 }, /^paymentMethod: /],
      [{ accountId: prepaidAccount, amount: "1", rechargeType: 2 }, /^rechargeType: /],
      [{ amount: "1" }, /^accountId: /],
      [{ accountId: remoteAccount, amount: "1" }, /^accountId: .*不是本地费控表/],
      [{ meterId: ids[protectedMeter!.address], amount: "1" }, /^meterId: 该表计尚未开户/],
      [{ accountId: prepaidAccount, amount: "1" }, /^accountId: 账户不存在/, other.token],
    ];
    for (const [body, message, token] of cases) {
      const res = await post("message/recharge", body, token);
      assert.equal(res.statusCode, 400, `${JSON.stringify(body)}: ${res.body}`);
      assert.match(res.json().msg, message, JSON.stringify(body));
    }
    assert.equal(await count(), before);
  });

  test("arrears cut a remote-control meter's relay, a protection window holds it, a recharge restores it", async () => {
    const meter = sim(remote!.address);
    const [remoteAccount] = (
      await server.db.query<{ id: string }>("select id::text as id from pms_account where meter_id = $1", [
        ids[remote!.address],
      ])
    ).map((r) => r.id);
    assert.equal(meter.relayOpen, false);
    // 100 yuan less 120: −20, past the 10 yuan overdraft.
    const minus = await post("datarecharge/submit", {
      accountId: remoteAccount,
      amount: "120",
      rechargeType: 4,
      remark: "测试欠费",
    });
    assert.equal(minus.statusCode, 200, minus.body);
    const [cut] = (await commandsOf(ids[remote!.address]!)).filter((c) => c.source === "arrears/cut");
    assert.ok(cut, "the cut is queued");
    assert.equal((await settled(cut.id)).state, "success");
    assert.equal(meter.relayOpen, true, "the simulated meter's relay is open");

    // The same inside a protection window: held, nothing sent, the relay stays closed.
    const guardedMeter = sim(protectedMeter!.address);
    const guarded = await post("message/openAccount", {
      meterId: ids[protectedMeter!.address],
      deposit: "5",
    });
    const guardedAccount = guarded.json().data[0].accountId;
    await post("datarecharge/submit", {
      accountId: guardedAccount,
      amount: "30",
      rechargeType: 4,
      remark: "测试欠费",
    });
    assert.equal((await account(guardedAccount)).arrears_cut, 1);
    assert.deepEqual(await commandsOf(ids[protectedMeter!.address]!), []);
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(guardedMeter.relayOpen, false);
    assert.equal(guardedMeter.counters.relayOps, 0);

    // A recharge above the cut line restores supply: rechargeNew books a remote account at once.
    const back = await post("message/rechargeNew", {
      accountId: remoteAccount,
      amount: "50",
      paymentMethod: 1,
    });
    assert.equal(back.statusCode, 200, back.body);
    assert.deepEqual(
      [back.json().data.state, back.json().data.commandId, back.json().data.balanceAfter],
      [1, null, "30.00"],
    );
    const [restore] = (await commandsOf(ids[remote!.address]!)).filter((c) => c.source === "arrears/restore");
    assert.ok(restore, "the restore is queued");
    assert.equal((await settled(restore.id)).state, "success");
    assert.equal(meter.relayOpen, false, "the simulated meter's relay is closed again");
  });
  test("closing a local-prepaid account the meter refuses to clear: still open, nothing refunded, the close record says why", async () => {
    const meter = sim(prepaid!.address);
    await poll(prepaid!.address);
    const books = (await account(prepaidAccount)).balance;
    // The meter spends 3 fen after the reading the books hold: its balance no longer is theirs.
    meter.balanceFen -= 3;
    const inMeter = meter.balanceFen;
    const res = await post("message/closeAccount", { meterId: ids[prepaid!.address] });
    assert.equal(res.statusCode, 200, res.body);
    const [pending] = res.json().data;
    assert.deepEqual([pending.state, pending.refunded], [0, "0.00"]);
    assert.match(res.json().msg, /待表计确认清零/);
    const done = await settled(pending.commandId);
    assert.equal(done.state, "fail", done.evidence ?? "");
    assert.deepEqual(JSON.parse(done.payload).amount, (Number(books) / 100).toFixed(2));
    assert.equal(meter.balanceFen, inMeter, "the meter kept its money");
    assert.equal(meter.counters.clearings, 0);
    const [row] = await server.db.query<{ status: number; close_state: number; balance: string }>(
      "select status, close_state, balance::text as balance from pms_account where id = $1",
      [prepaidAccount],
    );
    assert.deepEqual(row, { status: 1, close_state: 2, balance: books });
    assert.equal((await entries(prepaidAccount, 8)).length, 0, "no closing refund");
    const page = await server.call("GET", `${pms}/datacloseaccount/page?accountId=${prepaidAccount}`, admin);
    assert.equal(page.statusCode, 200, page.body);
    const [record] = page.json().data.records;
    assert.deepEqual([record.closeState, record.refund], [2, "0.00"]);
    assert.match(record.closeOutcome, /^表计未清零,未销户、未退款:error reply/);
  });

  test("closing clears the meter first; a lost reply is settled by reading the purchase count back, then the refund is booked once", async () => {
    const meter = sim(prepaid!.address);
    // The owner has moved out: nothing runs in the room, so the meter's balance stays what it reads.
    meter.relayOpen = true;
    await poll(prepaid!.address);
    const books = (await account(prepaidAccount)).balance;
    assert.equal(String(meter.balanceFen), books);
    const count = meter.purchaseCount;
    fleet.injectFault(prepaid!.address, "noReply");
    const res = await post("message/closeAccount", { meterId: ids[prepaid!.address] });
    assert.equal(res.statusCode, 200, res.body);
    const [pending] = res.json().data;
    assert.equal(pending.state, 0);
    // While the clearing is open, neither a purchase nor a second closing can be written.
    const blocked = await post("message/recharge", { accountId: prepaidAccount, amount: "1" });
    assert.equal(blocked.statusCode, 400, blocked.body);
    const done = await settled(pending.commandId);
    assert.equal(done.state, "success", done.evidence ?? "");
    const evidence = JSON.parse(done.evidence!);
    assert.match(evidence.detail, /no reply; read-back shows the command took effect/);
    assert.deepEqual(
      [evidence.readBack.item, evidence.readBack.value],
      ["purchase-count", String(count + 1)],
    );
    // The simulated meter: cleared once, money gone, the clearing counted as a purchase.
    assert.deepEqual([meter.balanceFen, meter.purchaseCount, meter.counters.clearings], [0, count + 1, 1]);
    const refunds = await entries(prepaidAccount, 8);
    assert.deepEqual(
      refunds.map((e) => e.amount),
      [`-${books}`],
    );
    const [row] = await server.db.query<{ status: number; close_state: number; balance: string }>(
      "select status, close_state, balance::text as balance from pms_account where id = $1",
      [prepaidAccount],
    );
    assert.deepEqual(row, { status: 2, close_state: 1, balance: "0" });
    const [meterRow] = await server.db.query<{ account_status: number }>(
      "select account_status from pms_meter where id = $1",
      [ids[prepaid!.address]],
    );
    assert.equal(meterRow!.account_status, 0);
    const page = await server.call("GET", `${pms}/datacloseaccount/page?accountId=${prepaidAccount}`, admin);
    const [record] = page.json().data.records;
    assert.deepEqual([record.closeState, record.refund], [1, (Number(books) / 100).toFixed(2)]);
    assert.match(record.closeOutcome, /^表计已清零/);
    const check = await server.call("GET", `${pms}/ledger/check`, admin);
    assert.equal(check.json().data.consistent, true, check.body);
    // The meter opens again from zero: the next purchase carries the count after the clearing.
    const reopened = await post("message/openAccount", { meterId: ids[prepaid!.address], deposit: "20" });
    assert.equal(reopened.statusCode, 200, reopened.body);
    const { meterWrites } = reopened.json().data[0];
    const deposit = await settled(meterWrites.depositCommandId);
    assert.equal(deposit.state, "success", deposit.evidence ?? "");
    assert.equal(JSON.parse(deposit.payload).purchaseCount, count + 2);
    assert.equal(meter.balanceFen, 2_000);
    meter.relayOpen = false;
  });
});

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

describe("price and alarm writes to local-prepaid meters (message/writePriceBatch, writeAlarmBatch)", () => {
  let server: TestServer;
  let admin: string;
  let metering: EmbeddedMetering;
  let fleet: FleetHandle;
  const plan = planFleet(PLAN);
  const [remote, prepaid, unopened] = plan.meters;
  const ids: Record<string, string> = {};
  let chargingScheme: string;
  let alarmScheme: string;

  const post = (path: string, body: Record<string, unknown>) =>
    server.call("POST", `${pms}/${path}`, admin, body);
  const sim = (address: string) => fleet.meter(address) as ElectricMeter;
  const waitFor = async <T>(what: string, probe: () => Promise<T | undefined>): Promise<T> => {
    for (let i = 0; i < 300; i++) {
      const value = await probe();
      if (value !== undefined) return value;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`timed out waiting for ${what}`);
  };
  const batchCommands = (batchId: string) =>
    server.db.query<{ state: string; payload: string; evidence: string | null; source: string }>(
      "select state, payload, evidence, source from pms_meter_command where batch_id = $1 order by id",
      [batchId],
    );
  const settledBatch = (batchId: string) =>
    waitFor(`batch ${batchId} settled`, async () => {
      const rows = await batchCommands(batchId);
      return rows.every((r) => r.state === "success" || r.state === "fail") ? rows : undefined;
    });
  const commandCount = async () =>
    (await server.db.query<{ n: number }>("select count(*)::int as n from pms_meter_command"))[0]!.n;

  before(async () => {
    server = await startTestServer();
    admin = (await server.login()).access_token;
    const collector = await created(server, admin, "collector/submit", {
      collectorName: "DTU",
      collectorCode: plan.dtuIds[0],
      registrationSecret: plannedSecret(plan, plan.dtuIds[0]!),
    });
    const area = await created(server, admin, "area/save", { areaName: "写参数园区", areaType: 1 });
    const owner = await created(server, admin, "owner/submit", { ownerName: "王五", ownerCode: "WB1" });
    chargingScheme = await created(server, admin, "chargingscheme/submit", {
      schemeName: "本地费控电价",
      energyType: 1,
      priceMode: 1,
      price: "0.5883",
    });
    alarmScheme = await created(server, admin, "alarmscheme/submit", {
      schemeName: "本地费控告警",
      energyType: 1,
      firstAlarm: "50",
      secondAlarm: "20",
      arrearsLimit: "10",
    });
    for (const [meter, controlStatus] of [
      [remote!, 1],
      [prepaid!, 0],
      [unopened!, 0],
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
        chargingSchemeId: chargingScheme,
        alarmSchemeId: alarmScheme,
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
    metering = await startEmbeddedMetering({
      db: server.db,
      cipher: new FieldCipher(server.dataKey),
      logger: silentLogger,
      // Polls only when asked: a fault injected for a write must meet that write.
      pollIntervalMs: 3_600_000,
      demoFleet: false,
      env: {
        GATEWAY_PORT: "0",
        GATEWAY_HOST: "127.0.0.1",
        GATEWAY_REQUEST_TIMEOUT_MS: "700",
        // A write left "timeout" is read back again this soon, never written again.
        GATEWAY_TIMEOUT_RECHECK_MS: "2000",
      },
    });
    fleet = await startFleet({ ...PLAN, gateway: metering.gateway.address() });
    await waitFor("the prepaid meter's purchase count", async () => {
      const [row] = await server.db.query<{ purchase_count: number }>(
        "select purchase_count from pms_meter_purchase_count where meter_id = $1",
        [ids[prepaid!.address]],
      );
      return row ? row.purchase_count : undefined;
    });
    for (const meter of [remote!, prepaid!]) {
      const res = await post("message/openAccount", { meterId: ids[meter.address], deposit: "100" });
      assert.equal(res.statusCode, 200, res.body);
    }
    // The opening's own writes (prices, limits, deposit) settle before the batches start.
    await waitFor("the opening writes", async () => {
      const [row] = await server.db.query<{ n: number }>(
        "select count(*)::int as n from pms_meter_command where state in ('queued', 'sent', 'timeout')",
      );
      return row!.n === 0 ? true : undefined;
    });
  });
  after(async () => {
    await fleet?.close();
    await metering?.close();
    await server?.close();
  });

  test("a new flat price reaches the meter, which then charges by it; the meters it cannot write are named", async () => {
    const meter = sim(prepaid!.address);
    assert.deepEqual(meter.prices, [5883, 5883, 5883, 5883]);
    const edit = await post("chargingscheme/submit", { id: chargingScheme, price: "0.9000" });
    assert.equal(edit.statusCode, 200, edit.body);
    const writes = meter.counters.writes;

    const res = await post("message/writePriceBatch", {
      meterIds: [ids[prepaid!.address], ids[remote!.address], ids[unopened!.address], "999999999"].join(","),
    });
    assert.equal(res.statusCode, 200, res.body);
    const outcome = res.json().data;
    assert.equal(outcome.queued, 6, "4 tariff prices and the ladder cleared (threshold 1, price 1)");
    assert.deepEqual(
      outcome.skipped.map((s: { meterId: string; reason: string }) => [s.meterId, s.reason]).sort(),
      [
        ["999999999", "表计不存在"],
        [ids[remote!.address], "非本地费控表"],
        [ids[unopened!.address], "表计未开户"],
      ].sort(),
    );
    const rows = await settledBatch(outcome.batchId);
    for (const row of rows) assert.equal(row.state, "success", row.evidence ?? "");
    assert.ok(rows.every((r) => r.source === "message/writePriceBatch"));
    assert.deepEqual(meter.prices, [9000, 9000, 9000, 9000]);
    assert.equal(meter.counters.writes, writes + 6);

    // 10 kWh in the flat band at 0.9000 yuan/kWh: exactly 9.00 yuan off the meter's balance.
    const balance = meter.balanceFen;
    meter.charge([0, 0, 1000, 0], Date.now());
    assert.equal(balance - meter.balanceFen, 900);
  });

  test("a ladder replaces the flat price in the meter, which then charges each step at its own price", async () => {
    const meter = sim(prepaid!.address);
    const edit = await post("chargingscheme/submit", {
      id: chargingScheme,
      priceMode: 2,
      ladderCycle: 1,
      ladder: JSON.stringify([
        { limit: "100", price: "0.5000" },
        { limit: null, price: "0.8000" },
      ]),
    });
    assert.equal(edit.statusCode, 200, edit.body);
    const res = await post("message/writePriceBatch", { meterIds: ids[prepaid!.address] });
    assert.equal(res.statusCode, 200, res.body);
    const outcome = res.json().data;
    assert.equal(
      outcome.queued,
      9,
      "4 zero tariff prices, threshold 1, prices 1 and 2, threshold 2 = 0 (end), the monthly cycle",
    );
    const rows = await settledBatch(outcome.batchId);
    for (const row of rows) assert.equal(row.state, "success", row.evidence ?? "");
    assert.deepEqual(meter.prices, [0, 0, 0, 0]);
    assert.deepEqual(meter.ladderThresholds.slice(0, 2), [10_000, 0]);
    assert.deepEqual(meter.ladderPrices.slice(0, 2), [5_000, 8_000]);
    assert.equal(meter.ladderCycle, 1);

    // Usage that crosses 100 kWh in the cycle: the part below at 0.5000, the rest at 0.8000 yuan/kWh.
    const below = 10_000 - meter.cycleSteps;
    const above = 1_000;
    const micro = meter.microYuan + below * 5_000 + above * 8_000;
    const balance = meter.balanceFen;
    meter.charge([0, 0, below + above, 0], Date.now());
    assert.equal(balance - meter.balanceFen, Math.floor(micro / 10_000));
  });

  test("alarm limits reach the meter; a lost reply is settled by reading the register back, not resent", async () => {
    const meter = sim(prepaid!.address);
    const edit = await post("alarmscheme/submit", {
      id: alarmScheme,
      firstAlarm: "80",
      secondAlarm: "30",
      arrearsLimit: "15",
    });
    assert.equal(edit.statusCode, 200, edit.body);
    const writes = meter.counters.writes;
    // The first write (alarm 1) is executed but its acknowledgement never arrives.
    fleet.injectFault(prepaid!.address, "noReply");

    const res = await post("message/writeAlarmBatch", { meterIds: ids[prepaid!.address] });
    assert.equal(res.statusCode, 200, res.body);
    const outcome = res.json().data;
    assert.equal(outcome.queued, 3);
    assert.deepEqual(outcome.skipped, []);
    const rows = await settledBatch(outcome.batchId);
    for (const row of rows) assert.equal(row.state, "success", row.evidence ?? "");
    assert.deepEqual(
      rows.map((r) => JSON.parse(r.payload).di),
      ["04001001", "04001002", "04001003"],
    );
    const lost = JSON.parse(rows[0]!.evidence!);
    assert.match(lost.detail, /no reply; read-back shows the command took effect/);
    assert.deepEqual([lost.readBack.item, lost.readBack.value], ["register", "80.00"]);
    assert.deepEqual([meter.alarm1Fen, meter.alarm2Fen, meter.overdraftLimitFen], [8000, 3000, 1500]);
    assert.equal(meter.counters.writes, writes + 3, "each limit written exactly once");
  });

  test("a write whose reply and read-back are both lost waits as timeout, then a later read-back settles it", async () => {
    const meter = sim(prepaid!.address);
    const edit = await post("alarmscheme/submit", { id: alarmScheme, firstAlarm: "90", secondAlarm: "40" });
    assert.equal(edit.statusCode, 200, edit.body);
    const writes = meter.counters.writes;
    // Alarm 1 is written but its reply is lost, and so are all three read-back attempts.
    fleet.injectFault(prepaid!.address, "noReply");
    fleet.injectFault(prepaid!.address, "ignore", 3);
    const res = await post("message/writeAlarmBatch", { meterIds: ids[prepaid!.address] });
    assert.equal(res.statusCode, 200, res.body);
    const { batchId } = res.json().data;
    const open = await waitFor("alarm 1 left to be confirmed", async () => {
      const [first] = await batchCommands(batchId);
      return first?.state === "timeout" ? first : undefined;
    });
    assert.match(JSON.parse(open.evidence!).detail, /no reply/);
    assert.equal(meter.alarm1Fen, 9000, "the meter did take it");

    const rows = await settledBatch(batchId);
    for (const row of rows) assert.equal(row.state, "success", row.evidence ?? "");
    const first = JSON.parse(rows[0]!.evidence!);
    assert.deepEqual([first.readBack.item, first.readBack.value], ["register", "90.00"]);
    assert.deepEqual([meter.alarm1Fen, meter.alarm2Fen], [9000, 4000]);
    assert.equal(meter.counters.writes, writes + 3, "alarm 1 was never written again");
  });

  test("another tenant's meters are named as absent and left out, both ways", async () => {
    const other = await provisionTenant(server, admin, "别家物业");
    const theirs = await created(server, other.token, "meter/save", { productCode: "990000000001" });
    const before = await commandCount();

    const mine = await post("message/writeAlarmBatch", { meterIds: theirs });
    assert.equal(mine.statusCode, 200, mine.body);
    // The batch is a job of no meters (nothing to send), which records what was left out.
    const { jobId, ...answer } = mine.json().data;
    assert.match(jobId, /^\d+$/);
    assert.deepEqual(answer, {
      batchId: null,
      queued: 0,
      skipped: [{ meterId: theirs, productCode: "", reason: "表计不存在" }],
    });
    const res = await server.call("POST", `${pms}/message/writePriceBatch`, other.token, {
      meterIds: ids[prepaid!.address],
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json().data.skipped, [
      { meterId: ids[prepaid!.address], productCode: "", reason: "表计不存在" },
    ]);
    assert.equal(await commandCount(), before, "nothing queued for a meter the caller may not see");
  });

  test("a limit no meter register holds is refused, naming the field, and nothing is queued", async () => {
    const edit = await post("alarmscheme/submit", { id: alarmScheme, firstAlarm: "1000000" });
    assert.equal(edit.statusCode, 200, edit.body);
    const before = await commandCount();
    const res = await post("message/writeAlarmBatch", { meterIds: ids[prepaid!.address] });
    assert.equal(res.statusCode, 400, res.body);
    assert.match(res.json().msg, /^firstAlarm: 1000000(\.00)? 超出表计可写范围 0–999999\.99/);
    assert.equal(await commandCount(), before);

    const empty = await post("message/writePriceBatch", { meterIds: "" });
    assert.equal(empty.statusCode, 400, empty.body);
    assert.match(empty.json().msg, /meterIds/);
    assert.equal(await commandCount(), before);
  });

  test("SWITCH_TYPE 3 hands a tripped local-prepaid meter's relay back to the meter (close allowed)", async () => {
    const meter = sim(prepaid!.address);
    const cut = await post("message/switchBatch", { meterIds: ids[prepaid!.address], switchType: 2 });
    assert.equal(cut.statusCode, 200, cut.body);
    for (const row of await settledBatch(cut.json().data.batchId))
      assert.equal(row.state, "success", row.evidence ?? "");
    assert.deepEqual([meter.relayCommandOpen, meter.relayOpen], [true, true]);

    const prepaidMode = await post("message/switchBatch", { meterIds: ids[prepaid!.address], switchType: 3 });
    assert.equal(prepaidMode.statusCode, 200, prepaidMode.body);
    const [row] = await settledBatch(prepaidMode.json().data.batchId);
    assert.equal(row!.state, "success", row!.evidence ?? "");
    // The remote trip is lifted; the relay closes when the user presses the button, and from then
    // on the meter trips itself by its own balance and the limits written to it.
    assert.equal(meter.relayCommandOpen, false);
    meter.pressButton();
    assert.equal(meter.relayOpen, false);
  });
});

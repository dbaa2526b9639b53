import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { silentLogger } from "@meterline/gateway";
import {
  type FleetHandle,
  planFleet,
  plannedSecret,
  startFleet,
  type WaterMeter,
} from "@meterline/simulator";
import { FieldCipher } from "../src/crud/field-cipher.ts";
import { type EmbeddedMetering, startEmbeddedMetering } from "../src/modules/metering/embedded-gateway.ts";
import { provisionTenant } from "./fixtures.ts";
import { startTestServer, type TestServer } from "./helpers.ts";
import { created } from "./registry-fixtures.ts";

// Three water meters on one DTU; the third speaks the little-endian DI order (plan.ts).
const PLAN = { meters: 3, dtus: 1, waterRatio: 1, seed: "water-writes" } as const;
const pms = "/api/blade-pms";

interface Row {
  id: string;
  state: string;
  command_type: string;
  payload: string;
  evidence: string | null;
  source: string;
  meter_id: string;
}

describe("water meters: price table and alarm writes, valve state reads (waterparam, message)", () => {
  let server: TestServer;
  let admin: string;
  let metering: EmbeddedMetering;
  let fleet: FleetHandle;
  const plan = planFleet(PLAN);
  const [first, second, unopened] = plan.meters;
  const ids: Record<string, string> = {};
  let chargingScheme: string;
  let alarmScheme: string;

  const post = (path: string, body: Record<string, unknown>) =>
    server.call("POST", `${pms}/${path}`, admin, body);
  const sim = (address: string) => fleet.meter(address) as WaterMeter;
  const waitFor = async <T>(what: string, probe: () => Promise<T | undefined>): Promise<T> => {
    for (let i = 0; i < 300; i++) {
      const value = await probe();
      if (value !== undefined) return value;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`timed out waiting for ${what}`);
  };
  const batchCommands = (batchId: string) =>
    server.db.query<Row>(
      `select id::text as id, state, command_type, payload, evidence, source, meter_id::text as meter_id
         from pms_meter_command where batch_id = $1 order by id`,
      [batchId],
    );
  const settledBatch = (batchId: string) =>
    waitFor(`batch ${batchId} settled`, async () => {
      const rows = await batchCommands(batchId);
      return rows.every((r) => r.state === "success" || r.state === "fail") ? rows : undefined;
    });
  const commandCount = async () =>
    (await server.db.query<{ n: number }>("select count(*)::int as n from pms_meter_command"))[0]!.n;
  const switchStatus = async (meterId: string) =>
    (
      await server.db.query<{ s: number | null }>("select switch_status as s from pms_water where id = $1", [
        meterId,
      ])
    )[0]!.s;
  const editScheme = async (path: string, body: Record<string, unknown>) => {
    const res = await post(path, body);
    assert.equal(res.statusCode, 200, res.body);
  };

  before(async () => {
    server = await startTestServer();
    admin = (await server.login()).access_token;
    const collector = await created(server, admin, "collector/submit", {
      collectorName: "DTU",
      collectorCode: plan.dtuIds[0],
      registrationSecret: plannedSecret(plan, plan.dtuIds[0]!),
    });
    const area = await created(server, admin, "area/save", { areaName: "水表园区", areaType: 1 });
    const owner = await created(server, admin, "owner/submit", { ownerName: "赵六", ownerCode: "WW1" });
    chargingScheme = await created(server, admin, "chargingscheme/submit", {
      schemeName: "阶梯水价",
      energyType: 2,
      priceMode: 2,
      ladderCycle: 2,
      ladder: JSON.stringify([
        { limit: "180", price: "3.4500" },
        { limit: "260", price: "4.83" },
        { limit: null, price: "5.99" },
      ]),
    });
    alarmScheme = await created(server, admin, "alarmscheme/submit", {
      schemeName: "水费告警",
      energyType: 2,
      firstAlarm: "50",
      secondAlarm: "20",
      arrearsLimit: "0",
    });
    for (const meter of plan.meters) {
      const room = await created(server, admin, "room/save", {
        areaId: area,
        roomName: meter.address.slice(-3),
      });
      await created(server, admin, "ownerroom/submit", { ownerId: owner, roomId: room });
      ids[meter.address] = await created(server, admin, "water/submit", {
        productCode: meter.address,
        collectorId: collector,
        diOrder: meter.diOrder,
        chargingSchemeId: chargingScheme,
        alarmSchemeId: alarmScheme,
      });
      await created(server, admin, "roommeter/submit", {
        roomId: room,
        energyType: 2,
        meterId: ids[meter.address],
      });
    }
    assert.deepEqual(
      plan.meters.map((m) => [m.kind, m.diOrder]),
      [
        ["water", "big-endian"],
        ["water", "big-endian"],
        ["water", "little-endian"],
      ],
    );
    for (const meter of [first!, second!]) {
      const res = await post("waterparam/openAccount", { meterId: ids[meter.address], deposit: "100" });
      assert.equal(res.statusCode, 200, res.body);
    }
    metering = await startEmbeddedMetering({
      db: server.db,
      cipher: new FieldCipher(server.dataKey),
      logger: silentLogger,
      // Polls only when asked: a fault injected for a command must meet that command.
      pollIntervalMs: 3_600_000,
      demoFleet: false,
      env: {
        GATEWAY_PORT: "0",
        GATEWAY_HOST: "127.0.0.1",
        GATEWAY_REQUEST_TIMEOUT_MS: "700",
        GATEWAY_TIMEOUT_RECHECK_MS: "2000",
        GATEWAY_VALVE_SETTLE_MS: "200",
      },
    });
    fleet = await startFleet({ ...PLAN, valveTravelMs: 0, gateway: metering.gateway.address() });
    // The DTU is online once the gateway has read every meter once.
    await waitFor("the first readings", async () => {
      const [row] = await server.db.query<{ n: number }>(
        "select count(*)::int as n from pms_meter_current_data where energy_type = 2",
      );
      return row!.n === 3 ? true : undefined;
    });
  });
  after(async () => {
    await fleet?.close();
    await metering?.close();
    await server?.close();
  });

  test("a ladder's prices and limits end in each opened meter's price table; the others are named", async () => {
    const writes = [first!, second!].map((m) => sim(m.address).counters.writes);
    const res = await post("waterparam/modWaterPriceBatch", {
      meterIds: [ids[first!.address], ids[second!.address], ids[unopened!.address], "999999999"].join(","),
    });
    assert.equal(res.statusCode, 200, res.body);
    const outcome = res.json().data;
    assert.equal(outcome.queued, 2);
    assert.deepEqual(
      outcome.skipped.map((s: { meterId: string; reason: string }) => [s.meterId, s.reason]).sort(),
      [
        ["999999999", "表计不存在"],
        [ids[unopened!.address], "表计未开户"],
      ].sort(),
    );
    const rows = await settledBatch(outcome.batchId);
    for (const row of rows) {
      assert.equal(row.state, "success", row.evidence ?? "");
      assert.equal(row.command_type, "waterPrice");
      assert.equal(row.source, "waterparam/modWaterPriceBatch");
      assert.match(JSON.parse(row.evidence!).detail, /acknowledged and verified/);
    }
    [first!, second!].forEach((m, i) => {
      assert.deepEqual(sim(m.address).priceTable, {
        prices: ["3.45", "4.83", "5.99"],
        thresholds: ["180", "260"],
      });
      assert.equal(sim(m.address).counters.writes, writes[i]! + 1);
    });
    assert.deepEqual(sim(unopened!.address).priceTable.prices, ["0.00", "0.00", "0.00"]);

    // The write shows in the price-write record, as the electric ones do.
    const record = await server.call("GET", `${pms}/datawriteprice/page?current=1&size=50`, admin);
    assert.equal(record.statusCode, 200, record.body);
    const listed = record.json().data.records.map((r: { id: string }) => String(r.id));
    for (const row of rows) assert.ok(listed.includes(row.id), "water price writes are price-write records");
    const named = record.json().data.records.find((r: { id: string }) => String(r.id) === rows[0]!.id);
    assert.deepEqual(
      [named.actionName, named.actionNameEn, named.sourceName],
      ["写水价", "Write water prices", "水表管理（写水价）"],
    );
  });

  test("a flat price fills all three steps", async () => {
    await editScheme("chargingscheme/submit", { id: chargingScheme, priceMode: 1, price: "4.2000" });
    const res = await post("waterparam/modWaterPriceBatch", { meterIds: ids[first!.address] });
    assert.equal(res.statusCode, 200, res.body);
    for (const row of await settledBatch(res.json().data.batchId))
      assert.equal(row.state, "success", row.evidence ?? "");
    assert.deepEqual(sim(first!.address).priceTable, {
      prices: ["4.20", "4.20", "4.20"],
      thresholds: ["0", "0"],
    });
  });

  test("alarm amounts reach the meter; a lost reply is settled by reading them back, never resent", async () => {
    const meter = sim(first!.address);
    await editScheme("alarmscheme/submit", { id: alarmScheme, firstAlarm: "80", secondAlarm: "30.5" });
    const writes = meter.counters.writes;
    // The write is executed but its acknowledgement never arrives.
    fleet.injectFault(first!.address, "noReply");
    const res = await post("waterparam/modWaterAlarmBatch", { meterIds: ids[first!.address] });
    assert.equal(res.statusCode, 200, res.body);
    const [row] = await settledBatch(res.json().data.batchId);
    assert.equal(row!.state, "success", row!.evidence ?? "");
    assert.equal(row!.command_type, "waterAlarm");
    const evidence = JSON.parse(row!.evidence!);
    assert.match(evidence.detail, /no reply; read-back shows the command took effect/);
    assert.deepEqual(
      [evidence.readBack.item, evidence.readBack.value],
      ["water-alarm", "alarm amounts 80.00 / 30.50"],
    );
    assert.deepEqual(meter.alarmAmounts, { first: "80.00", second: "30.50" });
    assert.equal(meter.counters.writes, writes + 1, "written exactly once");

    const record = await server.call("GET", `${pms}/datawritealarm/page?current=1&size=50`, admin);
    const listed = record.json().data.records.map((r: { id: string }) => String(r.id));
    assert.ok(listed.includes(row!.id), "water alarm writes are alarm-write records");
  });

  test("one valve's state is read now and answered from the meter; SWITCH_STATUS follows", async () => {
    const meter = sim(second!.address);
    meter.command("closed", Date.now());
    assert.equal(meter.valveAt(Date.now()), "closed");
    const res = await post("message/waterSwitchStatusResult", { meterId: ids[second!.address] });
    assert.equal(res.statusCode, 200, res.body);
    const answer = res.json().data;
    assert.deepEqual(
      [answer.state, answer.result, answer.valve, answer.switchStatus, answer.fresh],
      ["success", 1, "closed", 1, true],
    );
    assert.equal(res.json().msg, "读阀门状态成功");
    assert.equal(await switchStatus(ids[second!.address]!), 1);
  });

  test("when the meter does not answer in time, the answer says so and gives the last known state", async () => {
    // Every attempt of the read is lost (the first try and both retries).
    fleet.injectFault(first!.address, "ignore", 3);
    const known = await switchStatus(ids[first!.address]!);
    const res = await post("message/waterSwitchStatusResult", {
      meterId: ids[first!.address],
      waitSeconds: 0,
    });
    assert.equal(res.statusCode, 200, res.body);
    const answer = res.json().data;
    assert.ok(["queued", "sent"].includes(answer.state), answer.state);
    assert.deepEqual(
      [answer.result, answer.valve, answer.fresh, answer.switchStatus],
      [null, null, false, known],
    );
    assert.match(res.json().msg, /0 秒内未应答/);
    // The read goes on and fails on the meter's silence; it is never left open.
    const [row] = await waitFor("the read settled", async () => {
      const rows = await server.db.query<Row>(
        "select state, evidence from pms_meter_command where id = $1 and state in ('success', 'fail')",
        [answer.commandId],
      );
      return rows.length ? rows : undefined;
    });
    assert.equal(row!.state, "fail");
    assert.match(JSON.parse(row!.evidence!).detail, /no reply after 3 attempts/);
  });

  test("a batch of valve reads is answered per meter from the meters themselves", async () => {
    sim(first!.address).command("open", Date.now());
    sim(second!.address).command("closed", Date.now());
    sim(unopened!.address).command("closed", Date.now());
    const res = await post("message/waterSwitchStatusBatch", {
      meterIds: plan.meters.map((m) => ids[m.address]).join(","),
    });
    assert.equal(res.statusCode, 200, res.body);
    const outcome = res.json().data;
    assert.deepEqual([outcome.queued, outcome.skipped], [3, []]);
    const rows = await settledBatch(outcome.batchId);
    for (const meter of plan.meters) {
      const row = rows.find((r) => r.meter_id === ids[meter.address])!;
      assert.equal(row.state, "success", row.evidence ?? "");
      const valve = sim(meter.address).valveAt(Date.now());
      assert.match(JSON.parse(row.evidence!).value, new RegExp(`valve=${valve}\\b`));
      assert.equal(await switchStatus(ids[meter.address]!), valve === "open" ? 0 : 1);
    }
  });

  test("waterparam/control opens or closes one valve through the command lifecycle", async () => {
    const meter = sim(first!.address);
    const res = await post("waterparam/control", { meterId: ids[first!.address], type: 2 });
    assert.equal(res.statusCode, 200, res.body);
    const [row] = await settledBatch(res.json().data.batchId);
    assert.equal(row!.state, "success", row!.evidence ?? "");
    assert.deepEqual([row!.command_type, JSON.parse(row!.payload)], ["valve", { open: false }]);
    assert.equal(meter.valveAt(Date.now()), "closed");
    const prepaid = await post("waterparam/control", { meterId: ids[first!.address], type: 3 });
    assert.equal(prepaid.statusCode, 400, prepaid.body);
    assert.match(prepaid.json().msg, /^type: /);
  });

  test("values a water meter cannot hold are refused naming the field, before anything is queued", async () => {
    const before = await commandCount();
    const refused = async (path: string, body: Record<string, unknown>, pattern: RegExp) => {
      const res = await post(path, body);
      assert.equal(res.statusCode, 400, res.body);
      assert.match(res.json().msg, pattern);
    };
    const meterIds = ids[first!.address];
    await editScheme("chargingscheme/submit", { id: chargingScheme, priceMode: 1, price: "4.2050" });
    await refused(
      "waterparam/modWaterPriceBatch",
      { meterIds },
      /^price: 4\.2050 不能写入表计\(最多 2 位小数\)/,
    );
    await editScheme("chargingscheme/submit", {
      id: chargingScheme,
      priceMode: 2,
      ladder: JSON.stringify([
        { limit: "180.5", price: "3.45" },
        { limit: null, price: "4.83" },
      ]),
    });
    await refused("waterparam/modWaterPriceBatch", { meterIds }, /^ladder: 180\.5 不能写入表计/);
    await editScheme("chargingscheme/submit", {
      id: chargingScheme,
      ladder: JSON.stringify([
        { limit: "10", price: "1" },
        { limit: "20", price: "2" },
        { limit: "30", price: "3" },
        { limit: null, price: "4" },
      ]),
    });
    await refused("waterparam/modWaterPriceBatch", { meterIds }, /^ladder: 水表价格表最多 3 档/);
    await editScheme("alarmscheme/submit", { id: alarmScheme, firstAlarm: "1000000" });
    await refused(
      "waterparam/modWaterAlarmBatch",
      { meterIds },
      /^firstAlarm: 1000000(\.00)? 超出表计可写范围 0–999999\.99/,
    );
    await refused("waterparam/modWaterAlarmBatch", { meterIds: "" }, /meterIds/);
    await refused("message/waterSwitchStatusBatch", { meterIds: "" }, /meterIds/);
    await refused(
      "message/waterSwitchStatusResult",
      { meterId: meterIds, waitSeconds: 99 },
      /^waitSeconds: /,
    );
    assert.equal(await commandCount(), before, "nothing queued");
  });

  test("another tenant's meters are named as absent and left out, both ways", async () => {
    const other = await provisionTenant(server, admin, "别家水务");
    const theirs = await created(server, other.token, "water/submit", { productCode: "78339999000001" });
    const before = await commandCount();
    for (const path of ["waterparam/modWaterPriceBatch", "message/waterSwitchStatusBatch"]) {
      const mine = await post(path, { meterIds: theirs });
      assert.equal(mine.statusCode, 200, mine.body);
      // The batch is a job of no meters (nothing to send), which records what was left out.
      const { jobId, ...answer } = mine.json().data;
      assert.match(jobId, /^\d+$/);
      assert.deepEqual(answer, {
        batchId: null,
        queued: 0,
        skipped: [{ meterId: theirs, productCode: "", reason: "表计不存在" }],
      });
    }
    const one = await post("message/waterSwitchStatusResult", { meterId: theirs });
    assert.equal(one.statusCode, 400, one.body);
    assert.match(one.json().msg, /^meterIds?: 表计不存在/);
    const res = await server.call("POST", `${pms}/waterparam/modWaterAlarmBatch`, other.token, {
      meterIds: ids[first!.address],
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json().data.skipped, [
      { meterId: ids[first!.address], productCode: "", reason: "表计不存在" },
    ]);
    assert.equal(await commandCount(), before, "nothing queued for a meter the caller may not see");
  });
});

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { silentLogger } from "@meterline/gateway";
import { type FleetHandle, planFleet, plannedSecret, startFleet } from "@meterline/simulator";
import { FieldCipher } from "../src/crud/field-cipher.ts";
import { nextId } from "../src/db/ids.ts";
import { evaluateTenant } from "../src/modules/alarm/alarm.service.ts";
import { type EmbeddedMetering, startEmbeddedMetering } from "../src/modules/metering/embedded-gateway.ts";
import { startTestServer, type TestServer } from "./helpers.ts";
import { created } from "./registry-fixtures.ts";

// Two electricity meters (one local prepaid) and two water meters behind one DTU.
const PLAN = { meters: 4, dtus: 1, waterRatio: 0.5, seed: "alarm-conditions" } as const;
const MINUTE = 60_000;

/**
 * The meter check rules end to end: the simulated meters show a condition in their bytes, the
 * gateway reads them, the readings sink keeps the facts, the rules raise a record; clearing the
 * condition restores it.
 */
describe("alarm rules on the simulated fleet's condition flags", () => {
  let server: TestServer;
  let metering: EmbeddedMetering;
  let fleet: FleetHandle;
  let tenantId: string;
  const plan = planFleet(PLAN);
  const electric = plan.meters.filter((m) => m.kind === "electric").map((m) => m.address);
  const water = plan.meters.filter((m) => m.kind === "water").map((m) => m.address);
  const ids = new Map<string, string>();

  const startGateway = (port: string) =>
    startEmbeddedMetering({
      db: server.db,
      cipher: new FieldCipher(server.dataKey),
      logger: silentLogger,
      pollIntervalMs: 60_000,
      demoFleet: false,
      env: { GATEWAY_PORT: port, GATEWAY_HOST: "127.0.0.1" },
    });

  /**
   * A fresh gateway on the same port: the DTUs dial again, and its first poll of each meter is the
   * day's first, so it reads the clock and the cover count as the next day's poll would.
   */
  const restartGateway = async () => {
    const port = metering.gateway.address().port;
    await metering.close();
    metering = await startGateway(String(port));
  };

  const waitFor = async <T>(what: string, probe: () => Promise<T | undefined>): Promise<T> => {
    for (let i = 0; i < 400; i++) {
      const value = await probe();
      if (value !== undefined) return value;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`timed out waiting for ${what}`);
  };

  /** The records of a meter by rule: its state, and its content. */
  const records = async (address: string) => {
    const rows = await server.db.query<{ rule_code: string; alarm_status: number; content: string }>(
      `select rule_code, alarm_status, content from pms_check_record
        where product_code = $1 and is_deleted = 0 order by create_time, id`,
      [address],
    );
    return new Map(rows.map((r) => [r.rule_code, r]));
  };
  const statusOf = async (address: string, rule: string) => (await records(address)).get(rule)?.alarm_status;

  /** Waits until the meter's reading after `since` has landed (a poll that saw the current state). */
  const freshReading = async (address: string, since: Date) =>
    waitFor(`a new reading of ${address}`, async () => {
      const [row] = await server.db.query<{ read_time: Date }>(
        "select read_time from pms_meter_current_data where product_code = $1",
        [address],
      );
      return row && new Date(row.read_time) > since ? row : undefined;
    });

  before(async () => {
    server = await startTestServer();
    const admin = (await server.login()).access_token;
    const collector = await created(server, admin, "collector/submit", {
      collectorName: "alarm DTU",
      collectorCode: plan.dtuIds[0],
      registrationSecret: plannedSecret(plan, plan.dtuIds[0]!),
    });
    for (const meter of plan.meters) {
      const isElectric = meter.kind === "electric";
      ids.set(
        meter.address,
        await created(server, admin, isElectric ? "meter/save" : "water/submit", {
          productCode: meter.address,
          collectorId: collector,
          ...(isElectric ? {} : { diOrder: meter.diOrder }),
        }),
      );
    }
    const [row] = await server.db.query<{ tenant_id: string }>("select tenant_id from pms_meter limit 1");
    tenantId = row!.tenant_id;
    metering = await startGateway("0");
    fleet = await startFleet({ ...PLAN, gateway: metering.gateway.address(), reconnectDelayMs: 200 });
    // The first poll of every meter: the baselines (cover count, clock) of healthy meters.
    await waitFor("a first reading of every meter", async () => {
      const rows = await server.db.query<{ n: string }>(
        "select count(*)::text as n from pms_meter_current_data where total_value is not null and meter_time is not null",
      );
      return rows[0]!.n === "4" ? true : undefined;
    });
  });
  let gatewayRunning = true;
  after(async () => {
    await fleet.close();
    if (gatewayRunning) await metering.close();
    await server.close();
  });

  test("healthy meters raise nothing", async () => {
    for (const address of [...electric, ...water]) assert.deepEqual([...(await records(address)).keys()], []);
  });

  test("each condition raises its rule's record; clearing it restores the record", async () => {
    const [meter] = electric;
    const [tap] = water;
    fleet.setConditions(meter!, {
      reverseEnergy: true,
      batteryLow: true,
      overPower: true,
      relayFault: true,
      coverOpen: true,
      clockDriftMinutes: 20,
    });
    fleet.setConditions(tap!, { valveFault: true, batteryLow: true, clockDriftMinutes: -15 });
    const before = new Date();
    await restartGateway();
    await freshReading(meter!, before);
    await freshReading(tap!, before);
    const raised = await waitFor("the electric meter's records", async () => {
      const found = await records(meter!);
      return ["reverse_energy", "battery_low", "over_power", "cover_open", "clock_drift"].every((code) =>
        found.has(code),
      )
        ? found
        : undefined;
    });
    assert.match(raised.get("clock_drift")!.content, /快 20 分钟/);
    assert.match(raised.get("over_power")!.content, /-60\.0000 kW/);
    const tapRecords = await waitFor("the water meter's records", async () => {
      const found = await records(tap!);
      return ["valve_fault", "battery_low", "clock_drift"].every((code) => found.has(code))
        ? found
        : undefined;
    });
    assert.match(tapRecords.get("clock_drift")!.content, /慢 15 分钟/);
    // Nothing electric on the water meter, and the healthy meters stay quiet.
    assert.deepEqual([...tapRecords.keys()].sort(), ["battery_low", "clock_drift", "valve_fault"]);
    assert.deepEqual([...(await records(electric[1]!)).keys()], []);

    // The relay has been stuck since the first poll that saw it: past the settle time it is a fault.
    assert.equal(await statusOf(meter!, "relay_fault"), undefined, "not within the settle time");
    await evaluateTenant(server.db, tenantId, new Date(Date.now() + 6 * MINUTE));
    assert.equal(await statusOf(meter!, "relay_fault"), 1);

    fleet.setConditions(meter!, {
      reverseEnergy: false,
      batteryLow: false,
      overPower: false,
      relayFault: false,
      coverOpen: false,
      clockDriftMinutes: 0,
    });
    fleet.setConditions(tap!, { valveFault: false, batteryLow: false, clockDriftMinutes: 0 });
    const cleared = new Date();
    await restartGateway();
    await freshReading(meter!, cleared);
    await freshReading(tap!, cleared);
    await waitFor("the records restored", async () => {
      const found = await records(meter!);
      const tapFound = await records(tap!);
      const restored = (map: typeof found, codes: string[]) =>
        codes.every((code) => map.get(code)?.alarm_status === 2);
      return restored(found, ["reverse_energy", "battery_low", "over_power", "clock_drift", "relay_fault"]) &&
        restored(tapFound, ["valve_fault", "battery_low", "clock_drift"])
        ? true
        : undefined;
    });
    // A cover opening is an event the meter counts, not a state it reports: closing the cover leaves
    // the count as it was, and the record restores once a day has passed without another opening.
    assert.equal(await statusOf(meter!, "cover_open"), 1);
    await evaluateTenant(server.db, tenantId, new Date(Date.now() + 25 * 60 * MINUTE));
    assert.equal(await statusOf(meter!, "cover_open"), 2);
    const history = await server.db.query<{ from_status: number; to_status: number }>(
      `select h.from_status, h.to_status from pms_check_record_history h
         join pms_check_record r on r.id = h.record_id
        where r.product_code = $1 and r.rule_code = 'cover_open' order by h.create_time`,
      [meter],
    );
    assert.deepEqual(
      history.map((h) => [h.from_status, h.to_status]),
      [
        [0, 1],
        [1, 2],
      ],
    );
  });

  test("a command left to be confirmed alarms after the wait, and restores once it is settled", async () => {
    // No gateway to adopt the command and settle it by a read-back while the test looks at it.
    await metering.close();
    gatewayRunning = false;
    const address = electric[1]!;
    const commandId = nextId();
    const timedOut = new Date(Date.now() - 2 * 60 * MINUTE);
    await server.db.query(
      `insert into pms_meter_command (id, tenant_id, energy_type, meter_id, product_code, command_type, state,
         result, create_time, sent_time, done_time)
       values ($1, $2, 1, $3, $4, 'relay', 'timeout', 2, $5, $5, $5)`,
      [commandId, tenantId, ids.get(address), address, timedOut],
    );
    await evaluateTenant(server.db, tenantId, new Date());
    const found = await records(address);
    assert.equal(found.get("command_unsettled")?.alarm_status, 1);
    assert.match(found.get("command_unsettled")!.content, /relay/);
    await server.db.query("update pms_meter_command set state = 'success', result = 1 where id = $1", [
      commandId,
    ]);
    await evaluateTenant(server.db, tenantId, new Date());
    assert.equal(await statusOf(address, "command_unsettled"), 2);
  });
});

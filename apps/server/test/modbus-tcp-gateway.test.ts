import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { silentLogger } from "@meterline/gateway";
import { ModbusMeter, type ModbusTcpServer, startModbusTcpServer } from "@meterline/simulator";
import { FieldCipher } from "../src/crud/field-cipher.ts";
import { type EmbeddedMetering, startEmbeddedMetering } from "../src/modules/metering/embedded-gateway.ts";
import { enqueueCommands } from "../src/modules/pms/command-queue.ts";
import { startTestServer, type TestServer } from "./helpers.ts";
import { created } from "./registry-fixtures.ts";

/**
 * A Modbus TCP meter registered in the console is dialled by the embedded gateway at its
 * collector's host and port, read into its current values and cut through the command queue.
 */
describe("the embedded gateway dials a registered Modbus TCP endpoint", () => {
  let server: TestServer;
  let endpoint: ModbusTcpServer;
  let metering: EmbeddedMetering;
  let meterId: string;
  const sim = new ModbusMeter({
    id: "shop-7",
    slave: 7,
    modelName: "ddsy1352",
    meanRate: 1100,
    startKwh: 12,
  });

  const waitFor = async <T>(what: string, probe: () => Promise<T | undefined>): Promise<T> => {
    for (let i = 0; i < 300; i++) {
      const value = await probe();
      if (value !== undefined) return value;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`timed out waiting for ${what}`);
  };

  before(async () => {
    server = await startTestServer();
    const admin = (await server.login()).access_token;
    endpoint = await startModbusTcpServer([{ meter: sim }]);
    const { host, port } = endpoint.address();
    const collector = await created(server, admin, "collector/submit", {
      collectorName: "商铺 7 电表",
      collectorCode: "MBTCP-SHOP-7",
      transport: "modbus",
      modbusHost: host,
      modbusPort: port,
    });
    meterId = await created(server, admin, "meter/save", {
      productCode: "340000000007",
      collectorId: collector,
      protocol: "modbus_tcp",
      modbusModel: "ddsy1352",
      modbusSlave: 7,
    });
    metering = await startEmbeddedMetering({
      db: server.db,
      cipher: new FieldCipher(server.dataKey),
      logger: silentLogger,
      pollIntervalMs: 60_000,
      demoFleet: false,
      env: { GATEWAY_PORT: "0", GATEWAY_HOST: "127.0.0.1" },
    });
  });
  after(async () => {
    await metering?.close();
    await endpoint?.close();
    await server?.close();
  });

  test("the endpoint comes online and its meter's energy, voltage, current and power are read", async () => {
    const row = await waitFor("the meter's current values", async () => {
      const [found] = await server.db.query<{
        total_value: string;
        voltage: string | null;
        current: string | null;
        active_power: string | null;
      }>(
        `select total_value::text, voltage::text, current::text, active_power::text
           from pms_meter_current_data where meter_id = $1 and energy_type = 1`,
        [meterId],
      );
      return found?.voltage ? found : undefined;
    });
    assert.ok(Number(row.total_value) >= 12, row.total_value);
    // 1100 W at 220 V: 5 A; the DDSY1352 keeps volts at 0.1 and amps at 0.01.
    assert.deepEqual([row.voltage, row.current, row.active_power], ["220.000", "5.000", "1.1000"]);
    const [collector] = await server.db.query<{ online_status: number }>(
      "select online_status from pms_collector where collector_code = 'MBTCP-SHOP-7'",
    );
    assert.equal(collector?.online_status, 1);
    assert.ok(endpoint.connections() >= 1);
  });

  test("a cut from the queue is written by the model's relay register and confirmed by reading it back", async () => {
    const user = { userId: "1", tenantId: "000000" } as Parameters<typeof enqueueCommands>[1];
    const { batchId } = await enqueueCommands(
      server.db,
      user,
      "000000",
      [
        {
          energyType: 1,
          meterId,
          productCode: "340000000007",
          commandType: "switch",
          payload: { switchType: 2 },
        },
      ],
      "test",
    );
    const done = await waitFor("the cut settled", async () => {
      const [row] = await server.db.query<{ state: string; request: string | null; evidence: string }>(
        "select state, request, evidence from pms_meter_command where batch_id = $1",
        [batchId],
      );
      return row && row.state !== "queued" && row.state !== "sent" ? row : undefined;
    });
    assert.equal(done.state, "success", done.evidence);
    // MBAP: protocol 0, length 9, unit 7, function 10 to 0x0046.
    assert.match(done.request ?? "", /^[0-9a-f]{4}0000000907100046/i);
    assert.equal(sim.relayOn, false);
    const [meter] = await server.db.query<{ switch_status: number }>(
      "select switch_status from pms_meter where id = $1",
      [meterId],
    );
    assert.equal(meter?.switch_status, 1, "the meter's supply shows cut");
  });
});

import assert from "node:assert/strict";
import net from "node:net";
import { after, before, describe, test } from "node:test";
import { silentLogger } from "@meterline/gateway";
import { type FleetHandle, planFleet, plannedSecret, startFleet } from "@meterline/simulator";
import { FieldCipher } from "../src/crud/field-cipher.ts";
import { type EmbeddedMetering, startEmbeddedMetering } from "../src/modules/metering/embedded-gateway.ts";
import { enqueueCommands } from "../src/modules/pms/command-queue.ts";
import { startTestServer, type TestServer } from "./helpers.ts";
import { created } from "./registry-fixtures.ts";

const PLAN = { meters: 4, dtus: 1, waterRatio: 0.5, seed: "gateway-test" } as const;

describe("the embedded gateway on the registry: directory, command queue and readings in the database", () => {
  let server: TestServer;
  let admin: string;
  let metering: EmbeddedMetering;
  let fleet: FleetHandle;
  const ids = new Map<string, { id: string; energyType: 1 | 2 }>();

  /** The embedded gateway on this server's registry, on `port` ("0" for any free one). */
  const startGateway = (port: string) =>
    startEmbeddedMetering({
      db: server.db,
      cipher: new FieldCipher(server.dataKey),
      logger: silentLogger,
      pollIntervalMs: 60_000,
      demoFleet: false,
      // The fleet's valves move in 2 s: checked 2.5 s after the acknowledgement, not the field's 15 s.
      env: { GATEWAY_PORT: port, GATEWAY_HOST: "127.0.0.1", GATEWAY_VALVE_SETTLE_MS: "2500" },
    });

  const waitFor = async <T>(what: string, probe: () => Promise<T | undefined>): Promise<T> => {
    for (let i = 0; i < 400; i++) {
      const value = await probe();
      if (value !== undefined) return value;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`timed out waiting for ${what}`);
  };

  before(async () => {
    server = await startTestServer();
    admin = (await server.login()).access_token;
    const plan = planFleet(PLAN);
    const collector = await created(server, admin, "collector/submit", {
      collectorName: "test DTU",
      collectorCode: plan.dtuIds[0],
      // The fleet sends its plan's secret; the gateway reads this one, decrypted, to compare.
      registrationSecret: plannedSecret(plan, plan.dtuIds[0]!),
    });
    for (const meter of plan.meters) {
      const electric = meter.kind === "electric";
      const id = await created(server, admin, electric ? "meter/save" : "water/submit", {
        productCode: meter.address,
        collectorId: collector,
        ...(electric ? {} : { diOrder: meter.diOrder }),
      });
      ids.set(meter.address, { id, energyType: electric ? 1 : 2 });
    }
    metering = await startGateway("0");
    fleet = await startFleet({ ...PLAN, gateway: metering.gateway.address() });
  });
  after(async () => {
    await fleet.close();
    await metering.close();
    await server.close();
  });

  test("registered DTUs mark their collector and meters online; polls land as current data", async () => {
    await waitFor("the collector online", async () => {
      const [row] = await server.db.query<{ online_status: number }>(
        "select online_status from pms_collector",
      );
      return row?.online_status === 1 ? true : undefined;
    });
    const rows = await waitFor("a reading of every meter", async () => {
      const found = await server.db.query<{
        product_code: string;
        energy_type: number;
        total_value: string | null;
      }>(
        "select product_code, energy_type, total_value::text as total_value from pms_meter_current_data order by product_code",
      );
      return found.length === ids.size && found.every((r) => r.total_value !== null) ? found : undefined;
    });
    assert.deepEqual(rows.map((r) => r.product_code).sort(), [...ids.keys()].sort());
    for (const row of rows) assert.equal(row.energy_type, ids.get(row.product_code)!.energyType);
    const online = await server.db.query<{ n: string }>(
      "select count(*)::text as n from (select online_status from pms_meter union all select online_status from pms_water) m where online_status = 1",
    );
    assert.equal(online[0]!.n, String(ids.size));
  });

  test("the collector's secret is stored encrypted, answered masked, and an impostor without it is refused", async () => {
    const plan = planFleet(PLAN);
    const code = plan.dtuIds[0]!;
    const [row] = await server.db.query<{ id: string; registration_secret: string }>(
      "select id::text as id, registration_secret from pms_collector where collector_code = $1",
      [code],
    );
    assert.ok(!row!.registration_secret.includes(plannedSecret(plan, code)), "never stored in the clear");
    const detail = await server.call("GET", `/api/blade-pms/collector/detail?id=${row!.id}`, admin);
    assert.equal(detail.json().data.registrationSecret, `****${plannedSecret(plan, code).slice(-4)}`);
    const bad = await server.call("POST", "/api/blade-pms/collector/submit", admin, {
      id: row!.id,
      collectorName: "test DTU",
      collectorCode: code,
      allowedNetworks: "10.0.0.0/33",
    });
    assert.equal(bad.statusCode, 400);
    assert.match(bad.json().msg, /allowedNetworks/);

    // Over the real gateway: the code of the live DTU with a wrong secret gets nothing.
    const refusedBefore = metering.gateway.stats().rejected["bad secret"] ?? 0;
    const received: Buffer[] = [];
    await new Promise<void>((resolve) => {
      const socket = net.connect(metering.gateway.address(), () =>
        socket.write(`REG:${code},guessed-secret-123\n`),
      );
      socket.on("data", (chunk: Buffer) => received.push(chunk));
      socket.on("error", () => {});
      socket.on("close", () => resolve());
    });
    assert.equal(metering.gateway.stats().rejected["bad secret"], refusedBefore + 1);
    assert.equal(Buffer.concat(received).length, 0);
    assert.deepEqual(metering.gateway.collectors(), [code], "the live DTU stays");
  });

  test("a queued cut is claimed, sent, confirmed by the meter and becomes the meter's supply state", async () => {
    const [address, meter] = [...ids].find(([, m]) => m.energyType === 1)!;
    const [waterAddress, water] = [...ids].find(([, m]) => m.energyType === 2)!;
    const user = { userId: "1", tenantId: "000000" } as Parameters<typeof enqueueCommands>[1];
    const { batchId } = await enqueueCommands(
      server.db,
      user,
      "000000",
      [
        {
          energyType: 1,
          meterId: meter.id,
          productCode: address,
          commandType: "switch",
          payload: { switchType: 2 },
        },
        {
          energyType: 2,
          meterId: water.id,
          productCode: waterAddress,
          commandType: "valve",
          payload: { open: false },
        },
      ],
      "test",
    );
    // The valve is a motor valve: the gateway checks it again until it has moved (seconds).
    const done = await waitFor("both commands settled", async () => {
      const rows = await server.db.query<{
        state: string;
        result: number;
        request: string | null;
        evidence: string;
      }>(
        "select state, result, request, evidence from pms_meter_command where batch_id = $1 order by energy_type",
        [batchId],
      );
      return rows.every((r) => r.state === "success" || r.state === "fail" || r.state === "timeout")
        ? rows
        : undefined;
    });
    assert.deepEqual(
      done.map((r) => [r.state, r.result]),
      [
        ["success", 1],
        ["success", 1],
      ],
      JSON.stringify(done),
    );
    assert.match(done[0]!.request ?? "", /^68/i, "the request frame is kept");
    // The command log screen reads the same rows, with the state and result in words.
    const logged = await server.call("GET", `/api/blade-pms/metercommand/list?batchId=${batchId}`, admin);
    assert.deepEqual(
      logged
        .json()
        .data.records.map((r: { stateName: string; resultName: string }) => [r.stateName, r.resultName]),
      [
        ["成功", "成功"],
        ["成功", "成功"],
      ],
      logged.body,
    );
    const [relay] = await server.db.query<{ switch_status: number }>(
      "select switch_status from pms_meter where id = $1",
      [meter.id],
    );
    const [valve] = await server.db.query<{ switch_status: number }>(
      "select switch_status from pms_water where id = $1",
      [water.id],
    );
    assert.deepEqual([relay!.switch_status, valve!.switch_status], [1, 1]);
  });

  test("a write left open by a stopped gateway is settled by the next one reading the meter back", async () => {
    const [address, water] = [...ids].find(([, m]) => m.energyType === 2)!;
    const user = { userId: "1", tenantId: "000000" } as Parameters<typeof enqueueCommands>[1];
    const { batchId } = await enqueueCommands(
      server.db,
      user,
      "000000",
      [
        {
          energyType: 2,
          meterId: water.id,
          productCode: address,
          commandType: "valve",
          payload: { open: true },
        },
      ],
      "test",
    );
    const state = async () =>
      (
        await server.db.query<{ state: string; claimed_by: string; evidence: string | null }>(
          "select state, claimed_by, evidence from pms_meter_command where batch_id = $1",
          [batchId],
        )
      )[0]!;
    // The valve acknowledges at once but takes seconds to move: stop the gateway in between.
    await waitFor("the valve command sent", async () =>
      (await state()).state === "sent" ? true : undefined,
    );
    const firstOwner = (await state()).claimed_by;
    const port = metering.gateway.address().port;
    await metering.close();
    // Stopping marks it "timeout" (to be confirmed): its outcome is unknown, not failed.
    assert.ok(["sent", "timeout"].includes((await state()).state), "nothing settled it after the stop");
    metering = await startGateway(String(port));
    const settled = await waitFor("the adopted command settled", async () => {
      const row = await state();
      return row.state === "success" || row.state === "fail" ? row : undefined;
    });
    assert.equal(settled.state, "success", settled.evidence ?? "");
    assert.notEqual(settled.claimed_by, firstOwner, "the new gateway adopted it");
    assert.ok(JSON.parse(settled.evidence!).readBack, "settled by a read-back, not by sending again");
    const sends = await server.db.query<{ n: string }>(
      "select count(*)::text as n from pms_meter_command where batch_id = $1 and request is not null",
      [batchId],
    );
    assert.equal(sends[0]!.n, "1");
    const [valve] = await server.db.query<{ switch_status: number }>(
      "select switch_status from pms_water where id = $1",
      [water.id],
    );
    assert.equal(valve!.switch_status, 0);
  });
});

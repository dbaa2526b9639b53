import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { type FleetHandle, planFleet, plannedSecret, startFleet } from "@meterline/simulator";
import { freePort, startTestServer, type TestServer } from "./helpers.ts";
import { created } from "./registry-fixtures.ts";

const ENTRY = fileURLToPath(new URL("../src/gateway-process.ts", import.meta.url));
const PLAN = { meters: 3, dtus: 1, waterRatio: 0.34, seed: "gateway-process" } as const;

// The stand-alone registry gateway needs PostgreSQL (leases, a second connection): it runs when
// TEST_DATABASE_URL names a server, as CI's does.
describe("npm run gateway on the registry, as its own process", {
  skip: !process.env.TEST_DATABASE_URL,
}, () => {
  let server: TestServer;
  let fleet: FleetHandle | undefined;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await fleet?.close();
    await server.close();
  });

  test("serves the registry's meters from another process and writes their readings back", async () => {
    const admin = (await server.login()).access_token;
    const plan = planFleet(PLAN);
    const collector = await created(server, admin, "collector/submit", {
      collectorName: "DTU",
      collectorCode: plan.dtuIds[0],
      registrationSecret: plannedSecret(plan, plan.dtuIds[0]!),
    });
    for (const meter of plan.meters) {
      const electric = meter.kind === "electric";
      await created(server, admin, electric ? "meter/save" : "water/submit", {
        productCode: meter.address,
        collectorId: collector,
      });
    }
    const port = await freePort();
    let output = "";
    const child = spawn(process.execPath, ["--import", "tsx", ENTRY], {
      env: {
        ...process.env,
        DATABASE_URL: server.databaseUrl,
        DATA_ENCRYPTION_KEY: server.dataKey,
        GATEWAY_PORT: String(port),
        GATEWAY_HOST: "127.0.0.1",
        LOG_LEVEL: "warn",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout!.on("data", (d) => (output += d));
    child.stderr!.on("data", (d) => (output += d));
    try {
      fleet = await startFleet({ ...PLAN, gateway: { host: "127.0.0.1", port }, reconnectDelayMs: 200 });
      let rows = 0;
      for (let i = 0; i < 150 && rows < plan.meters.length; i++) {
        await new Promise((r) => setTimeout(r, 200));
        rows = Number(
          (await server.db.query<{ n: string }>("select count(*)::text as n from pms_meter_current_data"))[0]!
            .n,
        );
      }
      assert.equal(rows, plan.meters.length, output);
      const [lease] = await server.db.query<{ collector_id: string }>(
        "select collector_id from gateway_lease",
      );
      assert.equal(lease?.collector_id, plan.dtuIds[0], "the collector is leased to the process");
    } finally {
      const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
      child.kill("SIGTERM");
      assert.equal(await exited, 0, output);
    }
  });
});

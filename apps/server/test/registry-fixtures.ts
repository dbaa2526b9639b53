import assert from "node:assert/strict";
import { after, before } from "node:test";
import { type FleetPlan, plannedSecret } from "@meterline/simulator";
import { startTestServer, type TestServer } from "./helpers.ts";

const pms = "/api/blade-pms";

/** Posts to a registry path and returns the new row's id, failing loudly on anything but success. */
export async function created(
  server: TestServer,
  token: string,
  path: string,
  body: Record<string, unknown>,
) {
  const res = await server.call("POST", `${pms}/${path}`, token, body);
  assert.equal(res.statusCode, 200, `${path}: ${res.body}`);
  return res.json().data.id as string;
}

/**
 * Registers a planned simulated fleet: each DTU as a collector with its secret, each meter on it.
 * Answers the meters' ids and their DTUs, by address.
 */
export async function registerFleet(server: TestServer, token: string, plan: FleetPlan) {
  const meterIds = new Map<string, string>();
  const collectorOfMeter = new Map<string, string>();
  for (const dtuId of plan.dtuIds) {
    const collector = await created(server, token, "collector/submit", {
      collectorName: dtuId,
      collectorCode: dtuId,
      registrationSecret: plannedSecret(plan, dtuId),
    });
    for (const meter of plan.meters.filter((m) => m.collectorId === dtuId)) {
      meterIds.set(
        meter.address,
        await created(server, token, "meter/save", { productCode: meter.address, collectorId: collector }),
      );
      collectorOfMeter.set(meter.address, dtuId);
    }
  }
  return { meterIds, collectorOfMeter };
}

export const get = async (server: TestServer, token: string, path: string) => {
  const res = await server.call("GET", `${pms}/${path}`, token);
  assert.equal(res.statusCode, 200, `${path}: ${res.body}`);
  return res.json().data;
};

/** A small site: a park with two buildings, three rooms, an owner, and meters in room 101. */
export async function buildSite(server: TestServer, token: string, prefix = "") {
  const park = await created(server, token, "area/save", { areaName: `${prefix}阳光园区`, areaType: 1 });
  const building1 = await created(server, token, "area/save", { parentId: park, areaName: "1号楼" });
  const building2 = await created(server, token, "area/save", { parentId: park, areaName: "2号楼" });
  const room101 = await created(server, token, "room/save", { areaId: building1, roomName: "101" });
  const room102 = await created(server, token, "room/save", { areaId: building1, roomName: "102" });
  const room201 = await created(server, token, "room/save", { areaId: building2, roomName: "201" });
  const collector = await created(server, token, "collector/submit", {
    collectorName: "1号楼 DTU",
    collectorCode: `${prefix}DTU-${Date.now()}`.slice(0, 32),
    areaId: building1,
  });
  const owner = await created(server, token, "owner/submit", {
    ownerName: "张三",
    ownerCode: `${prefix}O1`,
    phone: "13800000001",
  });
  await created(server, token, "ownerroom/submit", { ownerId: owner, roomId: room101 });
  const digits = prefix ? "9" : "1";
  const meter = await created(server, token, "meter/save", {
    productCode: `${digits}00000000101`,
    collectorId: collector,
    channel: 1,
  });
  const water = await created(server, token, "water/submit", {
    productCode: `${digits}0000000000101`,
    collectorId: collector,
  });
  await created(server, token, "roommeter/submit", { roomId: room101, energyType: 1, meterId: meter });
  await created(server, token, "roommeter/submit", { roomId: room101, energyType: 2, meterId: water });
  return { park, building1, building2, room101, room102, room201, collector, owner, meter, water };
}

/** Every node id of a tree, depth first. */
export const treeIds = (nodes: { id: string; children?: unknown[] }[]): string[] =>
  nodes.flatMap((n) => [n.id, ...treeIds((n.children ?? []) as { id: string }[])]);

export interface RegistrySuite {
  server: TestServer;
  admin: string;
  site: Awaited<ReturnType<typeof buildSite>>;
  /** POST to a registry path as `token` (the platform admin by default). */
  post(path: string, body?: Record<string, unknown>, token?: string): ReturnType<TestServer["call"]>;
}

/** A server with the small site built, for the describe block that calls it. */
export function useRegistrySuite(): RegistrySuite {
  const suite = {} as RegistrySuite;
  before(async () => {
    suite.server = await startTestServer();
    suite.admin = (await suite.server.login()).access_token;
    suite.site = await buildSite(suite.server, suite.admin);
    suite.post = (path, body, token = suite.admin) =>
      suite.server.call("POST", `/api/blade-pms/${path}`, token, body);
  });
  after(() => suite.server.close());
  return suite;
}

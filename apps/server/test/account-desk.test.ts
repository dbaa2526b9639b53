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
import { renderCaptcha } from "../src/modules/auth/captcha-image.ts";
import { type EmbeddedMetering, startEmbeddedMetering } from "../src/modules/metering/embedded-gateway.ts";
import { provisionTenant } from "./fixtures.ts";
import { multipartFile, startTestServer, type TestServer } from "./helpers.ts";
import { created } from "./registry-fixtures.ts";

// One remote-control electric meter on one DTU: the account the desk closes and whose supply it cuts.
const PLAN = { meters: 1, dtus: 1, waterRatio: 0, prepaidRatio: 0, seed: "account-desk" } as const;
const pms = "/api/blade-pms";

describe("front desk: opening with a paid deposit, closing with its settlement, final reading and supply", () => {
  let server: TestServer;
  let admin: string;
  let metering: EmbeddedMetering | undefined;
  let fleet: FleetHandle | undefined;
  const plan = planFleet(PLAN);
  const [meterPlan] = plan.meters;
  /** The fleet's meter (cut on closing) and a meter kept on at closing. */
  let fleetMeter: string;
  let keptMeter: string;
  let site: { collector: string; area: string; scheme: string };

  const post = (path: string, body: Record<string, unknown>) =>
    server.call("POST", `${pms}/${path}`, admin, body);
  const get = async (path: string, query: Record<string, string>) => {
    const res = await server.call("GET", `${pms}/${path}?${new URLSearchParams(query)}`, admin);
    return res;
  };
  const waitFor = async <T>(what: string, probe: () => Promise<T | undefined>): Promise<T> => {
    for (let i = 0; i < 300; i++) {
      const value = await probe();
      if (value !== undefined) return value;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`timed out waiting for ${what}`);
  };
  /** The meter's registers as the last read left them (what a closing settles to). */
  const readAt = (meterId: string, productCode: string, total: string, minutesAgo: number) =>
    server.db.query(
      `insert into pms_meter_current_data (id, tenant_id, energy_type, meter_id, product_code, read_time, total_value, switch_status)
       values ($1, '000000', 1, $2, $3, now() - make_interval(mins => $5), $4, 0)
       on conflict (tenant_id, energy_type, meter_id)
       do update set read_time = excluded.read_time, total_value = excluded.total_value`,
      [String(9_000_000 + Number(meterId.slice(-6))), meterId, productCode, total, minutesAgo],
    );
  const meterOf = async (name: string, productCode: string) => {
    const ownerId = await created(server, admin, "owner/submit", { ownerName: name });
    const room = await created(server, admin, "room/save", { areaId: site.area, roomName: `${name}房` });
    await created(server, admin, "ownerroom/submit", { ownerId, roomId: room });
    const meterId = await created(server, admin, "meter/save", {
      productCode,
      collectorId: site.collector,
      controlStatus: 1,
      chargingSchemeId: site.scheme,
    });
    await created(server, admin, "roommeter/submit", { roomId: room, energyType: 1, meterId });
    return meterId;
  };
  const closingOf = async (meterId: string) => {
    const res = await get("datacloseaccount/page", { current: "1", size: "50" });
    assert.equal(res.statusCode, 200, res.body);
    return (res.json().data.records as Record<string, unknown>[]).find((r) => r.meterId === meterId);
  };

  before(async () => {
    server = await startTestServer();
    admin = (await server.login()).access_token;
    const collector = await created(server, admin, "collector/submit", {
      collectorName: "DTU",
      collectorCode: plan.dtuIds[0],
      registrationSecret: plannedSecret(plan, plan.dtuIds[0]!),
    });
    const area = await created(server, admin, "area/save", { areaName: "前台园区", areaType: 1 });
    const scheme = await created(server, admin, "chargingscheme/submit", {
      schemeName: "一元电价",
      energyType: 1,
      priceMode: 1,
      price: "1",
    });
    site = { collector, area, scheme };
    fleetMeter = await meterOf("孙前台", meterPlan!.address);
    keptMeter = await meterOf("周保电", "400000000888");
    await readAt(fleetMeter, meterPlan!.address, "100.00", 60);
    await readAt(keptMeter, "400000000888", "50.00", 60);
  });
  after(async () => {
    await fleet?.close();
    await metering?.close();
    await server.close();
  });

  test("an opening keeps how its deposit was paid; a method outside the list is refused by name", async () => {
    const refused = await post("message/openAccount", {
      meterId: fleetMeter,
      deposit: "100.00",
      paymentMethod: "9",
    });
    assert.equal(refused.statusCode, 400);
    assert.match(refused.json().msg, /^paymentMethod: /);
    const opened = await post("message/openAccount", {
      meterId: fleetMeter,
      deposit: "100.00",
      paymentMethod: "3",
    });
    assert.equal(opened.statusCode, 200, opened.body);
    const kept = await post("message/openAccount", { meterId: keptMeter, deposit: "20.00" });
    assert.equal(kept.statusCode, 200, kept.body);
    const page = await get("dataopenaccount/page", { current: "1", size: "50" });
    const rows = page.json().data.records as Record<string, unknown>[];
    const wechat = rows.find((r) => r.meterId === fleetMeter);
    assert.deepEqual([wechat?.paymentMethod, wechat?.deposit], [3, "100.00"]);
    assert.match(String(wechat?.receiptNo), /^K\d{8}\d+$/);
    // Not said: cash, as a counter recharge.
    assert.equal(rows.find((r) => r.meterId === keptMeter)?.paymentMethod, 1);
  });

  test("the settlement is shown before closing and books nothing", async () => {
    await readAt(fleetMeter, meterPlan!.address, "112.50", 30);
    const ledger = async () =>
      (await server.db.query<{ n: string }>("select count(*)::text as n from pms_ledger"))[0]!.n;
    const before = await ledger();
    const preview = await get("account/closePreview", { meterId: fleetMeter, energyType: "1" });
    assert.equal(preview.statusCode, 200, preview.body);
    const seen = preview.json().data;
    assert.deepEqual(
      [seen.lastReading, seen.finalReading, seen.usage, seen.usageCharge, seen.balanceBefore, seen.balance],
      ["100.00", "112.50", "12.50", "12.50", "100.00", "87.50"],
    );
    assert.deepEqual(
      [seen.refund, seen.debt, seen.ownerName, seen.controlStatus],
      ["87.50", "0.00", "孙前台", 1],
    );
    assert.equal(await ledger(), before, "a preview books nothing");
    // Asked again: the same figures, since nothing was settled.
    assert.equal((await get("account/closePreview", { meterId: fleetMeter })).json().data.balance, "87.50");
    const missing = await get("account/closePreview", { energyType: "1" });
    assert.equal(missing.statusCode, 400);
    assert.match(missing.json().msg, /^meterId: /);
    const energy = await get("account/closePreview", { meterId: fleetMeter, energyType: "3" });
    assert.equal(energy.statusCode, 400);
    assert.match(energy.json().msg, /^energyType: /);
  });

  test("another tenant's desk sees no settlement of this tenant's meter", async () => {
    const other = await provisionTenant(server, admin, "邻居物业");
    const res = await server.call(
      "GET",
      `${pms}/account/closePreview?meterId=${fleetMeter}&energyType=1`,
      other.token,
    );
    assert.equal(res.statusCode, 400, res.body);
    assert.match(res.json().msg, /^meterId: .*未开户/);
  });

  test("keeping supply on needs a reason, stored and listed; nothing is sent to the meter", async () => {
    for (const [body, field] of [
      [{ keepSupply: "1" }, "keepSupplyReason"],
      [{ keepSupply: "1", keepSupplyReason: "   " }, "keepSupplyReason"],
      [{ keepSupply: "yes", keepSupplyReason: "x" }, "keepSupply"],
      [{ keepSupply: "1", keepSupplyReason: "长".repeat(256) }, "keepSupplyReason"],
    ] as const) {
      const refused = await post("message/closeAccount", { meterId: keptMeter, ...body });
      assert.equal(refused.statusCode, 400, refused.body);
      assert.match(refused.json().msg, new RegExp(`^${field}: `));
    }
    const [open] = await server.db.query<{ status: number }>(
      "select status from pms_account where meter_id = $1",
      [keptMeter],
    );
    assert.equal(open?.status, 1, "a refused closing leaves the account open");
    const closed = await post("message/closeAccount", {
      meterId: keptMeter,
      keepSupply: "1",
      keepSupplyReason: "新住户明日入住,物业保电",
    });
    assert.equal(closed.statusCode, 200, closed.body);
    const row = await closingOf(keptMeter);
    assert.deepEqual(
      [row?.finalReading, row?.closeSupply, row?.closeSupplyReason, row?.refund],
      ["50.00", 2, "新住户明日入住,物业保电", "20.00"],
    );
    const commands = await server.db.query("select id from pms_meter_command where meter_id = $1", [
      keptMeter,
    ]);
    assert.equal(commands.length, 0, "no command for a meter kept on");
  });

  test("closing cuts supply by a relay command the gateway settles by reading the meter back", async () => {
    const closed = await post("message/closeAccount", { meterId: fleetMeter });
    assert.equal(closed.statusCode, 200, closed.body);
    assert.deepEqual([closed.json().data[0].refunded, closed.json().data[0].debt], ["87.50", "0.00"]);
    const queued = await closingOf(fleetMeter);
    assert.deepEqual(
      [queued?.finalReading, queued?.closeSupply, queued?.closeSupplyState, queued?.refund],
      ["112.50", 1, "queued", "87.50"],
    );
    // The meter comes online only now: the queued cut goes out once and is settled by read-back.
    metering = await startEmbeddedMetering({
      db: server.db,
      cipher: new FieldCipher(server.dataKey),
      logger: silentLogger,
      pollIntervalMs: 3_600_000,
      demoFleet: false,
      env: { GATEWAY_PORT: "0", GATEWAY_HOST: "127.0.0.1" },
    });
    fleet = await startFleet({ ...PLAN, gateway: metering.gateway.address() });
    const settled = await waitFor("the closing's cut settled", async () => {
      const [row] = await server.db.query<{ state: string; evidence: string | null; payload: unknown }>(
        "select state, evidence, payload from pms_meter_command where meter_id = $1 and source = 'account/close'",
        [fleetMeter],
      );
      return row && row.state !== "queued" && row.state !== "sent" ? row : undefined;
    });
    assert.equal(settled.state, "success");
    assert.match(String(settled.evidence), /relay open/);
    assert.equal(
      (fleet.meter(meterPlan!.address) as ElectricMeter).relayOpen,
      true,
      "supply is cut at the meter",
    );
    const [meter] = await server.db.query<{ switch_status: number }>(
      "select switch_status from pms_meter where id = $1",
      [fleetMeter],
    );
    assert.equal(meter?.switch_status, 1);
    assert.equal((await closingOf(fleetMeter))?.closeSupplyState, "success");
    const sent = await server.db.query(
      "select id from pms_meter_command where meter_id = $1 and source = 'account/close'",
      [fleetMeter],
    );
    assert.equal(sent.length, 1, "the cut was queued once, never again");

    // The next occupant's opening above the cut line brings supply back, settled the same way.
    const reopened = await post("message/openAccount", { meterId: fleetMeter, deposit: "30.00" });
    assert.equal(reopened.statusCode, 200, reopened.body);
    const restored = await waitFor("the opening's restore settled", async () => {
      const [row] = await server.db.query<{ state: string }>(
        "select state from pms_meter_command where meter_id = $1 and source = 'account/open'",
        [fleetMeter],
      );
      return row && row.state !== "queued" && row.state !== "sent" ? row : undefined;
    });
    assert.equal(restored.state, "success");
    assert.equal(
      (fleet.meter(meterPlan!.address) as ElectricMeter).relayOpen,
      false,
      "supply is back at the meter",
    );
  });

  test("a site's logo set on its tenant record is on its receipts, signed for its own operators", async () => {
    const other = await provisionTenant(server, admin, "标志物业");
    const png = renderCaptcha("LOGO1");
    const body = multipartFile("logo.png", png);
    const uploaded = await server.inject({
      method: "POST",
      url: "/api/blade-resource/oss/endpoint/put-file?purpose=avatar",
      headers: { ...body.headers, "blade-auth": `bearer ${admin}` },
      payload: body.payload,
    });
    assert.equal(uploaded.statusCode, 200, uploaded.body);
    const link = (uploaded.json().data.link as string).replace(/\?.*$/, "");
    const [tenant] = await server.db.query<{ id: string }>("select id from sys_tenant where tenant_id = $1", [
      other.tenantId,
    ]);
    const saved = await server.call("POST", "/api/blade-system/tenant/submit", admin, {
      id: tenant!.id,
      tenantName: "标志物业",
      logoUrl: link,
    });
    assert.equal(saved.statusCode, 200, saved.body);
    // The tenant's own desk opens an account: its opening record (the receipt's source) carries the logo.
    const call = (path: string, payload: Record<string, unknown>) =>
      created(server, other.token, path, payload);
    const area = await call("area/save", { areaName: "标志园区", areaType: 1 });
    const room = await call("room/save", { areaId: area, roomName: "101" });
    const ownerId = await call("owner/submit", { ownerName: "吴标志" });
    await call("ownerroom/submit", { ownerId, roomId: room });
    const scheme = await call("chargingscheme/submit", {
      schemeName: "电价",
      energyType: 1,
      priceMode: 1,
      price: "1",
    });
    const meterId = await call("meter/save", {
      productCode: "400000000999",
      controlStatus: 1,
      chargingSchemeId: scheme,
    });
    await call("roommeter/submit", { roomId: room, energyType: 1, meterId });
    const opened = await server.call("POST", `${pms}/message/openAccount`, other.token, {
      meterId,
      deposit: "5.00",
    });
    assert.equal(opened.statusCode, 200, opened.body);
    const page = await server.call("GET", `${pms}/dataopenaccount/page?current=1&size=10`, other.token);
    const [row] = page.json().data.records as { tenantName: string; tenantLogo: string }[];
    assert.equal(row?.tenantName, "标志物业");
    assert.match(
      String(row?.tenantLogo),
      new RegExp(`^${link.replace(/[.?]/g, "\\$&")}\\?tenant=${other.tenantId}&expires=`),
    );
    const served = await server.inject({ method: "GET", url: row!.tenantLogo });
    assert.equal(served.statusCode, 200);
    assert.deepEqual(served.rawPayload, png);
  });
});

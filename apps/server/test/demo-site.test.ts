import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { planFleet } from "@meterline/simulator";
import { FieldCipher } from "../src/crud/field-cipher.ts";
import {
  DEMO_698_FLEET,
  DEMO_FLEET,
  DEMO_TENANT_ID,
  demoDtuSecrets,
  seedDemoSite,
} from "../src/demo/demo-site.ts";
import { demoSupplyOff } from "../src/demo/demo-supply.ts";
import { DbMeterDirectory } from "../src/modules/metering/meter-directory.db.ts";
import { DbReadingsSink } from "../src/modules/metering/readings-sink.db.ts";
import { ADMIN_PASSWORD, startTestServer, type TestServer } from "./helpers.ts";
import { get, treeIds } from "./registry-fixtures.ts";

describe("the embedded demo site", () => {
  let server: TestServer;
  let token: string;
  before(async () => {
    server = await startTestServer();
    assert.equal(await seedDemoSite(server.db, { adminPassword: ADMIN_PASSWORD }), true);
    token = (await server.login("admin", ADMIN_PASSWORD, DEMO_TENANT_ID)).access_token;
  });
  after(() => server.close());

  test("is seeded once: 4 buildings and the 698 one, 210 rooms, 190 owners in them, schemes and collectors", async () => {
    assert.equal(await seedDemoSite(server.db, { adminPassword: ADMIN_PASSWORD }), false);
    const buildings = await get(server, token, "area/tree");
    assert.deepEqual(
      buildings[0].children.map((b: { title: string }) => b.title),
      ["1号楼", "2号楼", "3号楼", "4号楼", "5号楼(698)"],
    );
    assert.equal((await get(server, token, "room/page?size=1")).total, 210);
    assert.equal((await get(server, token, "owner/page?size=1")).total, 190);
    assert.equal(
      (await get(server, token, `room/page?size=1&areaId=${buildings[0].children[1].id}`)).total,
      50,
    );
    // The 20 vacant rooms are the last ones, all in building 4: the picker shows that branch only.
    const vacant = await get(server, token, "room/unbindOwnerTree");
    assert.deepEqual(
      vacant[0].children.map((b: { title: string }) => b.title),
      ["4号楼"],
    );
    assert.equal(treeIds(vacant).length, 20 + 2);
    assert.equal((await get(server, token, "collector/page?size=1")).total, DEMO_FLEET.dtus + 1);
    const schemes = await get(server, token, "chargingscheme/list?size=10");
    assert.deepEqual(
      schemes.records.map((s: { priceModeName: string }) => s.priceModeName).sort(),
      ["分时价格", "单一价格", "阶梯价格"].sort(),
    );
  });

  test("its meters are the simulated fleet's, each installed in a room behind its DTU, and each building's master and common-area meters", async () => {
    const plan = planFleet(DEMO_FLEET);
    const building698 = planFleet(DEMO_698_FLEET);
    const electric = await get(server, token, "meter/page?size=500");
    const water = await get(server, token, "water/page?size=500");
    // Each of the 5 buildings has an electric master (…9900, …9902, …) and common-area meter (…9901,
    // …); the 4 with water meters a water master. They are in no room and on no DTU.
    const topology = (kind: string) =>
      kind === "electric"
        ? Array.from({ length: 10 }, (_, i) => String(201_000_009_900 + i))
        : [0, 2, 4, 6].map((i) => String(78_330_000_009_900 + i));
    const planned = (kind: string) =>
      [
        ...[...plan.meters, ...building698.meters].filter((m) => m.kind === kind).map((m) => m.address),
        ...topology(kind),
        // The shops' Modbus-RTU meters (510000000001…), on the first DTUs' buses.
        ...(kind === "electric" ? plan.modbus.map((_, i) => String(510_000_000_001 + i)) : []),
      ].sort();
    assert.deepEqual(
      electric.records.map((m: { productCode: string }) => m.productCode).sort(),
      planned("electric"),
    );
    assert.deepEqual(
      water.records.map((m: { productCode: string }) => m.productCode).sort(),
      planned("water"),
    );
    const first = plan.meters[0]!;
    const meter = [...electric.records, ...water.records].find(
      (m: { productCode: string }) => m.productCode === first.address,
    );
    const collector = await get(server, token, `collector/detail?id=${meter.collectorId}`);
    assert.equal(collector.collectorCode, first.collectorId);
    const links = await get(server, token, "roommeter/roomMeterPage?size=1");
    assert.equal(links.total, DEMO_FLEET.meters + DEMO_698_FLEET.meters + DEMO_FLEET.modbusMeters);
    const modbus = electric.records.filter((m: { protocol: string }) => m.protocol === "modbus_rtu");
    assert.deepEqual(
      modbus.map((m: { modbusModel: string; modbusSlave: number }) => [m.modbusModel, m.modbusSlave]),
      plan.modbus.map((m) => [m.model, m.slave]),
    );
    // Masters and common-area meters count buildings: never offered to a room.
    assert.equal((await get(server, token, "meter/unbindTree")).length, 0);
    assert.equal((await get(server, token, "water/unbindTree")).length, 0);
    const nodes = await get(server, token, "meteringnode/list");
    assert.deepEqual(nodes.map((n: { nodeTitle: string }) => n.nodeTitle).sort(), [
      "1号楼",
      "1号楼 供水",
      "2号楼",
      "2号楼 供水",
      "3号楼",
      "3号楼 供水",
      "4号楼",
      "4号楼 供水",
      "5号楼(698)",
    ]);
    const listed = await get(server, token, "meteringnodemeter/page?size=1");
    assert.equal(
      listed.total,
      DEMO_FLEET.meters + DEMO_698_FLEET.meters + 5,
      "every room meter, and 5 公区表",
    );
  });

  test("its DTUs get random secrets once, stored encrypted, for the simulated fleet to send", async () => {
    const cipher = new FieldCipher(server.dataKey);
    // A collector an operator adds to the demo is theirs: it gets no secret behind their back.
    const added = await server.call("POST", "/api/blade-pms/collector/submit", token, {
      collectorName: "operator DTU",
      collectorCode: "OPERATOR-DTU",
    });
    assert.equal(added.statusCode, 200, added.body);
    const secrets = await demoDtuSecrets(server.db, cipher);
    const [concentrator] = planFleet(DEMO_698_FLEET).dtuIds;
    assert.deepEqual(Object.keys(secrets).sort(), [...planFleet(DEMO_FLEET).dtuIds, concentrator].sort());
    assert.equal(new Set(Object.values(secrets)).size, DEMO_FLEET.dtus + 1, "each its own");
    const { [concentrator!]: password, ...dtus } = secrets;
    assert.ok(Object.values(dtus).every((secret) => /^[A-Za-z0-9_-]{24}$/.test(secret)));
    assert.match(password!, /^[0-9A-F]{32}$/, "a concentrator's secret is its 16-byte password");
    assert.deepEqual(await demoDtuSecrets(server.db, cipher), secrets, "kept across starts");
    const stored = await server.db.query<{ registration_secret: string }>(
      "select registration_secret from pms_collector where tenant_id = $1 and collector_code <> 'OPERATOR-DTU'",
      [DEMO_TENANT_ID],
    );
    const [operators] = await server.db.query<{ registration_secret: string | null }>(
      "select registration_secret from pms_collector where collector_code = 'OPERATOR-DTU'",
    );
    assert.equal(operators!.registration_secret, null);
    assert.ok(stored.every((row) => !Object.values(secrets).includes(row.registration_secret)));
  });

  test("its meters last known with supply off are named as the simulated fleets name them, to start that way", async () => {
    const plan = planFleet(DEMO_FLEET);
    const building698 = planFleet(DEMO_698_FLEET);
    const before = await demoSupplyOff(server.db);
    const electric = plan.meters.find((m) => m.kind === "electric" && !before.includes(m.address))!;
    const water = plan.meters.find((m) => m.kind === "water" && !before.includes(m.address))!;
    const [shop] = plan.modbus;
    const [meter698] = building698.meters;
    const setSupply = async (status: 0 | 1) => {
      const update = (table: string, codes: string[]) =>
        server.db.query(
          `update ${table} set switch_status = $3 where tenant_id = $1 and product_code = any($2::text[])`,
          [DEMO_TENANT_ID, codes, status],
        );
      await update("pms_meter", [electric.address, meter698!.address]);
      await update("pms_water", [water.address]);
      // A shop's Modbus meter is known to the fleet by its DTU and slave address, not its number.
      await server.db.query(
        `update pms_meter m set switch_status = $4 from pms_collector c
          where c.id = m.collector_id and m.tenant_id = $1 and c.collector_code = $2 and m.modbus_slave = $3`,
        [DEMO_TENANT_ID, shop!.collectorId, shop!.slave, status],
      );
    };
    await setSupply(1);
    // Another tenant's meter with the same number is not the demo's.
    await server.db.query(
      `insert into pms_meter (id, tenant_id, product_code, switch_status) values (9100000000000000001, '000000', $1, 1)`,
      [plan.meters.find((m) => m.kind === "electric" && m !== electric)!.address],
    );
    try {
      const added = (await demoSupplyOff(server.db)).filter((name) => !before.includes(name));
      assert.deepEqual(added.sort(), [electric.address, water.address, shop!.id, meter698!.address].sort());
    } finally {
      await server.db.query("delete from pms_meter where id = 9100000000000000001");
      await setSupply(0);
    }
  });

  test("its 698 building hangs on a concentrator the gateway's directory serves, and shows its meter file", async () => {
    const plan = planFleet(DEMO_698_FLEET);
    const code = plan.dtuIds[0]!;
    assert.equal(code, "34010001");
    const collectors = await get(server, token, `collector/page?size=50&collectorCode=${code}`);
    const collector = collectors.records.find((c: { collectorCode: string }) => c.collectorCode === code);
    assert.equal(collector.collectorType, 2, "a 集中器");
    const cipher = new FieldCipher(server.dataKey);
    const secrets = await demoDtuSecrets(server.db, cipher);
    const directory = new DbMeterDirectory(server.db, cipher, 60_000);
    assert.equal((await directory.credentialsOf(code))?.secret, secrets[code]);
    const meters = await directory.metersOf(code);
    assert.deepEqual(
      meters.map((m) => m.address),
      plan.meters.map((m) => m.address),
    );
    assert.ok(meters.every((m) => m.protocol === "dlt698" && m.channel === 31 && m.transport === "tcp"));
    const prepaid = meters.filter((m) => m.model.localPrepaid).length;
    assert.ok(prepaid > 0 && prepaid < meters.length, `some local prepaid, not all: ${prepaid}`);
    const accounts = await server.db.query<{ n: number }>(
      `select count(*)::int as n from pms_account a join pms_meter m on m.id = a.meter_id
        where m.protocol = 'dlt698_45' and m.tenant_id = $1`,
      [DEMO_TENANT_ID],
    );
    assert.equal(accounts[0]!.n, plan.meters.length, "each 698 meter has its owner's account");

    // The page's figures: the file the gateway reported, each row with its meter and whether it answered.
    const first = plan.meters[0]!;
    await new DbReadingsSink(server.db, "Asia/Shanghai").meterFile({
      collectorId: code,
      rows: [{ index: 1, pn: 1, address: first.address, protocol: 32, port: 31, baud: 9600 }],
      at: new Date("2026-03-01T08:00:00Z"),
    });
    const file = await get(server, token, `collector/overview?id=${collector.id}`);
    assert.equal(file.collector.collectorCode, code);
    assert.match(file.fileTime, /^2026-03-01 \d\d:00:00$/);
    assert.equal(file.file.length, 1);
    assert.equal(file.file[0].pn, 1);
    assert.equal(file.file[0].address, first.address);
    assert.equal(file.file[0].protocolName, "dlt698_45");
    assert.equal(file.file[0].port, 31);
    assert.ok(file.file[0].meterId, "the row names the registry's meter");
    assert.equal(file.file[0].answered, true, "its seeded past's last read came back");
    assert.ok(file.file[0].lastPollTime);
    // A poll the meter left silent is recorded naming every item missing: no longer answered.
    await server.db.query(
      "update pms_meter_current_data set missing = 'energy,status,power' where meter_id = $1",
      [file.file[0].meterId],
    );
    const silent = await get(server, token, `collector/overview?id=${collector.id}`);
    assert.equal(silent.file[0].answered, false);
    assert.equal(file.notFiled.length, plan.meters.length - 1, "the meters not on file yet");
  });

  test("every meter and account carries the alarm scheme of its own energy type", async () => {
    const [mixed] = await server.db.query<{ n: number; water: number }>(
      `select count(*) filter (where s.energy_type <> m.energy_type)::int as n,
              count(*) filter (where m.energy_type = 2)::int as water
         from (select alarm_scheme_id, 1 as energy_type from pms_meter where tenant_id = $1
               union all select alarm_scheme_id, 2 from pms_water where tenant_id = $1
               union all select alarm_scheme_id, energy_type from pms_account where tenant_id = $1) m
         join pms_alarm_scheme s on s.id = m.alarm_scheme_id`,
      [DEMO_TENANT_ID],
    );
    assert.ok(mixed!.water > 0, "the demo has water meters with an alarm scheme");
    assert.equal(mixed!.n, 0);
  });

  test("its schemes pass the same rules an operator's would", async () => {
    for (const path of ["chargingscheme", "alarmscheme"]) {
      for (const row of (await get(server, token, `${path}/list?size=10`)).records) {
        const res = await server.call("POST", `/api/blade-pms/${path}/submit`, token, row);
        assert.equal(res.statusCode, 200, `${path} ${row.schemeName}: ${res.body}`);
      }
    }
  });
});

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { cjt188 } from "@meterline/protocols";
import { formatDateTime } from "../src/contract/dates.ts";
import { FieldCipher } from "../src/crud/field-cipher.ts";
import { nextId } from "../src/db/ids.ts";
import { CtwingDouble } from "../src/modules/iot-platform/double/ctwing-double.ts";
import { IotdaDouble } from "../src/modules/iot-platform/double/iotda-double.ts";
import { OnenetDouble } from "../src/modules/iot-platform/double/onenet-double.ts";
import type { PlatformDouble, PushTransport } from "../src/modules/iot-platform/double/platform-double.ts";
import { SleepingWaterMeter } from "../src/modules/iot-platform/double/sleeping-meter.ts";
import {
  dispatchQueued,
  expireLapsed,
  type IotDeps,
} from "../src/modules/iot-platform/iot-platform.service.ts";
import { ctwingSignature } from "../src/modules/iot-platform/platform-signing.ts";
import { addRole, addUser, provisionTenant } from "./fixtures.ts";
import { startTestServer, type TestServer } from "./helpers.ts";
import { created } from "./registry-fixtures.ts";

const pms = "/api/blade-pms";
const HOUR = 3600_000;

interface CommandRow {
  id: string;
  state: string;
  platform_state: string | null;
  expires_at: Date | null;
  evidence: string | null;
}

/**
 * NB-IoT water meters through each operator platform's double, over the real push and command
 * protocols: a valve closed only when the sleeping meter next wakes, a lost callback settled by
 * the next report, forged pushes refused with nothing stored, retried pushes stored once.
 */
describe("NB-IoT meters through CTWing, OneNET and IoTDA", () => {
  let server: TestServer;
  let admin: string;
  let tenantId: string;
  let deps: IotDeps;

  const transport: PushTransport = async (push) =>
    (
      await server.inject({
        method: "POST",
        url: push.path,
        headers: { "content-type": "application/json", ...push.headers },
        payload: push.body,
      })
    ).statusCode;
  const pushCount = async () =>
    (await server.db.query<{ n: number }>("select count(*)::int as n from pms_iot_push"))[0]!.n;
  const readCount = async (meterId: string) =>
    (
      await server.db.query<{ n: number }>(
        "select count(*)::int as n from pms_water_data_read where meter_id = $1",
        [meterId],
      )
    )[0]!.n;
  const commandsOf = (meterId: string) =>
    server.db.query<CommandRow>(
      `select id::text as id, state, platform_state, expires_at, evidence from pms_meter_command
        where meter_id = $1 order by id`,
      [meterId],
    );
  const valveStatus = async (meterId: string) =>
    (
      await server.db.query<{ s: number }>("select switch_status as s from pms_water where id = $1", [
        meterId,
      ])
    )[0]!.s;
  const switchValve = async (meterId: string, open: boolean) => {
    const res = await server.call("POST", `${pms}/message/waterSwitch`, admin, {
      meterIds: [meterId],
      type: open ? "1" : "2",
    });
    assert.equal(res.statusCode, 200, res.body);
    return res.json().data as { queued: number; skipped: { reason: string }[] };
  };

  before(async () => {
    server = await startTestServer();
    const login = await server.login();
    admin = login.access_token;
    tenantId = login.tenant_id;
    deps = {
      db: server.db,
      cipher: new FieldCipher(server.dataKey),
      timeZone: "Asia/Shanghai",
      log: () => {},
    };
  });
  after(async () => server.close());

  /** Registers a water meter linked to `deviceId` on the platform, with the platform configured. */
  async function setUp(
    double: PlatformDouble,
    config: Record<string, string>,
    address: string,
    deviceId: string,
  ) {
    const url = await double.start();
    const saved = await server.call("POST", `${pms}/iot/platform/submit`, admin, { ...config, baseUrl: url });
    assert.equal(saved.statusCode, 200, saved.body);
    const meterId = await created(server, admin, "water/submit", { productCode: address });
    const linked = await server.call("POST", `${pms}/iot/device/submit`, admin, {
      energyType: "2",
      meterId,
      platform: double.platform,
      deviceId,
    });
    assert.equal(linked.statusCode, 200, linked.body);
    const meter = new SleepingWaterMeter(deviceId, address);
    double.addMeter(meter);
    return { meterId, meter };
  }

  const cases: {
    name: string;
    make: () => PlatformDouble;
    config: Record<string, string>;
    secrets: string[];
    forge: (push: { path: string; headers: Record<string, string>; body: string }) => typeof push;
  }[] = [
    {
      name: "CTWing",
      make: () =>
        new CtwingDouble(transport, {
          tenantId,
          appKey: "ctw-app-key",
          appSecret: "ctw-app-secret-9f3a",
          masterKey: "ctw-master-7c21",
          productId: "15012345",
        }),
      config: {
        platform: "ctwing",
        appId: "ctw-app-key",
        appSecret: "ctw-app-secret-9f3a",
        pushToken: "ctw-master-7c21",
        account: "15012345",
      },
      secrets: ["ctw-app-secret-9f3a", "ctw-master-7c21"],
      // The body changed after signing (another frame, another outcome): the signature no longer holds.
      forge: (push) => ({
        ...push,
        body: push.body.replace(/"(APPdata|resultCode)":"[^"]+"/, (_, name) =>
          name === "APPdata" ? '"APPdata":"aGVsbG8="' : '"resultCode":"FAILED"',
        ),
      }),
    },
    {
      name: "OneNET",
      make: () =>
        new OnenetDouble(transport, {
          tenantId,
          productId: "P8xY2k",
          accessKey: Buffer.from("onenet-access-key-0123456789").toString("base64"),
          pushToken: "onenet-push-token-55",
        }),
      config: {
        platform: "onenet",
        appId: "P8xY2k",
        appSecret: Buffer.from("onenet-access-key-0123456789").toString("base64"),
        pushToken: "onenet-push-token-55",
      },
      secrets: ["onenet-push-token-55"],
      // Signed with another token.
      forge: (push) => {
        const body = JSON.parse(push.body) as { msg: unknown; nonce: string };
        return { ...push, body: JSON.stringify({ ...body, msg_signature: "AAAAAAAAAAAAAAAAAAAAAA==" }) };
      },
    },
    {
      name: "IoTDA",
      make: () =>
        new IotdaDouble(transport, {
          tenantId,
          projectId: "0a1b2c3d4e5f",
          user: "meterline",
          domain: "site-ops",
          password: "iam-password-31",
          pushToken: "iotda-url-token-8k",
        }),
      config: {
        platform: "iotda",
        appId: "0a1b2c3d4e5f",
        appSecret: "iam-password-31",
        pushToken: "iotda-url-token-8k",
        account: "meterline@site-ops",
      },
      secrets: ["iam-password-31", "iotda-url-token-8k"],
      forge: (push) => ({ ...push, path: push.path.replace(/token=[^&]+/, "token=guessed") }),
    },
  ];

  cases.forEach((platform, index) => {
    test(`${platform.name}: the valve closes at the next wake, a lost callback is settled by the next report`, async () => {
      const double = platform.make();
      const config = platform.config;
      const address = `2023000000000${index + 1}`;
      const deviceId = `86${index}000000000${index + 1}`;
      try {
        const started = await setUp(double, config, address, deviceId);
        // Saved again as the console sends it back, secrets masked: the stored ones stay (the
        // commands below still authenticate). IoTDA's IAM answers on the double's own address.
        const resaved = await server.call("POST", `${pms}/iot/platform/submit`, admin, {
          ...config,
          baseUrl: double.url,
          ...(config.platform === "iotda" ? { authUrl: double.url } : {}),
          appSecret: "****",
          pushToken: "****",
        });
        assert.equal(resaved.statusCode, 200, resaved.body);
        const { meterId, meter } = started;
        // The meter wakes every two hours (the last wakes lie in the past: readings are history).
        const wakes = [8, 6, 4, 2].map(
          (hours) => new Date(Math.floor(Date.now() / 1000) * 1000 - hours * HOUR),
        );

        // Read back masked: no secret leaves the server.
        const detail = await server.call(
          "GET",
          `${pms}/iot/platform/detail?platform=${config.platform}`,
          admin,
        );
        assert.equal(detail.statusCode, 200, detail.body);
        for (const secret of platform.secrets) assert.ok(!detail.body.includes(secret), `${secret} shown`);
        const stored = await server.db.query<{ app_secret: string }>(
          "select app_secret from pms_iot_platform where platform = $1",
          [config.platform],
        );
        assert.ok(!stored[0]!.app_secret.includes(config.appSecret!), "secret stored in the clear");

        // The first wake: the report goes through the readings sink.
        await double.wake(deviceId, wakes[0]);
        assert.equal(double.pushes.at(-1)?.status, 200);
        const [current] = await server.db.query<{ total_value: string; switch_status: number }>(
          "select total_value::text as total_value, switch_status from pms_meter_current_data where meter_id = $1",
          [meterId],
        );
        assert.equal(Number(current?.total_value), 12.5);
        assert.equal(current?.switch_status, 0);

        // Close the valve: the command waits at the platform while the meter sleeps.
        assert.equal((await switchValve(meterId, false)).queued, 1);
        assert.ok((await dispatchQueued(deps)) >= 0);
        let [command] = await commandsOf(meterId);
        assert.equal(command?.state, "sent");
        assert.equal(command?.platform_state, "queued");
        const hoursLeft = (command!.expires_at!.getTime() - Date.now()) / HOUR;
        assert.ok(hoursLeft > 47 && hoursLeft <= 48, `expiry ${hoursLeft} h`);
        assert.equal(double.commands.length, 1);
        // No second supply command while one waits (the arrears rules use the same queue).
        const again = await switchValve(meterId, false);
        assert.equal(again.queued, 0);
        assert.equal(again.skipped[0]?.reason, "仍有未完成的通断命令");
        assert.equal((await commandsOf(meterId)).length, 1);
        assert.equal(meter.valve, "open");
        assert.equal(await valveStatus(meterId), 0);

        // The meter wakes: report, then the command delivered and executed.
        meter.draw(37);
        await double.wake(deviceId, wakes[1]);
        assert.equal(meter.valve, "closed");
        [command] = await commandsOf(meterId);
        assert.equal(command?.state, "success");
        assert.equal(command?.platform_state, "executed");
        assert.equal(await valveStatus(meterId), 1);
        assert.ok(double.pushes.every((p) => p.status === 200));

        // A retried push is stored once and changes nothing.
        const pushesBefore = await pushCount();
        const readsBefore = await readCount(meterId);
        assert.equal(await double.repeatLastPush(), 200);
        const reportPush = double.pushes.find((p) => /APPdata|"type":1|device\.message/.test(p.body))!;
        assert.equal(await transport(reportPush), 200);
        assert.equal(await pushCount(), pushesBefore);
        assert.equal(await readCount(meterId), readsBefore);

        // A forged push is refused and nothing of it stored.
        const forged = platform.forge(double.pushes.at(-1)!);
        assert.equal(await transport(forged), 401);
        const forgedReport = platform.forge(reportPush);
        assert.equal(
          await transport({ ...forgedReport, body: forgedReport.body.replace(/12\.87|1287/, "9999") }),
          401,
        );
        assert.equal(await pushCount(), pushesBefore);
        assert.equal(await readCount(meterId), readsBefore);

        // Open it again, and lose every callback on the way back.
        assert.equal((await switchValve(meterId, true)).queued, 1);
        await dispatchQueued(deps);
        double.loseCallbacks = true;
        await double.wake(deviceId, wakes[2]);
        assert.equal(meter.valve, "open");
        let reopen = (await commandsOf(meterId))[1];
        // The wake's report was taken before the command: the valve still read closed.
        assert.equal(reopen?.state, "sent");
        // While it waits, the console shows when the meter should wake next: two hours after this wake.
        const waiting = await server.call("GET", `${pms}/iot/commands?meterId=${meterId}`, admin);
        const [latest] = waiting.json().data as { state: string; expectedWake: string }[];
        assert.equal(latest?.state, "sent");
        assert.equal(new Date(latest!.expectedWake).getTime(), wakes[2]!.getTime() + 2 * HOUR);
        // So do the command log and the meter's page, in the tenant's time.
        const shown = formatDateTime(new Date(wakes[2]!.getTime() + 2 * HOUR), "Asia/Shanghai");
        const log = await server.call("GET", `${pms}/metercommand/list?meterId=${meterId}&size=10`, admin);
        const [logged] = log.json().data.records as { platformState: string; expectedWake: string }[];
        assert.deepEqual([logged?.platformState, logged?.expectedWake], ["queued", shown]);
        const page = await server.call("GET", `${pms}/water/overview?id=${meterId}`, admin);
        assert.equal(page.statusCode, 200, page.body);
        const [recent] = page.json().data.commands as { platformState: string; expectedWake: string }[];
        assert.deepEqual([recent?.platformState, recent?.expectedWake], ["queued", shown]);
        await double.wake(deviceId, wakes[3]);
        reopen = (await commandsOf(meterId))[1];
        assert.equal(reopen?.state, "success");
        assert.equal(reopen?.platform_state, "executed");
        assert.match(reopen?.evidence ?? "", /read back/);
        assert.equal(await valveStatus(meterId), 0);

        // The console's list: states and, while one waits, the meter's expected wake.
        const list = await server.call("GET", `${pms}/iot/commands?meterId=${meterId}`, admin);
        assert.equal(list.statusCode, 200, list.body);
        const rows = list.json().data as { state: string; platformState: string }[];
        assert.deepEqual(
          rows.map((r) => [r.state, r.platformState]),
          [
            ["success", "executed"],
            ["success", "executed"],
          ],
        );
      } finally {
        await double.stop();
      }
    });
  });

  test("a command the meter never woke for expires after the tenant's hours, and frees the valve for the next", async () => {
    const param = await server.call("POST", "/api/blade-system/param/submit", admin, {
      paramName: "NB-IoT 命令有效期(小时)",
      paramKey: "iot.commandExpiryHours",
      paramValue: "6",
    });
    assert.equal(param.statusCode, 200, param.body);
    const double = cases[0]!.make();
    try {
      const { meterId, meter } = await setUp(double, cases[0]!.config, "20230000000099", "869000000000099");
      assert.equal((await switchValve(meterId, false)).queued, 1);
      await dispatchQueued(deps);
      const [held] = await commandsOf(meterId);
      const hoursLeft = (held!.expires_at!.getTime() - Date.now()) / HOUR;
      assert.ok(hoursLeft > 5.9 && hoursLeft <= 6, `expiry ${hoursLeft} h`);
      // Nothing lapses before its time; after it, the command fails as expired.
      assert.equal(await expireLapsed(deps, new Date(Date.now() + 5 * HOUR)), 0);
      const later = new Date(Date.now() + 7 * HOUR);
      assert.equal(await expireLapsed(deps, later), 1);
      const [expired] = await commandsOf(meterId);
      assert.deepEqual([expired?.state, expired?.platform_state], ["fail", "expired"]);
      assert.match(expired?.evidence ?? "", /expired/);
      // The platform expires it too when the meter finally wakes: its late "expired" changes nothing,
      // the valve stays open, and may be commanded again.
      await double.wake("869000000000099", later);
      assert.equal(meter.valve, "open");
      assert.equal(double.pushes.at(-1)?.status, 200);
      assert.match(double.pushes.at(-1)?.body ?? "", /EXPIRED/);
      const [after] = await commandsOf(meterId);
      assert.deepEqual([after?.state, after?.platform_state], ["fail", "expired"]);
      assert.equal((await switchValve(meterId, false)).queued, 1);
    } finally {
      await double.stop();
      await server.db.query("delete from sys_param where param_key = 'iot.commandExpiryHours'");
    }
  });

  test("arrears close an NB-IoT valve through the platform at the next wake, and a recharge reopens it", async () => {
    const double = cases[1]!.make();
    try {
      const { meterId, meter } = await setUp(double, cases[1]!.config, "20230000000077", "869000000000077");
      const price = await created(server, admin, "chargingscheme/submit", {
        schemeName: "NB 水价",
        energyType: 2,
        priceMode: 1,
        price: "3.5000",
      });
      // No protection window: the cut goes at once, whatever the day.
      const alarm = await created(server, admin, "alarmscheme/submit", {
        schemeName: "NB 告警",
        energyType: 2,
        firstAlarm: "3",
        secondAlarm: "1",
        arrearsLimit: "0",
        tripOnArrears: 1,
      });
      const area = await created(server, admin, "area/save", { areaName: "NB 园区", areaType: 1 });
      const room = await created(server, admin, "room/save", { areaId: area, roomName: "101" });
      const owner = await created(server, admin, "owner/submit", { ownerName: "钱七", ownerCode: "NB7" });
      await created(server, admin, "ownerroom/submit", { ownerId: owner, roomId: room });
      await created(server, admin, "water/submit", {
        id: meterId,
        productCode: "20230000000077",
        chargingSchemeId: price,
        alarmSchemeId: alarm,
      });
      await created(server, admin, "roommeter/submit", { roomId: room, energyType: 2, meterId });
      const t0 = Date.now() - 6 * HOUR;
      await double.wake("869000000000077", new Date(t0));
      const opened = await server.call("POST", `${pms}/waterparam/openAccount`, admin, {
        meterId,
        deposit: "5",
      });
      assert.equal(opened.statusCode, 200, opened.body);

      // 2 m³ at 3.50: 7 yuan against 5, in arrears: the cut is queued and waits at the platform.
      meter.draw(200);
      await double.wake("869000000000077", new Date(t0 + 2 * HOUR));
      await dispatchQueued(deps);
      const [cut] = await commandsOf(meterId);
      assert.deepEqual([cut?.state, cut?.platform_state], ["sent", "queued"]);
      assert.equal(meter.valve, "open");
      // A recharge while the cut waits queues no second supply command: the restore waits its turn.
      const early = await server.call("POST", `${pms}/datarecharge/submit`, admin, {
        meterId,
        energyType: 2,
        amount: "1",
        paymentMethod: 1,
        idempotencyKey: "nb-iot-early-1",
      });
      assert.equal(early.statusCode, 200, early.body);
      assert.equal((await commandsOf(meterId)).length, 1);

      await double.wake("869000000000077", new Date(t0 + 4 * HOUR));
      assert.equal(meter.valve, "closed");
      assert.deepEqual(
        (await commandsOf(meterId)).map((c) => [c.state, c.platform_state]),
        [["success", "executed"]],
      );

      // Paid: balance back above the line, the restore goes through the same queue.
      const paid = await server.call("POST", `${pms}/datarecharge/submit`, admin, {
        meterId,
        energyType: 2,
        amount: "20",
        paymentMethod: 1,
        idempotencyKey: "nb-iot-paid-1",
      });
      assert.equal(paid.statusCode, 200, paid.body);
      const [restore] = (await commandsOf(meterId)).slice(1);
      assert.equal(restore?.state, "queued");
      await dispatchQueued(deps);
      await double.wake("869000000000077", new Date(t0 + 5 * HOUR));
      assert.equal(meter.valve, "open");
      const rows = await server.db.query<{ state: string; source: string }>(
        "select state, source from pms_meter_command where meter_id = $1 order by id",
        [meterId],
      );
      assert.deepEqual(
        rows.map((r) => [r.source, r.state]),
        [
          ["arrears/cut", "success"],
          ["arrears/restore", "success"],
        ],
      );
      assert.equal(await valveStatus(meterId), 0);
    } finally {
      await double.stop();
    }
  });

  test("a profile's JSON service data is a report too; a frame of another meter is not", async () => {
    const double = cases[0]!.make();
    try {
      const { meterId } = await setUp(double, cases[0]!.config, "20230000000055", "869000000000055");
      const push = (payload: Record<string, unknown>) => {
        const body = JSON.stringify({
          messageType: "dataReport",
          deviceId: "869000000000055",
          timestamp: Date.now() - HOUR,
          payload,
        });
        const timestamp = String(Date.now());
        return transport({
          path: `${pms}/iot/push/ctwing/${tenantId}`,
          headers: {
            application: "ctw-app-key",
            timestamp,
            signature: ctwingSignature({
              application: "ctw-app-key",
              timestamp,
              secret: "ctw-app-secret-9f3a",
              body,
            }),
          },
          body,
        });
      };
      assert.equal(await push({ totalFlow: 56.78, valveStatus: 1, batteryLow: 0 }), 200);
      const current = async () =>
        (
          await server.db.query<{ total_value: string; switch_status: number }>(
            "select total_value::text as total_value, switch_status from pms_meter_current_data where meter_id = $1",
            [meterId],
          )
        )[0];
      assert.deepEqual(await current(), { total_value: "56.78", switch_status: 1 });
      // Another meter's 901F frame through this device changes nothing here.
      const foreign = cjt188.buildReadDataReply("20239999999999", {
        currentTotal: "99.00",
        settlementDayTotal: "99.00",
        time: null,
        status: { valve: "open" },
      });
      assert.equal(await push({ APPdata: Buffer.from(foreign).toString("base64") }), 200);
      assert.deepEqual(await current(), { total_value: "56.78", switch_status: 1 });
    } finally {
      await double.stop();
    }
  });

  test("OneNET's URL verification answers msg only to its own signature", async () => {
    const double = new OnenetDouble(transport, {
      tenantId,
      productId: "P8xY2k",
      accessKey: Buffer.from("onenet-access-key-0123456789").toString("base64"),
      pushToken: "onenet-push-token-55",
    });
    const query = double.handshakeQuery("b5c3e0a1");
    const good = await server.inject({ method: "GET", url: `${pms}/iot/push/onenet/${tenantId}?${query}` });
    assert.equal(good.statusCode, 200, good.body);
    assert.equal(good.body, "b5c3e0a1");
    const bad = await server.inject({
      method: "GET",
      url: `${pms}/iot/push/onenet/${tenantId}?${query.replace("b5c3e0a1", "b5c3e0a2")}`,
    });
    assert.equal(bad.statusCode, 401);
  });

  test("pushes: an unknown tenant's, an oversized body and a missing signature are refused", async () => {
    const unsigned = await server.inject({
      method: "POST",
      url: `${pms}/iot/push/ctwing/${tenantId}`,
      headers: { "content-type": "application/json" },
      payload: "{}",
    });
    assert.equal(unsigned.statusCode, 401);
    const unconfigured = await server.inject({
      method: "POST",
      url: `${pms}/iot/push/ctwing/999999`,
      headers: { "content-type": "application/json" },
      payload: "{}",
    });
    assert.equal(unconfigured.statusCode, 403);
    const big = await server.inject({
      method: "POST",
      url: `${pms}/iot/push/onenet/${tenantId}`,
      headers: { "content-type": "application/json" },
      payload: `{"msg":"${"x".repeat(40 * 1024)}"}`,
    });
    assert.equal(big.statusCode, 413);
  });

  test("another tenant sees no configuration of ours, links none of our meters, reads none of our commands", async () => {
    const other = await provisionTenant(server, admin, "别家物业");
    const detail = await server.call("GET", `${pms}/iot/platform/detail?platform=ctwing`, other.token);
    assert.equal(detail.statusCode, 200, detail.body);
    // Its administrator may read its own (none yet), never ours.
    assert.equal(detail.json().data.appId, undefined);
    assert.ok(!detail.body.includes("ctw-app-key"));
    const [ours] = await server.db.query<{ meter_id: string }>(
      "select meter_id::text as meter_id from pms_iot_device where tenant_id = $1 limit 1",
      [tenantId],
    );
    const link = await server.call("POST", `${pms}/iot/device/submit`, other.token, {
      energyType: "2",
      meterId: ours!.meter_id,
      platform: "ctwing",
      deviceId: "869999999999999",
    });
    assert.equal(link.statusCode, 400);
    assert.match(link.body, /meterId/);
    const read = await server.call(
      "GET",
      `${pms}/iot/device/detail?energyType=2&meterId=${ours!.meter_id}`,
      other.token,
    );
    assert.equal(read.statusCode, 400);
    assert.match(read.body, /meterId/);
    const commands = await server.call("GET", `${pms}/iot/commands?meterId=${ours!.meter_id}`, other.token);
    assert.equal(commands.statusCode, 200, commands.body);
    assert.deepEqual(commands.json().data, []);
  });

  test("a meter's link is read back as saved, replaced by a new one, and empty for a meter without one", async () => {
    const meterId = await created(server, admin, "water/submit", { productCode: "20239900000077" });
    const read = async () => {
      const res = await server.call("GET", `${pms}/iot/device/detail?energyType=2&meterId=${meterId}`, admin);
      assert.equal(res.statusCode, 200, res.body);
      return res.json().data as Record<string, unknown>;
    };
    // No link: the contract's empty data.
    assert.deepEqual(await read(), {});
    const link = (platform: string, deviceId: string) =>
      server.call("POST", `${pms}/iot/device/submit`, admin, {
        energyType: "2",
        meterId,
        platform,
        deviceId,
      });
    assert.equal((await link("onenet", "861234567890077")).statusCode, 200);
    assert.deepEqual(await read(), {
      platform: "onenet",
      deviceId: "861234567890077",
      lastReportTime: null,
      reportIntervalSeconds: null,
      nextReportTime: null,
    });
    // Saved again unchanged, the link keeps the meter's report history (its expected wake).
    await server.db.query(
      "update pms_iot_device set last_report_time = now(), report_interval_seconds = 3600 where meter_id = $1",
      [meterId],
    );
    assert.equal((await link("onenet", "861234567890077")).statusCode, 200);
    const kept = await read();
    assert.equal(kept.reportIntervalSeconds, 3600);
    // Written as every time of the console (the site's wall clock), the next report an hour on.
    const stamp = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
    assert.match(String(kept.lastReportTime), stamp);
    assert.match(String(kept.nextReportTime), stamp);
    const asDate = (text: unknown) => Date.parse(`${String(text).replace(" ", "T")}Z`);
    assert.equal(asDate(kept.nextReportTime) - asDate(kept.lastReportTime), 3_600_000);
    // Another device starts afresh.
    assert.equal((await link("iotda", "iotda-dev-77")).statusCode, 200);
    assert.equal((await read())?.reportIntervalSeconds, null);
    assert.equal((await read())?.lastReportTime, null);
    assert.equal((await read())?.deviceId, "iotda-dev-77");
    assert.equal((await read())?.platform, "iotda");
    // The electric meters' table holds no such meter: the kind is part of the meter's identity.
    const electric = await server.call(
      "GET",
      `${pms}/iot/device/detail?energyType=1&meterId=${meterId}`,
      admin,
    );
    assert.equal(electric.statusCode, 400);
    assert.match(electric.body, /meterId/);
    const kind = await server.call("GET", `${pms}/iot/device/detail?energyType=3&meterId=${meterId}`, admin);
    assert.equal(kind.statusCode, 400);
    assert.match(kind.body, /energyType/);
  });

  test("who may link: water_switch links a water meter, not an electric one, and reads no platform secrets", async () => {
    const role = await addRole(server.db, tenantId, `r${nextId()}`);
    await server.db.query(
      `insert into sys_role_menu (id, menu_id, role_id)
       select (select max(id) from sys_role_menu) + row_number() over () + 100000, m.id, $1
         from sys_menu m where m.code = 'water_switch' and m.is_deleted = 0`,
      [role],
    );
    const account = `u${nextId()}`;
    await addUser(server.db, { tenantId, account, password: "pw-test", roleIds: [role] });
    const valveman = (await server.login(account, "pw-test", tenantId)).access_token;
    const meterId = await created(server, admin, "water/submit", { productCode: "20239900000078" });
    const linked = await server.call("POST", `${pms}/iot/device/submit`, valveman, {
      energyType: "2",
      meterId,
      platform: "ctwing",
      deviceId: "861234567890078",
    });
    assert.equal(linked.statusCode, 200, linked.body);
    const read = await server.call(
      "GET",
      `${pms}/iot/device/detail?energyType=2&meterId=${meterId}`,
      valveman,
    );
    assert.equal(read.json().data.deviceId, "861234567890078");
    const electric = await server.call("POST", `${pms}/iot/device/submit`, valveman, {
      energyType: "1",
      meterId,
      platform: "ctwing",
      deviceId: "861234567890079",
    });
    assert.equal(electric.statusCode, 403);
    const secrets = await server.call("GET", `${pms}/iot/platform/detail?platform=ctwing`, valveman);
    assert.equal(secrets.statusCode, 403);
  });

  test("configuration and links: bad input named in a 400", async () => {
    const platform = await server.call("POST", `${pms}/iot/platform/submit`, admin, { platform: "lora" });
    assert.equal(platform.statusCode, 400);
    assert.match(platform.body, /platform/);
    const device = await server.call("POST", `${pms}/iot/device/submit`, admin, {
      energyType: "2",
      meterId: "123",
      platform: "ctwing",
      deviceId: "x",
    });
    assert.equal(device.statusCode, 400);
    assert.match(device.body, /meterId/);
  });
});

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { addRole, addUser, provisionTenant } from "./fixtures.ts";
import { created, useRegistrySuite } from "./registry-fixtures.ts";

interface Outcome {
  batchId: string | null;
  queued: number;
  skipped: { meterId: string; productCode: string; reason: string }[];
}

describe("remote switching: relays and valves become queued commands, one per meter", () => {
  const suite = useRegistrySuite();
  const commands = (meterId: string) =>
    suite.server.db.query<{ command_type: string; payload: string; state: string; batch_id: string }>(
      "select command_type, payload, state, batch_id::text as batch_id from pms_meter_command where meter_id = $1 order by create_time",
      [meterId],
    );
  const progress = async (batchId: string) =>
    (
      await suite.server.call("GET", `/api/blade-pms/message/batchProgress?batchId=${batchId}`, suite.admin)
    ).json().data;

  test("a cut is queued once; a second while it is unsettled is skipped with the reason", async () => {
    const { meter } = suite.site;
    const first = await suite.post("message/switchBatch", { meterIds: [meter], switchType: 2 });
    assert.equal(first.statusCode, 200, first.body);
    const outcome = first.json().data as Outcome;
    assert.equal(outcome.queued, 1);
    assert.match(first.json().msg, /已下发 1 条拉闸命令/);
    const [queued] = await commands(meter);
    assert.deepEqual(
      [queued?.command_type, JSON.parse(queued?.payload ?? "{}"), queued?.state],
      ["switch", { switchType: 2 }, "queued"],
    );
    assert.deepEqual(await progress(outcome.batchId!), {
      total: 1,
      queued: 1,
      sent: 0,
      success: 0,
      fail: 0,
      timeout: 0,
      done: false,
    });

    // The relay is not touched twice while the first command is open.
    const again = await suite.post("message/switch", { meterId: meter, switchType: 1 });
    assert.deepEqual(again.json().data, {
      batchId: null,
      queued: 0,
      skipped: [{ meterId: meter, productCode: "100000000101", reason: "仍有未完成的通断命令" }],
    });
    assert.match(again.json().msg, /1 块表未下发/);
    assert.equal((await commands(meter)).length, 1);

    // Once the gateway settles it, the batch is done and the meter may be switched again.
    await suite.server.db.query(
      "update pms_meter_command set state = 'success', result = 1 where batch_id = $1",
      [outcome.batchId],
    );
    const settled = await progress(outcome.batchId!);
    assert.deepEqual([settled.success, settled.done], [1, true]);
    const close = await suite.post("message/switch", { meterId: meter, switchType: 1 });
    assert.equal((close.json().data as Outcome).queued, 1);
    assert.match(close.json().msg, /合闸/);
  });

  test("valves: type 1 opens, 2 closes; a meter no collector reaches is skipped", async () => {
    const { water, collector } = suite.site;
    const closed = await suite.post("message/waterSwitchBatch", { meterIds: water, type: 2 });
    assert.equal((closed.json().data as Outcome).queued, 1, closed.body);
    const [valve] = await commands(water);
    assert.deepEqual([valve?.command_type, JSON.parse(valve?.payload ?? "{}")], ["valve", { open: false }]);

    const loose = await created(suite.server, suite.admin, "water/submit", { productCode: "10000000000999" });
    const reached = await created(suite.server, suite.admin, "water/submit", {
      productCode: "10000000000998",
      collectorId: collector,
    });
    const both = await suite.post("message/waterSwitch", { meterIds: `${loose},${reached}`, type: 1 });
    const outcome = both.json().data as Outcome;
    assert.equal(outcome.queued, 1);
    assert.deepEqual(outcome.skipped, [
      { meterId: loose, productCode: "10000000000999", reason: "未绑定采集器" },
    ]);
    assert.deepEqual(JSON.parse((await commands(reached))[0]?.payload ?? "{}"), { open: true });
  });

  test("a metering-only meter (METER_TYPE 3) has no relay: it is left out with the reason", async () => {
    const { collector } = suite.site;
    const plain = await created(suite.server, suite.admin, "meter/submit", {
      productCode: "100000000777",
      collectorId: collector,
      meterType: 3,
    });
    const relayed = await created(suite.server, suite.admin, "meter/submit", {
      productCode: "100000000778",
      collectorId: collector,
      meterType: 2,
    });
    const both = await suite.post("message/switchBatch", { meterIds: [plain, relayed], switchType: 2 });
    const outcome = both.json().data as Outcome;
    assert.equal(outcome.queued, 1, both.body);
    assert.deepEqual(outcome.skipped, [
      { meterId: plain, productCode: "100000000777", reason: "计量表没有继电器,不能通断" },
    ]);
    assert.equal((await commands(plain)).length, 0);
    assert.equal((await commands(relayed)).length, 1);
  });

  test("operators switching the same meters at once queue one command per meter between them", async () => {
    // Batches big enough that, unguarded, both would pass the open-command check before either wrote.
    const meters: string[] = [];
    for (let start = 0; start < 200; start += 20) {
      meters.push(
        ...(await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            created(suite.server, suite.admin, "meter/save", {
              productCode: `1000000${String(5000 + start + i).padStart(5, "0")}`,
              collectorId: suite.site.collector,
            }),
          ),
        )),
      );
    }
    const answers = await Promise.all(
      [2, 2, 1].map((switchType) => suite.post("message/switchBatch", { meterIds: meters, switchType })),
    );
    const queued = answers.map((a) => (a.json().data as Outcome).queued).sort((a, b) => a - b);
    assert.deepEqual(queued, [0, 0, 200], answers.map((a) => a.json().msg).join(" / "));
    const [count] = await suite.server.db.query<{ n: number }>(
      "select count(*)::int as n from pms_meter_command where meter_id = any($1::bigint[])",
      [meters],
    );
    assert.equal(count?.n, 200);
  });

  test("bad input names the field; other tenants' meters read as absent", async () => {
    const { meter } = suite.site;
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ["message/switchBatch", { meterIds: [meter], switchType: 4 }, /^switchType: /],
      ["message/switchBatch", { meterIds: [], switchType: 2 }, /meterIds/],
      ["message/switchBatch", { meterIds: "abc", switchType: 2 }, /meterIds/],
      ["message/switch", { switchType: 2 }, /^meterId: /],
      ["message/waterSwitch", { meterIds: suite.site.water, type: 3 }, /^type: /],
      [
        "message/switchBatch",
        // One batch job holds at most 10,000 meters.
        { meterIds: Array.from({ length: 10_001 }, (_, i) => String(i + 1)), switchType: 2 },
        /^meterIds: 一次最多 10000/,
      ],
    ];
    for (const [path, body, message] of cases) {
      const res = await suite.post(path, body);
      assert.equal(res.statusCode, 400, `${path} ${JSON.stringify(body).slice(0, 60)}: ${res.body}`);
      assert.match(res.json().msg, message);
    }
    const other = await provisionTenant(suite.server, suite.admin, "别家物业");
    // Their administrator holds the switch button (new tenants get the registry menus and below).
    // In a batch another tenant's meter is named as absent and left out; nothing is queued for it.
    const absent = await suite.post("message/switchBatch", { meterIds: [meter], switchType: 2 }, other.token);
    assert.equal(absent.statusCode, 200, absent.body);
    assert.equal(absent.json().data.queued, 0);
    assert.deepEqual(absent.json().data.skipped, [{ meterId: meter, productCode: "", reason: "表计不存在" }]);
    // One meter alone is refused.
    const alone = await suite.post("message/switch", { meterId: meter, switchType: 2 }, other.token);
    assert.equal(alone.statusCode, 400, alone.body);
    assert.match(alone.json().msg, /^meterId(s)?: 表计不存在/);
  });

  test("switching needs its button", async () => {
    const role = await addRole(suite.server.db, "000000", "no-switch");
    await addUser(suite.server.db, {
      tenantId: "000000",
      account: "no-switch",
      password: "pw-ns",
      roleIds: [role],
    });
    const token = (await suite.server.login("no-switch", "pw-ns")).access_token;
    for (const path of ["message/switch", "message/switchBatch", "message/waterSwitch"]) {
      assert.equal((await suite.post(path, {}, token)).statusCode, 403, path);
    }
  });
});

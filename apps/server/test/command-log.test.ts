import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { useRegistrySuite } from "./registry-fixtures.ts";

interface LoggedCommand {
  id: string;
  batchId: string;
  commandType: string;
  actionName: string;
  actionNameEn: string;
  operatorName: string;
  sourceName: string;
  sourceNameEn: string;
  whyName: string;
  whyNameEn: string;
  reasonName: string;
  reasonNameEn: string;
}

describe("the command log in words", () => {
  const suite = useRegistrySuite();
  const log = async (meterId: string) => {
    const answer = await suite.server.call(
      "GET",
      `/api/blade-pms/metercommand/list?meterId=${meterId}&size=10`,
      suite.admin,
    );
    assert.equal(answer.statusCode, 200, answer.body);
    return answer.json().data.records as LoggedCommand[];
  };

  test("an off and an on command list as 拉闸 and 合闸, with the operator, the screen and the reason", async () => {
    const { meter } = suite.site;
    const off = await suite.post("message/switch", { meterId: meter, switchType: 2 });
    assert.equal(off.json().data.queued, 1, off.body);
    // The gateway settles the cut with its evidence (an English sentence with a read-back fact).
    await suite.server.db.query(
      `update pms_meter_command set state = 'success', result = 1, evidence = $2 where batch_id = $1`,
      [
        off.json().data.batchId,
        JSON.stringify({ detail: "acknowledged and verified (relay command open, relay open)" }),
      ],
    );
    const on = await suite.post("message/switchBatch", { meterIds: [meter], switchType: 1 });
    assert.equal(on.json().data.queued, 1, on.body);
    // A cut the server queues by itself (arrears) has no operator.
    await suite.server.db.query(
      "update pms_meter_command set create_user = null, source = 'arrears/cut' where batch_id = $1",
      [on.json().data.batchId],
    );

    const listed = await log(meter);
    const cut = listed.find((row) => row.batchId === off.json().data.batchId);
    const restored = listed.find((row) => row.batchId === on.json().data.batchId);
    assert.deepEqual(
      [cut?.commandType, cut?.actionName, cut?.actionNameEn, cut?.operatorName, cut?.sourceName],
      ["switch", "拉闸", "Cut supply", "管理员", "电表管理"],
    );
    assert.equal(cut?.reasonName, "表计已确认，回读核实（命令位断开，继电器断开）");
    assert.equal(
      cut?.reasonNameEn,
      "The meter acknowledged; read-back confirms it (relay command open, relay open)",
    );
    assert.deepEqual(
      [restored?.actionName, restored?.operatorName, restored?.sourceName, restored?.reasonName],
      ["合闸", "", "欠费自动断电", ""],
    );
  });

  test("each command says why it was sent: by hand, for arrears, restored by a recharge, or by the system", async () => {
    const { meter } = suite.site;
    await suite.server.db.query(
      "update pms_meter_command set state = 'success', result = 1 where meter_id = $1",
      [meter],
    );
    const sent = await suite.post("message/switch", { meterId: meter, switchType: 2 });
    assert.equal(sent.json().data.queued, 1, sent.body);
    const batch = sent.json().data.batchId as string;
    const why = async () => {
      const row = (await log(meter)).find((r) => r.batchId === batch);
      return [row?.actionName, row?.whyName, row?.actionNameEn, row?.whyNameEn];
    };
    assert.deepEqual(await why(), ["拉闸", "手动", "Cut supply", "Manual"]);
    await suite.server.db.query(
      "update pms_meter_command set payload = '{\"switchType\":1}', source = 'arrears/restore', create_user = null where batch_id = $1",
      [batch],
    );
    assert.deepEqual(await why(), ["合闸", "充值恢复", "Restore supply", "Restored by recharge"]);
    await suite.server.db.query("update pms_meter_command set source = null where batch_id = $1", [batch]);
    assert.deepEqual(await why(), ["合闸", "系统", "Restore supply", "System"]);

    // The room and meter pages list the same words.
    const overview = await suite.server.call("GET", `/api/blade-pms/meter/overview?id=${meter}`, suite.admin);
    assert.equal(overview.statusCode, 200, overview.body);
    const listed = (
      overview.json().data.commands as { id: string; actionName: string; whyName: string }[]
    ).find((c) => c.actionName === "合闸" && c.whyName === "系统");
    assert.ok(listed, "the meter page lists the restore with its reason");
  });

  test("valves list as 开阀 and 关阀", async () => {
    const { water } = suite.site;
    const closed = await suite.post("message/waterSwitchBatch", { meterIds: water, type: 2 });
    assert.equal(closed.json().data.queued, 1, closed.body);
    const [valve] = await log(water);
    assert.deepEqual(
      [valve?.actionName, valve?.sourceName, valve?.sourceNameEn],
      ["关阀", "水表管理（批量）", "Water meters (batch)"],
    );
  });
});

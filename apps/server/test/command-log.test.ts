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

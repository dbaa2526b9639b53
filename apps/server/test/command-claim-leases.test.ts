import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { DbCommandSource } from "../src/modules/metering/command-source.db.ts";
import { useRegistrySuite } from "./registry-fixtures.ts";

describe("claims of a gateway that lost its collector's lease are adopted at once", () => {
  const suite = useRegistrySuite();
  const source = () => new DbCommandSource(suite.server.db);
  const collectorCode = async () =>
    (
      await suite.server.db.query<{ code: string }>(
        "select collector_code as code from pms_collector where id = $1",
        [suite.site.collector],
      )
    )[0]!.code;
  const claimBy = async (owner: string) =>
    (await source().claim({ owner, collectorIds: [await collectorCode()], limit: 10 })).map((c) => c.id);

  test("a command claimed by a gateway without the lease goes to the lease holder; with it, it stays", async () => {
    const queued = await suite.post("message/switch", { meterId: suite.site.meter, switchType: 2 });
    assert.equal(queued.statusCode, 200, queued.body);
    const code = await collectorCode();

    // Gateway A holds the lease and claims the command.
    await suite.server.db.query(
      "insert into gateway_lease (collector_id, owner, expires_at) values ($1, 'A', now() + interval '30 seconds')",
      [code],
    );
    const [commandId] = await claimBy("A");
    assert.ok(commandId, "A claims the queued command");
    assert.deepEqual(await claimBy("A"), [], "a claim is not handed out twice to its holder");
    assert.deepEqual(await claimBy("B"), [], "while A holds the lease, its claim stands");

    // A dies: its lease lapses (here: is gone) while its claim would still run for a minute.
    await suite.server.db.query("delete from gateway_lease where collector_id = $1", [code]);
    await suite.server.db.query(
      "insert into gateway_lease (collector_id, owner, expires_at) values ($1, 'B', now() + interval '30 seconds')",
      [code],
    );
    assert.deepEqual(await claimBy("B"), [commandId], "the new lease holder adopts the command at once");
    const [row] = await suite.server.db.query<{ claimed_by: string; state: string }>(
      "select claimed_by, state from pms_meter_command where id = $1",
      [commandId],
    );
    assert.deepEqual(row, { claimed_by: "B", state: "queued" });

    // Of two gateways that both think they hold it, only the first to record "sent" may send it.
    await source().update({
      commandId: commandId!,
      state: "sent",
      at: new Date(),
      evidence: { detail: "sent" },
    });
    await assert.rejects(
      source().update({ commandId: commandId!, state: "sent", at: new Date(), evidence: { detail: "sent" } }),
      /cannot become sent/,
    );
    await suite.server.db.query("delete from gateway_lease where collector_id = $1", [code]);
  });
});

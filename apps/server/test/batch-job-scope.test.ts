import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { provisionTenant } from "./fixtures.ts";
import { buildSite, created, get, useRegistrySuite } from "./registry-fixtures.ts";

/**
 * A role whose data scope narrows the meters it sees reads and acts on a batch job through that
 * scope: the meters outside it are not listed nor counted, a job without one of its meters reads
 * as absent, a cancel that would stop hidden meters is refused, a retry takes only its own.
 */
describe("batch jobs under a data scope", () => {
  const suite = useRegistrySuite();

  test("a scoped role sees, cancels and retries only the meters of a job it may see", async () => {
    const { server, admin } = suite;
    const other = await provisionTenant(server, admin, "任务范围租户");
    const theirs = await buildSite(server, other.token, "S");
    // A second meter of theirs, written by someone else: outside an "own meters" scope.
    const hiddenMeter = await created(server, other.token, "meter/save", {
      productCode: "900000000177",
      collectorId: theirs.collector,
      channel: 3,
    });
    await server.db.query("update pms_meter set create_user = 1 where id = $1", [hiddenMeter]);
    const call = (method: "GET" | "POST", path: string, body?: Record<string, unknown>) =>
      server.call(method, `/api/blade-pms/${path}`, other.token, body);
    const switchBatch = async (meterIds: string[], switchType: number) => {
      const res = await call("POST", "message/switchBatch", { meterIds, switchType });
      assert.equal(res.statusCode, 200, res.body);
      return res.json().data.jobId as string;
    };
    // Jobs made before the scope: two with both meters (the first failed whole on the wire, as no
    // gateway runs here; the second still running), and one of the hidden meter alone.
    const mixed = await switchBatch([theirs.meter, hiddenMeter], 2);
    await server.db.query(
      "update pms_meter_command set state = 'fail', done_time = now(), evidence = $2 where batch_id = $1",
      [mixed, JSON.stringify({ detail: "no answer" })],
    );
    await server.db.query(
      "update pms_batch_job_item set state = 'fail', reason = 'no answer' where job_id = $1",
      [mixed],
    );
    const running = await switchBatch([theirs.meter, hiddenMeter], 1);
    const hiddenOnly = await switchBatch([hiddenMeter], 2);
    const before = await get(server, other.token, `batchjob/detail?id=${mixed}`);
    assert.deepEqual([before.total, before.fail], [2, 2]);

    // Their role may now see only the meters its users wrote.
    const [menu] = await server.db.query<{ id: string }>("select id from sys_menu where code = 'meter'");
    const rule = await server.call("POST", "/api/blade-system/data-scope/submit", admin, {
      menuId: menu!.id,
      resourceCode: "meter",
      scopeName: "本人表计",
      scopeColumn: "createUser",
      scopeType: 2,
    });
    assert.equal(rule.statusCode, 200, rule.body);
    await server.db.query(
      "insert into sys_role_scope (id, scope_category, scope_id, role_id) values ($1, 1, $2, $3)",
      [String(Date.now()), rule.json().data.id, other.roleId],
    );

    // The mixed job counts and lists its visible meter alone.
    const seen = await get(server, other.token, `batchjob/detail?id=${mixed}`);
    assert.deepEqual([seen.total, seen.fail], [1, 1]);
    const items = await get(server, other.token, `batchjob/items?id=${mixed}&size=100`);
    assert.deepEqual(
      [items.total, items.records.map((item: { meterId: string }) => item.meterId)],
      [1, [theirs.meter]],
    );
    const failed = await get(server, other.token, `batchjob/items?id=${mixed}&state=fail`);
    assert.equal(failed.total, 1);

    // The job of the hidden meter alone is absent to every call; the page leaves it out.
    for (const [method, path] of [
      ["GET", `batchjob/detail?id=${hiddenOnly}`],
      ["GET", `batchjob/items?id=${hiddenOnly}`],
      ["POST", `batchjob/cancel?id=${hiddenOnly}`],
      ["POST", `batchjob/retryFailed?id=${hiddenOnly}`],
    ] as const) {
      const res = await call(method, path);
      assert.equal(res.statusCode, 404, `${path}: ${res.body}`);
    }
    const listed = await get(server, other.token, "batchjob/page?size=100");
    const ids = listed.records.map((job: { id: string }) => job.id);
    assert.ok(ids.includes(mixed) && !ids.includes(hiddenOnly), JSON.stringify(ids));
    assert.equal(listed.total, ids.length);

    // Retrying the failed takes only the visible meter.
    const retried = await call("POST", `batchjob/retryFailed?id=${mixed}`);
    assert.equal(retried.statusCode, 200, retried.body);
    const retryJob = retried.json().data.jobId as string;
    const retryItems = await server.db.query<{ meter_id: string }>(
      "select meter_id::text as meter_id from pms_batch_job_item where job_id = $1",
      [retryJob],
    );
    assert.deepEqual(
      retryItems.map((row) => row.meter_id),
      [theirs.meter],
    );

    // A cancel would stop hidden meters too: refused, and nothing of the job changes.
    const refused = await call("POST", `batchjob/cancel?id=${running}`);
    assert.equal(refused.statusCode, 403, refused.body);
    const [state] = await server.db.query<{ state: string }>(
      "select state from pms_batch_job where id = $1",
      [running],
    );
    assert.equal(state!.state, "running");
    // The retry job holds only meters they see: they may cancel it.
    const cancelled = await call("POST", `batchjob/cancel?id=${retryJob}`);
    assert.equal(cancelled.statusCode, 200, cancelled.body);
    assert.equal(cancelled.json().data.state, "cancelled");

    // The platform administrator is not narrowed.
    const whole = await get(server, admin, `batchjob/detail?id=${mixed}`);
    assert.equal(whole.total, 2);
    assert.equal((await get(server, admin, `batchjob/detail?id=${hiddenOnly}`)).id, hiddenOnly);
  });
});

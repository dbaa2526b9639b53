import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { BatchJobItem, BatchJobSummary } from "@meterline/contracts";
import { silentLogger } from "@meterline/gateway";
import { DbCommandSource } from "../src/modules/metering/command-source.db.ts";
import { pumpAccountJob } from "../src/modules/money/account-jobs.ts";
import { rememberPurchaseCount } from "../src/modules/money/meter-purchase.ts";
import { BatchJobRunner, DEFAULT_LIMITS } from "../src/modules/operations/batch-jobs/job-runner.ts";
import { provisionTenant } from "./fixtures.ts";
import { startTestServer, type TestServer } from "./helpers.ts";
import { buildSite, created } from "./registry-fixtures.ts";

const pms = "/api/blade-pms";

/**
 * Opening and closing a batch of meters' accounts is one job: each meter is worked in a transaction
 * of its own, so one refused meter records why and leaves the others opened or closed; one meter
 * keeps the answer it always had.
 */
describe("account opening and closing batches as jobs", () => {
  let server: TestServer;
  let tenant: Awaited<ReturnType<typeof provisionTenant>>;
  let site: Awaited<ReturnType<typeof buildSite>>;
  let scheme: string;
  /** A meter with no room: opening it is refused. */
  let roomless: string;
  /** The runner a server process runs, stepped by hand so each step is seen whole. */
  let runner: BatchJobRunner;

  const post = (path: string, body?: Record<string, unknown>) =>
    server.call("POST", `${pms}/${path}`, tenant.token, body);
  const detail = async (id: string): Promise<BatchJobSummary> => {
    const res = await server.call("GET", `${pms}/batchjob/detail?id=${id}`, tenant.token);
    assert.equal(res.statusCode, 200, res.body);
    return res.json().data;
  };
  const items = async (id: string): Promise<BatchJobItem[]> => {
    const res = await server.call("GET", `${pms}/batchjob/items?id=${id}&size=100`, tenant.token);
    assert.equal(res.statusCode, 200, res.body);
    return res.json().data.records;
  };
  const stateOf = (list: BatchJobItem[], meterId: string) => list.find((i) => i.meterId === meterId);
  const accountStatus = async (meterId: string) =>
    (
      await server.db.query<{ account_status: number }>(
        "select account_status from pms_meter where id = $1",
        [meterId],
      )
    )[0]!.account_status;
  const startJob = async (path: string, body: Record<string, unknown>) => {
    const res = await post(path, body);
    assert.equal(res.statusCode, 200, res.body);
    return res.json().data.jobId as string;
  };

  before(async () => {
    server = await startTestServer();
    const platform = (await server.login()).access_token;
    tenant = await provisionTenant(server, platform, "批量开户物业");
    site = await buildSite(server, tenant.token);
    scheme = await created(server, tenant.token, "chargingscheme/submit", {
      schemeName: "居民电价",
      energyType: 1,
      priceMode: 1,
      price: "0.5883",
    });
    await created(server, tenant.token, "meter/submit", {
      id: site.meter,
      productCode: "100000000101",
      collectorId: site.collector,
      controlStatus: 1,
      chargingSchemeId: scheme,
    });
    roomless = await created(server, tenant.token, "meter/submit", {
      productCode: "100000000301",
      collectorId: site.collector,
      channel: 3,
      controlStatus: 1,
      chargingSchemeId: scheme,
    });
    runner = new BatchJobRunner(server.db, silentLogger, {
      intervalMs: 3_600_000,
      limits: DEFAULT_LIMITS,
      timeZone: "Asia/Shanghai",
    });
  });
  after(async () => {
    await runner.stop();
    await server.close();
  });

  test("a batch opening: one meter refused, the other opened; the retry takes the refused one", async () => {
    const unknown = await post("message/openAccount", {
      meterIds: [site.meter, "123"].join(","),
      deposit: "10",
    });
    assert.equal(unknown.statusCode, 400, unknown.body);
    assert.match(unknown.json().msg, /^meterIds: 表计不存在 \(123\)/);

    const jobId = await startJob("message/openAccount", {
      meterIds: [site.meter, roomless].join(","),
      deposit: "10",
    });
    // Nothing is opened in the request: the runner works the meters.
    assert.equal(await accountStatus(site.meter), 0);
    await runner.tick();
    await runner.tick();
    const job = await detail(jobId);
    assert.deepEqual(
      [job.kind, job.state, job.total, job.success, job.fail, job.remaining],
      ["openAccount", "done", 2, 1, 1, 0],
    );
    const list = await items(jobId);
    assert.equal(stateOf(list, site.meter)?.state, "success");
    assert.equal(stateOf(list, roomless)?.state, "fail");
    assert.match(stateOf(list, roomless)!.reason, /未绑定房间/);
    assert.equal(await accountStatus(site.meter), 1);
    assert.equal(await accountStatus(roomless), 0);
    const [account] = await server.db.query<{ balance: string }>(
      "select balance::text as balance from pms_account where meter_id = $1 and status = 1",
      [site.meter],
    );
    assert.equal(account!.balance, "1000", "the deposit of 10 yuan, in fen");

    // Given a room with its owner, the retry opens exactly the refused meter, with the same deposit.
    await created(server, tenant.token, "roommeter/submit", {
      roomId: site.room102,
      energyType: 1,
      meterId: roomless,
    });
    await created(server, tenant.token, "ownerroom/submit", { ownerId: site.owner, roomId: site.room102 });
    const retried = await post(`batchjob/retryFailed?id=${jobId}`);
    assert.equal(retried.statusCode, 200, retried.body);
    const retryId = retried.json().data.jobId as string;
    await runner.tick();
    await runner.tick();
    const retry = await detail(retryId);
    assert.deepEqual([retry.state, retry.total, retry.success, retry.retryOf], ["done", 1, 1, jobId]);
    const [again] = await server.db.query<{ balance: string }>(
      "select balance::text as balance from pms_account where meter_id = $1 and status = 1",
      [roomless],
    );
    assert.equal(again!.balance, "1000");
  });

  test("a batch closing refunds each meter on its own; one meter keeps the all-at-once answer", async () => {
    const notOpen = await created(server, tenant.token, "meter/submit", {
      productCode: "100000000401",
      collectorId: site.collector,
      channel: 4,
    });
    const jobId = await startJob("message/closeAccount", {
      meterIds: [site.meter, notOpen, roomless].join(","),
    });
    await runner.tick();
    await runner.tick();
    const job = await detail(jobId);
    assert.deepEqual([job.kind, job.state, job.success, job.fail], ["closeAccount", "done", 2, 1]);
    assert.match(stateOf(await items(jobId), notOpen)!.reason, /未开户/);
    const refunds = await server.db.query<{ amount: string }>(
      `select l.amount::text as amount from pms_ledger l join pms_account a on a.id = l.account_id
        where a.meter_id = any($1::bigint[]) and a.status = 2 and l.amount < 0`,
      [[site.meter, roomless]],
    );
    assert.deepEqual(
      refunds.map((r) => r.amount),
      ["-1000", "-1000"],
    );
    // Supply goes with each account, as at the desk: both remote-control meters have their cut queued.
    const cuts = await server.db.query<{ close_supply: number }>(
      "select close_supply from pms_account where meter_id = any($1::bigint[]) and status = 2 order by meter_id",
      [[site.meter, roomless]],
    );
    assert.deepEqual(
      cuts.map((c) => c.close_supply),
      [1, 1],
    );

    // One meter: opened in the request, answered with its account as before.
    const single = await post("message/openAccount", { meterId: site.meter, deposit: "5" });
    assert.equal(single.statusCode, 200, single.body);
    assert.equal(single.json().data[0].balance, "5.00");
    assert.equal(await accountStatus(site.meter), 1);
  });

  test("a local-prepaid meter's writes join the job, which follows them; a cancel leaves them to the meter", async () => {
    const prepaid = await created(server, tenant.token, "meter/submit", {
      productCode: "100000000501",
      collectorId: site.collector,
      channel: 5,
      controlStatus: 0,
      chargingSchemeId: scheme,
    });
    await created(server, tenant.token, "roommeter/submit", {
      roomId: site.room201,
      energyType: 1,
      meterId: prepaid,
    });
    await created(server, tenant.token, "ownerroom/submit", { ownerId: site.owner, roomId: site.room201 });
    // The purchase count the gateway read from the meter, which the deposit's write goes on from.
    await rememberPurchaseCount(server.db, tenant.tenantId, prepaid, 3, new Date());
    const writesOf = () =>
      server.db.query<{ id: string; batch_id: string; command_type: string; state: string }>(
        `select id::text as id, batch_id::text as batch_id, command_type, state from pms_meter_command
          where meter_id = $1 order by id`,
        [prepaid],
      );
    /** What the gateway records as the meter confirms a command. */
    const confirm = async (commandId: string) => {
      const commands = new DbCommandSource(server.db);
      await commands.update({ commandId, state: "sent", at: new Date(), evidence: { detail: "sent" } });
      await commands.update({
        commandId,
        state: "success",
        at: new Date(),
        evidence: { detail: "acknowledged" },
      });
    };

    // site.meter is open already: refused; the local-prepaid meter opens and waits for its writes.
    const opening = await startJob("message/openAccount", {
      meterIds: [prepaid, site.meter].join(","),
      deposit: "20",
    });
    await runner.tick();
    await runner.tick();
    let job = await detail(opening);
    assert.deepEqual([job.state, job.fail, job.remaining], ["running", 1, 1]);
    const item = stateOf(await items(opening), prepaid)!;
    assert.equal(item.state, "queued");
    const writes = await writesOf();
    assert.ok(writes.length >= 2, "the scheme's price and the deposit");
    assert.ok(writes.every((w) => w.batch_id === opening && w.state === "queued"));
    assert.equal(item.commandId, writes[0]!.id);
    // The meter confirms every write: the item succeeds and the job is done.
    for (const write of writes) await confirm(write.id);
    assert.equal(stateOf(await items(opening), prepaid)!.state, "success");
    await runner.tick();
    job = await detail(opening);
    assert.deepEqual([job.state, job.success, job.fail], ["done", 1, 1]);

    // Closing it clears the meter first: the item waits for the clearing, a cancel does not withdraw it.
    const closing = await startJob("message/closeAccount", { meterIds: [prepaid, site.meter].join(",") });
    // One meter worked so far (the runner's step, cut short): the other is still to be closed.
    assert.equal(await pumpAccountJob(server.db, closing, 1, "Asia/Shanghai"), 1);
    const clearing = (await writesOf()).find((w) => w.command_type === "clearing")!;
    assert.deepEqual([clearing.batch_id, clearing.state], [closing, "queued"]);
    const waiting = stateOf(await items(closing), prepaid)!;
    assert.deepEqual([waiting.state, waiting.commandId], ["queued", clearing.id]);
    const cancelled = await post(`batchjob/cancel?id=${closing}`);
    assert.equal(cancelled.statusCode, 200, cancelled.body);
    assert.equal(cancelled.json().data.state, "cancelled");
    assert.equal(
      stateOf(await items(closing), site.meter)?.state,
      "cancelled",
      "not worked yet: never closed",
    );
    assert.equal(await accountStatus(site.meter), 1);
    assert.equal((await writesOf()).find((w) => w.id === clearing.id)!.state, "queued");
    // The meter gives the money up: the item succeeds, the refund is booked and the account closed.
    await confirm(clearing.id);
    assert.equal(stateOf(await items(closing), prepaid)!.state, "success");
    assert.equal(await accountStatus(prepaid), 0);
    const refunds = await server.db.query<{ amount: string }>(
      `select l.amount::text as amount from pms_ledger l join pms_account a on a.id = l.account_id
        where a.meter_id = $1 and l.amount < 0`,
      [prepaid],
    );
    assert.deepEqual(
      refunds.map((r) => r.amount),
      ["-2000"],
      "the deposit of 20 yuan, paid back once",
    );
  });
});

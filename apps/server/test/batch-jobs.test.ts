import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { BatchJobItem, BatchJobSummary } from "@meterline/contracts";
import { silentLogger } from "@meterline/gateway";
import {
  type ElectricMeter,
  type FleetHandle,
  planFleet,
  plannedSecret,
  startFleet,
} from "@meterline/simulator";
import type { FastifyInstance } from "fastify";
import { FieldCipher } from "../src/crud/field-cipher.ts";
import { type EmbeddedMetering, startEmbeddedMetering } from "../src/modules/metering/embedded-gateway.ts";
import { addRole, addUser, provisionTenant } from "./fixtures.ts";
import { BASIC, freePort, reopenApp, startTestServer, type TestServer } from "./helpers.ts";
import { created } from "./registry-fixtures.ts";

// 1,000 remote-controlled electric meters on 25 DTUs.
const PLAN = {
  meters: 1000,
  dtus: 25,
  waterRatio: 0,
  prepaidRatio: 0,
  dlt1997Ratio: 0,
  clockDriftRatio: 0,
  rolloverRatio: 0,
  seed: "batch-jobs",
} as const;
const pms = "/api/blade-pms";
const REFUSING = 30;
const SILENT = 10;

describe("batch jobs: a 1,000-meter switch batch runs as one durable job", () => {
  let server: TestServer;
  let app: FastifyInstance;
  let admin: string;
  let metering: EmbeddedMetering;
  let fleet: FleetHandle;
  let gatewayPort: number;
  const plan = planFleet(PLAN);
  /** Meter id by address, and address by meter id. */
  const idOf = new Map<string, string>();
  const addressOf = new Map<string, string>();
  let firstJob: string;

  const call = (method: "GET" | "POST", path: string, payload?: Record<string, unknown>, token = admin) =>
    app.inject({
      method,
      url: `${pms}/${path}`,
      headers: { authorization: BASIC, "blade-auth": `bearer ${token}` },
      ...(payload ? { payload } : {}),
    });
  const detail = async (id: string): Promise<BatchJobSummary> => {
    const res = await call("GET", `batchjob/detail?id=${id}`);
    assert.equal(res.statusCode, 200, res.body);
    return res.json().data;
  };
  const items = async (id: string, state?: string): Promise<BatchJobItem[]> => {
    const res = await call("GET", `batchjob/items?id=${id}&size=1000${state ? `&state=${state}` : ""}`);
    assert.equal(res.statusCode, 200, res.body);
    return res.json().data.records;
  };
  const waitFor = async <T>(what: string, probe: () => Promise<T | undefined>, seconds = 90): Promise<T> => {
    for (let i = 0; i < seconds * 5; i++) {
      const value = await probe();
      if (value !== undefined) return value;
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`timed out waiting for ${what}`);
  };
  const finished = (id: string) =>
    waitFor(`job ${id} finished`, async () => {
      const job = await detail(id);
      return job.remaining === 0 && job.state !== "running" ? job : undefined;
    });
  const sim = (meterId: string) => fleet.meter(addressOf.get(meterId)!) as ElectricMeter;
  const relayOps = (meterIds: readonly string[]) => meterIds.map((id) => sim(id).counters.relayOps);
  const switchBatch = async (meterIds: readonly string[], switchType: 1 | 2) => {
    const res = await call("POST", "message/switchBatch", { meterIds: meterIds.join(","), switchType });
    assert.equal(res.statusCode, 200, res.body);
    return res.json().data as { jobId: string; queued: number; skipped: unknown[] };
  };
  const startMetering = (recheckMs = 600_000) =>
    startEmbeddedMetering({
      db: server.db,
      cipher: new FieldCipher(server.dataKey),
      logger: silentLogger,
      // No polls while batches run: a fault injected for a command must meet that command.
      pollIntervalMs: 3_600_000,
      demoFleet: false,
      // A small window, so a cancel finds most of a job not yet sent.
      batchJobs: { intervalMs: 200, limits: { window: 300, chunk: 100 } },
      env: {
        GATEWAY_PORT: String(gatewayPort),
        GATEWAY_HOST: "127.0.0.1",
        GATEWAY_REQUEST_TIMEOUT_MS: "500",
        // A switch left "timeout" is read back again only this late (never while the first test runs).
        GATEWAY_TIMEOUT_RECHECK_MS: String(recheckMs),
      },
    });

  before(async () => {
    server = await startTestServer();
    app = server.app;
    admin = (await server.login()).access_token;
    const collectors = new Map<string, string>();
    for (const dtu of plan.dtuIds)
      collectors.set(
        dtu,
        await created(server, admin, "collector/submit", {
          collectorName: dtu,
          collectorCode: dtu,
          registrationSecret: plannedSecret(plan, dtu),
        }),
      );
    for (let start = 0; start < plan.meters.length; start += 50) {
      const chunk = plan.meters.slice(start, start + 50);
      const ids = await Promise.all(
        chunk.map((meter) =>
          created(server, admin, "meter/save", {
            productCode: meter.address,
            collectorId: collectors.get(meter.collectorId),
            controlStatus: 1,
          }),
        ),
      );
      chunk.forEach((meter, i) => {
        idOf.set(meter.address, ids[i]!);
        addressOf.set(ids[i]!, meter.address);
      });
    }
    gatewayPort = await freePort();
    metering = await startMetering();
    fleet = await startFleet({ ...PLAN, gateway: { host: "127.0.0.1", port: gatewayPort } });
    // Every meter's first poll is over before faults are injected.
    await waitFor(
      "the first poll of every meter",
      async () => {
        const [row] = await server.db.query<{ n: number }>(
          "select count(distinct meter_id)::int as n from pms_data_read",
        );
        return row!.n >= plan.meters.length ? true : undefined;
      },
      180,
    );
    await new Promise((r) => setTimeout(r, 1000));
  });
  after(async () => {
    await fleet?.close();
    await metering?.close();
    if (app !== server?.app) await app?.close();
    await server?.close();
  });

  const all = () => plan.meters.map((meter) => idOf.get(meter.address)!);
  const refusing = () => all().slice(0, REFUSING);
  const silent = () => all().slice(REFUSING, REFUSING + SILENT);

  test("faults end in exact counts: refused → fail, no reply and no read-back → timeout, the rest succeed", async () => {
    for (const id of refusing()) fleet.injectFault(addressOf.get(id)!, "errorReply");
    // Executed but the reply is lost, and so are the three read-back attempts.
    for (const id of silent()) {
      fleet.injectFault(addressOf.get(id)!, "noReply");
      fleet.injectFault(addressOf.get(id)!, "ignore", 3);
    }
    const before = relayOps(all());
    const outcome = await switchBatch(all(), 2);
    assert.equal(outcome.queued, 1000);
    assert.deepEqual(outcome.skipped, []);
    firstJob = outcome.jobId;

    const job = await finished(firstJob);
    assert.deepEqual(
      [job.kind, job.state, job.total, job.success, job.fail, job.timeout, job.remaining, job.cancelled],
      ["switch", "done", 1000, 960, 30, 10, 0, 0],
    );
    assert.deepEqual(job.params, { switchType: 2 });
    assert.equal(job.source, "message/switchBatch");
    // The simulator agrees meter by meter: the refusing ones never tripped, all others did.
    const after = relayOps(all());
    const tripped = all().filter((_, i) => after[i]! - before[i]! === 1);
    assert.equal(tripped.length, 970);
    assert.ok(
      after.every((n, i) => n - before[i]! <= 1),
      "no meter switched twice",
    );
    assert.deepEqual(
      (await items(firstJob, "fail")).map((item) => item.meterId).sort(),
      [...refusing()].sort(),
    );
    assert.deepEqual(
      (await items(firstJob, "timeout")).map((item) => item.meterId).sort(),
      [...silent()].sort(),
    );
    for (const id of silent()) assert.equal(sim(id).relayCommandOpen, true, "the silent meters did trip");
  });

  test("retry the failed: a new job of exactly the failed meters, which succeed once the fault is gone", async () => {
    const before = relayOps(refusing());
    const res = await call("POST", `batchjob/retryFailed?id=${firstJob}`);
    assert.equal(res.statusCode, 200, res.body);
    const { jobId } = res.json().data;
    const job = await finished(jobId);
    assert.deepEqual([job.retryOf, job.total, job.success, job.fail, job.timeout], [firstJob, 30, 30, 0, 0]);
    assert.deepEqual((await items(jobId)).map((item) => item.meterId).sort(), [...refusing()].sort());
    assert.deepEqual(
      relayOps(refusing()).map((n, i) => n - before[i]!),
      refusing().map(() => 1),
    );
    // Nothing left to retry; a finished job cannot be cancelled.
    const none = await call("POST", `batchjob/retryFailed?id=${jobId}`);
    assert.equal(none.statusCode, 400);
    assert.match(none.json().msg, /^id: 没有失败的表计/);
    const late = await call("POST", `batchjob/cancel?id=${jobId}`);
    assert.equal(late.statusCode, 400);
    assert.match(late.json().msg, /^id: 任务已结束/);
  });

  test("cancel mid-batch: the meters not yet sent are never written", async () => {
    const targets = all().slice(REFUSING + SILENT);
    const before = relayOps(targets);
    const { jobId } = await switchBatch(targets, 1);
    await waitFor("the first closes", async () => ((await detail(jobId)).success >= 100 ? true : undefined));
    const res = await call("POST", `batchjob/cancel?id=${jobId}`);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().data.state, "cancelled");
    const job = await finished(jobId);
    assert.equal(job.state, "cancelled");
    assert.ok(job.cancelled > 0 && job.success >= 100, JSON.stringify(job));
    assert.equal(job.success + job.fail + job.timeout + job.cancelled, job.total);
    // Give a gateway that claimed a cancelled command time to (not) send it.
    await new Promise((r) => setTimeout(r, 1500));
    const after = relayOps(targets);
    const states = new Map((await items(jobId)).map((item) => [item.meterId, item.state]));
    targets.forEach((id, i) => {
      const written = after[i]! - before[i]!;
      assert.equal(written, states.get(id) === "cancelled" ? 0 : 1, `${id} ${states.get(id)}`);
    });
    const [sent] = await server.db.query<{ n: number }>(
      "select count(*)::int as n from pms_meter_command where batch_id = $1 and state = 'cancelled' and sent_time is not null",
      [jobId],
    );
    assert.equal(sent!.n, 0, "no cancelled command went out");
  });

  test("another tenant sees none of it; bad input names the field", async () => {
    const other = await provisionTenant(server, admin, "别家物业");
    for (const path of [`batchjob/detail?id=${firstJob}`, `batchjob/items?id=${firstJob}`]) {
      const res = await call("GET", path, undefined, other.token);
      assert.equal(res.statusCode, 404, `${path}: ${res.body}`);
    }
    const page = await call("GET", "batchjob/page?current=1&size=10", undefined, other.token);
    assert.equal(page.statusCode, 200, page.body);
    assert.equal(page.json().data.total, 0);
    for (const verb of ["cancel", "retryFailed"]) {
      const res = await call("POST", `batchjob/${verb}?id=${firstJob}`, undefined, other.token);
      assert.equal(res.statusCode, 404, `${verb}: ${res.body}`);
    }
    // Without the job menu's buttons a user of the tenant may neither read nor act on jobs.
    const role = await addRole(server.db, "000000", "no-jobs");
    await addUser(server.db, { tenantId: "000000", account: "no-jobs", password: "pw-nj", roleIds: [role] });
    const stranger = (await server.login("no-jobs", "pw-nj")).access_token;
    for (const [method, path] of [
      ["GET", "batchjob/page"],
      ["GET", `batchjob/detail?id=${firstJob}`],
      ["POST", `batchjob/cancel?id=${firstJob}`],
      ["POST", `batchjob/retryFailed?id=${firstJob}`],
    ] as const) {
      const res = await call(method, path, undefined, stranger);
      assert.equal(res.statusCode, 403, `${path}: ${res.body}`);
    }
    const mine = await call("GET", "batchjob/page?current=1&size=10&kind=switch");
    assert.equal(mine.json().data.total, 3, "the batch, its retry and the cancelled one");

    const cases: [string, RegExp][] = [
      ["batchjob/detail", /^id: /],
      ["batchjob/page?kind=nope", /^kind: /],
      ["batchjob/page?state=nope", /^state: /],
      [`batchjob/items?id=${firstJob}&state=nope`, /^state: /],
      ["batchjob/detail?id=abc", /id/],
    ];
    for (const [path, message] of cases) {
      const res = await call("GET", path);
      assert.equal(res.statusCode, 400, `${path}: ${res.body}`);
      assert.match(res.json().msg, message);
    }
    const tooMany = await call("POST", "message/switchBatch", {
      meterIds: Array.from({ length: 10_001 }, (_, i) => String(i + 1)).join(","),
      switchType: 2,
    });
    assert.equal(tooMany.statusCode, 400);
    assert.match(tooMany.json().msg, /^meterIds: /);
  });

  test("a server restart mid-batch resumes the job and sends nothing twice", async () => {
    const targets = all().filter((id) => sim(id).relayOpen);
    assert.ok(targets.length > 100, `${targets.length} meters still open`);
    const before = relayOps(targets);
    const { jobId } = await switchBatch(targets, 1);
    await waitFor("the first closes", async () => ((await detail(jobId)).success >= 50 ? true : undefined));

    // The process stops: runner, gateway and HTTP app; a new one opens on the same database.
    await metering.close();
    await app.close();
    const stopped = await detail2(jobId);
    assert.ok(stopped.remaining > 0, "the job was cut off mid-way");
    app = await reopenApp(server);
    // Commands cut off between their frame and its reply are settled by reading the meter back.
    metering = await startMetering(1_000);

    await finished(jobId);
    // A close cut off mid-exchange waits as "to be confirmed" until its read-back settles it.
    const job = await waitFor("every close confirmed", async () => {
      const now = await detail(jobId);
      return now.timeout === 0 ? now : undefined;
    });
    assert.equal(job.state, "done");
    assert.equal(job.success + job.fail, targets.length, JSON.stringify(job));
    assert.ok(job.success > targets.length / 2, JSON.stringify(job));
    // A close whose frame was recorded but never reached the wire reads back as not done: it fails,
    // and is never sent again. Every other meter closed exactly once.
    const states = new Map((await items(jobId)).map((item) => [item.meterId, item]));
    const after = relayOps(targets);
    targets.forEach((id, i) => {
      const item = states.get(id)!;
      assert.equal(
        after[i]! - before[i]!,
        item.state === "success" ? 1 : 0,
        `${id} ${item.state} ${item.reason}`,
      );
    });
    const [twice] = await server.db.query<{ n: number }>(
      `select count(*)::int as n from (select meter_id from pms_meter_command where batch_id = $1
        group by meter_id having count(*) > 1) t`,
      [jobId],
    );
    assert.equal(twice!.n, 0, "one command per meter");
  });

  /** The job as the database has it while no app is open. */
  async function detail2(id: string) {
    const [row] = await server.db.query<{ remaining: number }>(
      "select count(*)::int as remaining from pms_batch_job_item where job_id = $1 and state in ('pending', 'queued', 'sent')",
      [id],
    );
    return row!;
  }
});

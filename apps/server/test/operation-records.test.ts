import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { nextId } from "../src/db/ids.ts";
import { provisionTenant } from "./fixtures.ts";
import { startTestServer, type TestServer } from "./helpers.ts";
import { buildSite } from "./registry-fixtures.ts";

const pms = "/api/blade-pms";

interface Record_ {
  id: string;
  commandType: string;
  state: string;
  productCode: string;
  roomName: string;
  operatorName: string;
  remark?: string | null;
  request?: string | null;
  reply?: string | null;
}

describe("operation records: views of the command table", () => {
  let server: TestServer;
  let a: string;
  let b: string;
  let tenantA: string;
  let site: Awaited<ReturnType<typeof buildSite>>;

  const list = async (path: string, token = a) => {
    const res = await server.call("GET", `${pms}/${path}?current=1&size=50`, token);
    assert.equal(res.statusCode, 200, `${path}: ${res.body}`);
    return res.json().data.records as Record_[];
  };
  const ids = async (path: string, token = a) => (await list(path, token)).map((r) => r.id).sort();

  /** A write queued as the scheme writes queue it: type `write`, the DL/T 645 DI in the payload. */
  const queueRaw = async (commandType: string, payload: Record<string, unknown>) => {
    const id = nextId();
    await server.db.query(
      `insert into pms_meter_command (id, tenant_id, energy_type, meter_id, product_code, command_type, payload, source)
       values ($1, $2, 1, $3, '100000000101', $4, $5, 'test')`,
      [id, tenantA, site.meter, commandType, JSON.stringify(payload)],
    );
    return id;
  };
  const settle = (id: string) =>
    server.db.query(
      `update pms_meter_command set state = 'success', result = 1, request = '68 01 00 00 00 00 10 68 1C',
              reply = '68 01 00 00 00 00 10 68 9C', done_time = now() where id = $1`,
      [id],
    );

  let switchId: string;
  let priceId: string;
  let ladderId: string;
  let alarmId: string;
  let futurePriceId: string;
  let futureAlarmId: string;

  before(async () => {
    server = await startTestServer();
    const admin = (await server.login()).access_token;
    const ta = await provisionTenant(server, admin, "甲物业");
    const tb = await provisionTenant(server, admin, "乙物业");
    a = ta.token;
    b = tb.token;
    tenantA = ta.tenantId;
    site = await buildSite(server, a);
    const off = await server.call("POST", `${pms}/message/switch`, a, { meterId: site.meter, switchType: 2 });
    assert.equal(off.statusCode, 200, off.body);
    const [row] = await server.db.query<{ id: string }>(
      "select id::text as id from pms_meter_command where batch_id = $1",
      [off.json().data.batchId],
    );
    switchId = row!.id;
    priceId = await queueRaw("write", { di: "04050101", value: "0.5800" });
    ladderId = await queueRaw("write", { di: "04060001", value: "200" });
    alarmId = await queueRaw("write", { di: "04001001", value: "20.00" });
    // Types that name their kind, as a batch write may queue them: they land in their record.
    futurePriceId = await queueRaw("writePrice", { prices: ["0.58"] });
    futureAlarmId = await queueRaw("waterAlarm", { alarm1: "10" });
  });
  after(() => server.close());

  test("each record lists its kind of command; message and metercommand list them all", async () => {
    assert.deepEqual(await ids("dataswitch/page"), [switchId]);
    assert.deepEqual(await ids("datawriteprice/page"), [priceId, ladderId, futurePriceId].sort());
    assert.deepEqual(await ids("datawritealarm/page"), [alarmId, futureAlarmId].sort());
    const every = [switchId, priceId, ladderId, alarmId, futurePriceId, futureAlarmId].sort();
    assert.deepEqual(await ids("message/list"), every);
    assert.deepEqual(await ids("metercommand/list"), every);
  });

  test("a record names the meter, its room with the building, the operator and the outcome", async () => {
    const [cut] = await list("dataswitch/page");
    assert.deepEqual(
      [cut?.productCode, cut?.roomName, cut?.operatorName, cut?.state],
      ["100000000101", "1号楼 101", "admin", "queued"],
    );
    await settle(priceId);
    const res = await server.call("GET", `${pms}/datawriteprice/detail?id=${priceId}`, a);
    assert.equal(res.statusCode, 200, res.body);
    const detail = res.json().data as Record_ & { result: number; resultName?: string };
    assert.deepEqual(
      [detail.state, detail.result, detail.request, detail.reply],
      ["success", 1, "68 01 00 00 00 00 10 68 1C", "68 01 00 00 00 00 10 68 9C"],
    );
  });

  test("a record does not answer for a command of another kind", async () => {
    const detail = await server.call("GET", `${pms}/dataswitch/detail?id=${priceId}`, a);
    assert.equal(detail.statusCode, 404, detail.body);
    const removed = await server.call("POST", `${pms}/dataswitch/remove?ids=${priceId}`, a);
    assert.equal(removed.statusCode, 404, removed.body);
  });

  test("an unsettled command cannot be removed; the refusal names it and changes nothing", async () => {
    for (const path of ["metercommand", "dataswitch", "message"]) {
      const res = await server.call("POST", `${pms}/${path}/remove?ids=${switchId}`, a);
      assert.equal(res.statusCode, 400, res.body);
      assert.match(res.json().msg, /100000000101\(排队中\)/);
    }
    const [row] = await server.db.query<{ is_deleted: number; remove_user: string | null }>(
      "select is_deleted, remove_user from pms_meter_command where id = $1",
      [switchId],
    );
    assert.deepEqual(row, { is_deleted: 0, remove_user: null });
  });

  test("removing a settled command hides it from every list and keeps it for audit", async () => {
    await settle(alarmId);
    const res = await server.call("POST", `${pms}/datawritealarm/remove?ids=${alarmId}`, a);
    assert.equal(res.statusCode, 200, res.body);
    for (const path of ["datawritealarm/page", "message/list", "metercommand/list"])
      assert.ok(!(await ids(path)).includes(alarmId), path);
    const detail = await server.call("GET", `${pms}/metercommand/detail?id=${alarmId}`, a);
    assert.equal(detail.statusCode, 404, detail.body);
    const [row] = await server.db.query<{
      is_deleted: number;
      state: string;
      request: string;
      removed: boolean;
    }>(
      `select is_deleted, state, request, remove_user is not null and remove_time is not null as removed
         from pms_meter_command where id = $1`,
      [alarmId],
    );
    assert.deepEqual(row, {
      is_deleted: 1,
      state: "success",
      request: "68 01 00 00 00 00 10 68 1C",
      removed: true,
    });
  });

  test("submit edits only the remark of an existing command and never creates one", async () => {
    const created = await server.call("POST", `${pms}/metercommand/submit`, a, {
      commandType: "switch",
      productCode: "100000000101",
    });
    assert.equal(created.statusCode, 400, created.body);
    assert.match(created.json().msg, /^id: /);
    const edited = await server.call("POST", `${pms}/dataswitch/submit`, a, {
      id: switchId,
      remark: "业主要求断电",
      state: "success",
      result: 1,
    });
    assert.equal(edited.statusCode, 200, edited.body);
    const [row] = await server.db.query<{ remark: string; state: string; result: number | null; n: string }>(
      `select remark, state, result, (select count(*) from pms_meter_command)::text as n
         from pms_meter_command where id = $1`,
      [switchId],
    );
    assert.deepEqual(row, { remark: "业主要求断电", state: "queued", result: null, n: "6" });
  });

  test("another tenant sees none of it and gets 404 by id", async () => {
    for (const path of ["dataswitch/page", "datawriteprice/page", "message/list", "metercommand/list"])
      assert.deepEqual(await ids(path, b), [], path);
    for (const path of ["dataswitch", "datawriteprice", "message", "metercommand"]) {
      const id = path === "datawriteprice" ? priceId : switchId;
      const detail = await server.call("GET", `${pms}/${path}/detail?id=${id}`, b);
      assert.equal(detail.statusCode, 404, `${path}: ${detail.body}`);
      const removed = await server.call("POST", `${pms}/${path}/remove?ids=${priceId}`, b);
      assert.equal(removed.statusCode, 404, `${path}: ${removed.body}`);
      const edited = await server.call("POST", `${pms}/${path}/submit`, b, { id, remark: "x" });
      assert.equal(edited.statusCode, 404, `${path}: ${edited.body}`);
    }
    const [row] = await server.db.query<{ is_deleted: number; remark: string | null }>(
      "select is_deleted, remark from pms_meter_command where id = $1",
      [priceId],
    );
    assert.deepEqual(row, { is_deleted: 0, remark: null });
  });
});

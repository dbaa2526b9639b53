import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { DbReadingsSink } from "../src/modules/metering/readings-sink.db.ts";
import { provisionTenant } from "./fixtures.ts";
import { startTestServer, type TestServer } from "./helpers.ts";
import { buildSite, get } from "./registry-fixtures.ts";

interface CurrentRow {
  id: string;
  meterId: string;
  totalValue: string;
  remark?: string | null;
}

describe("metercurrentdata remove (hide) and submit (remark)", () => {
  let server: TestServer;
  let admin: string;
  let site: Awaited<ReturnType<typeof buildSite>>;
  let sink: DbReadingsSink;

  const poll = (total: string) =>
    sink.record({
      meterId: site.meter,
      address: "100000000101",
      at: new Date(),
      energy: { total, tariffs: [] },
      missing: [],
    });
  const post = (path: string, body: Record<string, unknown>, token = admin) =>
    server.call("POST", `/api/blade-pms/metercurrentdata/${path}`, token, body);
  const listed = async () =>
    (await get(server, admin, `metercurrentdata/list?meterId=${site.meter}&size=50`)).records as CurrentRow[];
  const stored = async () => {
    const [row] = await server.db.query<{
      hidden: number | null;
      hide_user: string | null;
      hide_time: Date | null;
    }>("select hidden, hide_user, hide_time from pms_meter_current_data where meter_id = $1", [site.meter]);
    assert.ok(row, "the row is never deleted");
    return row;
  };

  before(async () => {
    server = await startTestServer();
    admin = (await server.login()).access_token;
    site = await buildSite(server, admin);
    sink = new DbReadingsSink(server.db, "Asia/Shanghai");
    await poll("100.00");
  });
  after(() => server.close());

  test("submit edits the remark of an existing row and nothing else; no id, no new row", async () => {
    const [row] = await listed();
    assert.ok(row);
    const res = await post("submit", { id: row.id, remark: "表箱在地下室", totalValue: "1.00" });
    assert.equal(res.statusCode, 200, res.body);
    const [after] = await listed();
    assert.deepEqual([after?.remark, after?.totalValue], ["表箱在地下室", "100.00"]);

    const create = await post("submit", { meterId: site.meter, remark: "x" });
    assert.equal(create.statusCode, 400, create.body);
    assert.match(create.json().msg, /^id: /);
    const long = await post("submit", { id: row.id, remark: "长".repeat(256) });
    assert.equal(long.statusCode, 400, long.body);
    assert.match(long.json().msg, /^remark: /);
  });

  test("another tenant can neither hide nor edit our row: it reads as absent, nothing changes", async () => {
    const other = await provisionTenant(server, admin, "别家物业");
    const [row] = await listed();
    assert.ok(row);
    const hide = await post(`remove?ids=${row.id}`, {}, other.token);
    assert.equal(hide.statusCode, 404, hide.body);
    const edit = await post("submit", { id: row.id, remark: "改掉" }, other.token);
    assert.equal(edit.statusCode, 404, edit.body);
    assert.equal((await listed())[0]?.remark, "表箱在地下室");
    assert.equal((await stored()).hidden ?? 0, 0);
  });

  test("remove hides the row with who and when; the meter's next read shows it again", async () => {
    const [row] = await listed();
    assert.ok(row);
    const res = await post(`remove?ids=${row.id}`, {});
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(await listed(), [], "hidden from the list");
    const detail = await server.call("GET", `/api/blade-pms/metercurrentdata/detail?id=${row.id}`, admin);
    assert.equal(detail.statusCode, 404, "and from the detail");
    const hidden = await stored();
    assert.equal(hidden.hidden, 1);
    assert.ok(hidden.hide_user, "who hid it");
    assert.ok(hidden.hide_time, "and when");
    const again = await post(`remove?ids=${row.id}`, {});
    assert.equal(again.statusCode, 404, "a hidden row is not hidden twice");

    await poll("101.50");
    const [back] = await listed();
    assert.deepEqual([back?.id, back?.totalValue, back?.remark], [row.id, "101.50", "表箱在地下室"]);
    assert.equal((await stored()).hidden, 0, "the flag is cleared by the fresh read");
  });
});

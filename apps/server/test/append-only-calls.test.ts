import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { nextId } from "../src/db/ids.ts";
import { addRole, addUser, provisionTenant } from "./fixtures.ts";
import { startTestServer, type TestServer } from "./helpers.ts";
import { buildSite, created } from "./registry-fixtures.ts";

const pms = "/api/blade-pms";

/**
 * The spec's write calls on append-only records (spec §7): each answers 400 saying why it is refused
 * and what to do instead, never the 404 of an unknown call, and changes nothing.
 */
const REFUSED: [path: string, message: RegExp][] = [
  ["datarecharge/remove", /^充值记录已入账,不能删除;.*以冲正或退款登记更正$/],
  ["dataopenaccount/submit", /^开户记录由开户操作生成,不能直接新增或修改;.*为表计开户$/],
  ["dataopenaccount/remove", /^开户记录是账户的记录,不能删除;.*办理销户$/],
  ["datacloseaccount/submit", /^销户记录由销户操作生成,不能直接新增或修改;.*为表计销户$/],
  ["datacloseaccount/remove", /^销户记录是账户的记录,不能删除;.*重新开户$/],
  [
    "datareadhistory/submit",
    /^历史抄读记录是已归档的原始读数,不能新增或修改;补录近期读数请到「电表抄读记录」$/,
  ],
  ["datareadhistory/remove", /^历史抄读记录是已归档的原始读数,不能删除或作废;.*以冲正登记更正$/],
  [
    "waterdatareadhistory/submit",
    /^历史抄读记录是已归档的原始读数,不能新增或修改;补录近期读数请到「水表抄读记录」$/,
  ],
  ["waterdatareadhistory/remove", /^历史抄读记录是已归档的原始读数,不能删除或作废;.*以冲正登记更正$/],
  ["datadailydd/remove", /^日用量由抄读记录算出,不能删除;.*作废错误读数或补录,该日用量随之重算$/],
];

describe("append-only records: their write calls refuse with a reason, closings have a detail", () => {
  let server: TestServer;
  let tenant: Awaited<ReturnType<typeof provisionTenant>>;
  let other: Awaited<ReturnType<typeof provisionTenant>>;
  let accountId: string;
  const post = (path: string, body: Record<string, unknown> = {}, token = tenant.token) =>
    server.call("POST", `${pms}/${path}`, token, body);
  const get = (path: string, token = tenant.token) => server.call("GET", `${pms}/${path}`, token);
  /** A user of the tenant whose one role holds exactly these menu and button codes. */
  const userWith = async (codes: string[]) => {
    const role = await addRole(server.db, tenant.tenantId, `r${nextId()}`);
    await server.db.query(
      `insert into sys_role_menu (id, menu_id, role_id)
       select (select max(id) from sys_role_menu) + row_number() over () + 100000, m.id, $1
         from sys_menu m where m.code = any($2::varchar[]) and m.is_deleted = 0`,
      [role, codes],
    );
    const account = `u${nextId()}`;
    await addUser(server.db, { tenantId: tenant.tenantId, account, password: "pw-test", roleIds: [role] });
    return (await server.login(account, "pw-test", tenant.tenantId)).access_token;
  };
  const stored = async () =>
    (
      await server.db.query<{ rows: string }>(
        `select (select count(*) from pms_recharge) || '/' || (select count(*) from pms_ledger) || '/' ||
                (select count(*) from pms_account where status = 2) as rows`,
      )
    )[0]!.rows;

  before(async () => {
    server = await startTestServer();
    const platform = (await server.login()).access_token;
    tenant = await provisionTenant(server, platform, "收费物业");
    other = await provisionTenant(server, platform, "隔壁物业");
    const site = await buildSite(server, tenant.token);
    const scheme = await created(server, tenant.token, "chargingscheme/submit", {
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
    const opened = await post("message/openAccount", { meterId: site.meter, deposit: "100" });
    assert.equal(opened.statusCode, 200, opened.body);
    accountId = opened.json().data[0].accountId;
    assert.equal((await post("datarecharge/submit", { accountId, amount: "20" })).statusCode, 200);
    const closed = await post("message/closeAccount", { meterId: site.meter });
    assert.equal(closed.statusCode, 200, closed.body);
  });
  after(() => server.close());

  test("each call answers 400 with why and what to do instead, whatever the ids, and changes nothing", async () => {
    const before = await stored();
    const [recharge] = (await get("datarecharge/page")).json().data.records;
    for (const [path, message] of REFUSED) {
      const body = path.endsWith("/submit") ? { id: accountId, remark: "x" } : {};
      for (const query of ["", `?ids=${recharge.id}`, `?ids=${accountId}`, "?ids=1"]) {
        const res = await post(`${path}${query}`, body);
        assert.equal(res.statusCode, 400, `${path}${query}: ${res.body}`);
        const envelope = res.json();
        assert.deepEqual([envelope.code, envelope.success], [400, false], path);
        assert.match(envelope.msg, message, path);
      }
    }
    assert.equal(await stored(), before, "no recharge, ledger entry or closing changed");
  });

  test("who may not use the screen or the operation is refused as for any call", async () => {
    const nobody = await userWith([]);
    for (const [path] of REFUSED) assert.equal((await post(path, {}, nobody)).statusCode, 403, path);
    // The history screen's reader learns why its log takes no writes; the money calls need the
    // operation's own buttons (充值/冲正, 开户, 销户), as their other writes do.
    const historyReader = await userWith(["dataReadHistory"]);
    const remove = await post("datareadhistory/remove?ids=1", {}, historyReader);
    assert.equal(remove.statusCode, 400);
    assert.match(remove.json().msg, /^历史抄读记录/);
    assert.equal((await post("datarecharge/remove?ids=1", {}, historyReader)).statusCode, 403);
    const cashier = await userWith(["ownerRecharge_correct"]);
    assert.match((await post("datarecharge/remove?ids=1", {}, cashier)).json().msg, /^充值记录已入账/);
    assert.equal((await post("datacloseaccount/remove?ids=1", {}, cashier)).statusCode, 403);
  });

  test("datacloseaccount/detail answers the closing as its list row, to its tenant only", async () => {
    const [row] = (await get(`datacloseaccount/page?accountId=${accountId}`)).json().data.records;
    assert.ok(row, "the closing is listed");
    const res = await get(`datacloseaccount/detail?id=${accountId}`);
    assert.equal(res.statusCode, 200, res.body);
    const detail = res.json().data;
    assert.deepEqual(detail, row, "the same fields as the list row");
    assert.deepEqual(
      [detail.id, detail.ownerName, detail.roomName, detail.productCode, detail.refund, detail.debt],
      [accountId, "张三", "1号楼 101", "100000000101", "120.00", "0.00"],
    );
    assert.ok(detail.closeTime && detail.operator, "when and by whom");
    for (const [query, token] of [
      [`id=${accountId}`, other.token],
      ["id=1", tenant.token],
    ] as const) {
      const missing = await get(`datacloseaccount/detail?${query}`, token);
      assert.equal(missing.statusCode, 404, query);
      assert.deepEqual([missing.json().code, missing.json().msg], [404, "数据不存在或无权访问"]);
    }
    for (const query of ["id=abc", "id=1.5", ""]) {
      const bad = await get(`datacloseaccount/detail?${query}`);
      assert.equal(bad.statusCode, 400, query);
      assert.match(bad.json().msg, /id/, query);
    }
  });
});

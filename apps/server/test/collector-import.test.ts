import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { concentratorId, concentratorPassword } from "@meterline/gateway";
import ExcelJS from "exceljs";
import { FieldCipher } from "../src/crud/field-cipher.ts";
import { DbMeterDirectory } from "../src/modules/metering/meter-directory.db.ts";
import { provisionTenant } from "./fixtures.ts";
import { multipartFile, startTestServer, type TestServer } from "./helpers.ts";
import { get } from "./registry-fixtures.ts";

type Sheet = readonly (readonly string[])[];

/** A workbook of named sheets, each given as rows of cells (the header first). */
async function workbook(sheets: Record<string, Sheet>): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  for (const [name, rows] of Object.entries(sheets)) {
    const sheet = book.addWorksheet(name);
    for (const row of rows) sheet.addRow([...row]);
  }
  return Buffer.from(await book.xlsx.writeBuffer());
}

const COLLECTOR_HEADER = ["采集器注册码", "采集器名称", "采集器类型", "终端地址", "接入密钥", "备注"];
const ROOM_HEADER = ["区域路径", "房间名称", "电表表号", "采集器注册码", "通道号", "电表规约"];
/** A concentrator's 16-byte 1376.1 login password, as 32 hex digits. */
const PASSWORD = "0123456789ABCDEF0123456789ABCDEF";
const CONCENTRATOR = "34010102";

describe("registry import: the 采集器 sheet and the 电表规约 column", () => {
  let server: TestServer;
  let tenant: { tenantId: string; token: string };

  const upload = async (verb: "import" | "import-preview", content: Buffer, token = tenant.token) => {
    const body = multipartFile("site.xlsx", content);
    const res = await server.inject({
      method: "POST",
      url: `/api/blade-pms/room/${verb}`,
      headers: { ...body.headers, "blade-auth": `bearer ${token}` },
      payload: body.payload,
    });
    assert.equal(res.statusCode, 200, res.body);
    return res.json().data;
  };
  /** Every sheet of a downloaded rejected file, as rows of text keyed by header. */
  const rejectedSheets = async (link: string) => {
    const download = await server.inject({ method: "GET", url: link });
    assert.equal(download.statusCode, 200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(download.rawPayload as unknown as ArrayBuffer);
    const sheets: Record<string, Record<string, string>[]> = {};
    for (const sheet of book.worksheets) {
      const header = Array.from(sheet.getRow(1).values as unknown[], (v) => String(v ?? ""));
      const rows: Record<string, string>[] = [];
      sheet.eachRow((row, n) => {
        if (n === 1) return;
        const values = row.values as unknown[];
        rows.push(Object.fromEntries(header.map((h, at) => [h, String(values[at] ?? "")])));
      });
      sheets[sheet.name] = rows;
    }
    return sheets;
  };
  const meters = (codes: string[]) =>
    server.db.query<{ product_code: string; protocol: string; collector_code: string; channel: number }>(
      `select m.product_code, m.protocol, c.collector_code, m.channel
         from pms_meter m join pms_collector c on c.id = m.collector_id
        where m.tenant_id = $1 and m.product_code = any($2) and m.is_deleted = 0 order by m.product_code`,
      [tenant.tenantId, codes],
    );

  before(async () => {
    server = await startTestServer();
    const admin = (await server.login()).access_token;
    tenant = await provisionTenant(server, admin, "集中器园区");
  });
  after(() => server.close());

  test("a concentrator and the 698.45 and 645 meters behind it import, and the gateway's directory serves them", async () => {
    const file = await workbook({
      房间档案: [
        ROOM_HEADER,
        ["集中器园区/1号楼", "101", "700000000101", CONCENTRATOR, "31", "DL/T 698.45"],
        ["集中器园区/1号楼", "102", "700000000102", CONCENTRATOR, "31", "DL/T 645-2007"],
        // Blank: the default, as before the column existed; on a DTU of the same file.
        ["集中器园区/1号楼", "103", "700000000103", "DTU-IMPORT-1", "2", ""],
      ],
      // The sheet comes after the rooms that name its collectors: it is planned first all the same.
      采集器: [
        COLLECTOR_HEADER,
        ["", "1号楼 集中器", "集中器", "3401-0102", PASSWORD, "配电间"],
        ["DTU-IMPORT-1", "", "DTU", "", "dtu-secret-0123456789", ""],
      ],
    });
    const preview = await upload("import-preview", file);
    assert.deepEqual([preview.total, preview.valid, preview.rejected], [5, 5, 0], JSON.stringify(preview));
    assert.equal(preview.creates.collectors, 2);
    assert.deepEqual(preview.existingCollectors, []);

    const answer = await upload("import", file);
    assert.deepEqual([answer.imported, answer.rejected, answer.rejectedFile], [5, 0, ""]);
    assert.deepEqual([answer.creates.collectors, answer.creates.meters, answer.creates.rooms], [2, 3, 3]);

    assert.deepEqual(
      (await meters(["700000000101", "700000000102", "700000000103"])).map((m) => [
        m.product_code,
        m.protocol,
        m.collector_code,
        m.channel,
      ]),
      [
        ["700000000101", "dlt698_45", CONCENTRATOR, 31],
        ["700000000102", "dlt645_2007", CONCENTRATOR, 31],
        ["700000000103", "dlt645_2007", "DTU-IMPORT-1", 2],
      ],
    );
    // The collector as its screen shows it: type 集中器, named, the secret only as a mask.
    const page = await get(server, tenant.token, `collector/page?size=10&collectorCode=${CONCENTRATOR}`);
    const concentrator = page.records.find(
      (c: { collectorCode: string }) => c.collectorCode === CONCENTRATOR,
    );
    assert.ok(concentrator, JSON.stringify(page));
    assert.deepEqual(
      [concentrator.collectorName, concentrator.collectorType, concentrator.transport],
      ["1号楼 集中器", 2, "tcp"],
    );
    const detail = await get(server, tenant.token, `collector/detail?id=${concentrator.id}`);
    assert.equal(detail.remark, "配电间");
    assert.notEqual(detail.registrationSecret, PASSWORD);
    assert.match(detail.registrationSecret, /^\*{4}/);
    const [stored] = await server.db.query<{ registration_secret: string }>(
      "select registration_secret from pms_collector where id = $1",
      [concentrator.id],
    );
    assert.ok(!stored!.registration_secret.includes(PASSWORD), "stored encrypted");

    // What the gateway is handed: the concentrator found by the address its login frame carries,
    // its password the one that login must prove, and both meters with their own protocols.
    const directory = new DbMeterDirectory(server.db, new FieldCipher(server.dataKey), 60_000);
    const code = concentratorId({ area: "3401", terminal: 0x0102 });
    assert.equal(code, CONCENTRATOR);
    const credentials = await directory.credentialsOf(code);
    assert.equal(concentratorPassword(credentials?.secret), PASSWORD);
    assert.deepEqual(
      (await directory.metersOf(code)).map((m) => [m.address, m.protocol, m.channel]),
      [
        ["700000000101", "dlt698", 31],
        ["700000000102", "dlt645-2007", 31],
      ],
    );
    assert.equal((await directory.credentialsOf("DTU-IMPORT-1"))?.secret, "dtu-secret-0123456789");
  });

  test("a bad protocol, terminal address or missing password is rejected naming its column, the secret masked", async () => {
    const file = await workbook({
      采集器: [
        COLLECTOR_HEADER,
        ["", "坏地址", "集中器", "3401-00G1", PASSWORD, ""],
        ["", "无密码", "集中器", "3401-0103", "", ""],
        ["34010104", "注册码不符", "集中器", "3401-0105", PASSWORD, ""],
        ["", "零终端", "集中器", "34010000", PASSWORD, ""],
        ["34010106", "短密码", "2", "3401-0106", "short-password-012", ""],
        ["DTU-X", "", "网关", "", "", ""],
        ["DTU-Y", "", "DTU", "3401-0107", "", ""],
      ],
      房间档案: [
        ROOM_HEADER,
        ["集中器园区/2号楼", "201", "700000000201", CONCENTRATOR, "31", "DL/T 699"],
        ["集中器园区/2号楼", "202", "700000000202", CONCENTRATOR, "31", "CJ/T 188-2004"],
        ["集中器园区/2号楼", "203", "", "", "", "DL/T 698.45"],
        // A concentrator of a rejected row does not exist for the rooms either.
        ["集中器园区/2号楼", "204", "700000000204", "34010103", "31", "dl/t 698.45"],
      ],
    });
    const preview = await upload("import-preview", file);
    const problems = new Map<string, string>(
      preview.problems.map((p: { row: number; reason: string; sheet?: string }) => [
        `${p.sheet ?? "房间档案"}:${p.row}`,
        p.reason,
      ]),
    );
    assert.deepEqual([preview.total, preview.valid, preview.rejected], [11, 0, 11], JSON.stringify(preview));
    const expected: Record<string, RegExp> = {
      "采集器:2": /^终端地址: \[3401-00G1\] 格式不正确/,
      "采集器:3": /^接入密钥: 集中器须填写登录密码$/,
      "采集器:4": /^采集器注册码: 集中器的注册码须为其终端地址 34010105/,
      "采集器:5": /^终端地址: \[34010000\] 格式不正确/,
      "采集器:6": /^接入密钥: 集中器的登录密码须为 32 位十六进制数/,
      "采集器:7": /^采集器类型: \[网关\] 不存在, 可选 DTU、集中器、4G 表计网关$/,
      "采集器:8": /^终端地址: 只用于集中器$/,
      "房间档案:2":
        /^电表规约: \[DL\/T 699\] 不存在, 可选 DL\/T 645-2007、DL\/T 645-1997、DL\/T 698\.45、Modbus-RTU、Modbus TCP$/,
      "房间档案:3": /^电表规约: \[CJ\/T 188-2004\] 不存在/,
      "房间档案:4": /^电表规约: 本行没有电表表号$/,
      "房间档案:5": /^采集器注册码: \[34010103\] 不存在$/,
    };
    for (const [at, reason] of Object.entries(expected)) assert.match(problems.get(at) ?? "", reason, at);
    // Collector rows are listed first, each naming its sheet.
    assert.equal(preview.problems[0].sheet, "采集器");

    const answer = await upload("import", file);
    assert.deepEqual([answer.imported, answer.rejected], [0, 11]);
    const sheets = await rejectedSheets(answer.rejectedFile);
    assert.equal(sheets.采集器?.length, 7);
    const badAddress = sheets.采集器!.find((r) => r.采集器名称 === "坏地址")!;
    assert.equal(badAddress.接入密钥, "****", "a secret is never echoed");
    assert.equal(badAddress.终端地址, "3401-00G1");
    assert.equal(badAddress.原行号, "2");
    const everything = JSON.stringify(sheets);
    assert.ok(!everything.includes(PASSWORD) && !everything.includes("short-password-012"));
    assert.match(sheets.未导入!.find((r) => r.房间名称 === "201")!.失败原因!, /^电表规约: /);

    // The rejected sheet imported as it is: the masked secret must be typed again.
    const again = await upload(
      "import-preview",
      await workbook({ 采集器: [COLLECTOR_HEADER, ["", "x", "集中器", "3401-0109", "****", ""]] }),
    );
    assert.match(again.problems[0].reason, /接入密钥: 请重新填写/);
    const [none] = await server.db.query<{ n: number }>(
      "select count(*)::int as n from pms_collector where tenant_id = $1 and collector_code = any($2)",
      [tenant.tenantId, ["34010103", "34010104", "34010105", "34010106", "34010107", "DTU-X", "DTU-Y"]],
    );
    assert.equal(none!.n, 0);
  });

  test("a collector the tenant has is reported as existing and left as it is; another tenant's code is refused", async () => {
    const before = await server.db.query<{ registration_secret: string; collector_name: string }>(
      "select registration_secret, collector_name from pms_collector where tenant_id = $1 and collector_code = $2",
      [tenant.tenantId, CONCENTRATOR],
    );
    // English headers, as the topology sheets take them too.
    const file = await workbook({
      Collectors: [
        ["Collector code", "Collector name", "Collector type", "Terminal address", "Password"],
        [CONCENTRATOR, "改名", "Concentrator", "3401-0102", "FEDCBA9876543210FEDCBA9876543210"],
        ["", "2号楼 集中器", "concentrator", "3401 0201", "abcdefgh01234567"],
      ],
    });
    const answer = await upload("import", file);
    assert.deepEqual([answer.imported, answer.unchanged, answer.rejected], [2, 1, 0], JSON.stringify(answer));
    assert.deepEqual(answer.existingCollectors, [CONCENTRATOR]);
    assert.equal(answer.creates.collectors, 1);
    const after = await server.db.query<{ registration_secret: string; collector_name: string }>(
      "select registration_secret, collector_name from pms_collector where tenant_id = $1 and collector_code = $2",
      [tenant.tenantId, CONCENTRATOR],
    );
    assert.deepEqual(after, before);
    const directory = new DbMeterDirectory(server.db, new FieldCipher(server.dataKey), 60_000);
    assert.equal(
      concentratorPassword((await directory.credentialsOf("34010201"))?.secret),
      concentratorPassword("abcdefgh01234567"),
    );

    const admin = (await server.login()).access_token;
    const other = await provisionTenant(server, admin, "另一园区");
    const foreign = await upload(
      "import",
      await workbook({ 采集器: [COLLECTOR_HEADER, ["", "抢注", "集中器", "3401-0102", PASSWORD, ""]] }),
      other.token,
    );
    assert.deepEqual([foreign.imported, foreign.rejected], [0, 1]);
    const sheets = await rejectedSheets(foreign.rejectedFile);
    assert.match(sheets.采集器![0]!.失败原因!, /^采集器注册码: 注册码 \[34010102\] 已存在$/);
  });

  test("a room sheet without the new column or sheet imports as before", async () => {
    const file = await workbook({
      房间档案: [
        ["区域路径", "房间名称", "电表表号", "采集器注册码"],
        ["集中器园区/3号楼", "301", "700000000301", CONCENTRATOR],
      ],
    });
    const answer = await upload("import", file);
    assert.deepEqual([answer.imported, answer.rejected], [1, 0]);
    assert.deepEqual(answer.creates, { areas: 1, rooms: 1, owners: 0, meters: 1, waters: 0, links: 1 });
    assert.equal("existingCollectors" in answer, false);
    assert.deepEqual(
      (await meters(["700000000301"])).map((m) => [m.protocol, m.collector_code]),
      [["dlt645_2007", CONCENTRATOR]],
    );
  });

  test("the template carries 电表规约 and a 采集器 sheet with notes", async () => {
    const res = await server.inject({
      method: "GET",
      url: "/api/blade-pms/room/import-template",
      headers: { "blade-auth": `bearer ${tenant.token}` },
    });
    assert.equal(res.statusCode, 200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const rooms = book.worksheets[0]!;
    const header = (rooms.getRow(1).values as unknown[]).slice(1);
    const example = (rooms.getRow(2).values as unknown[]).slice(1);
    assert.equal(example[header.indexOf("电表规约")], "DL/T 645-2007");
    const sheet = book.getWorksheet("采集器");
    assert.ok(sheet);
    assert.deepEqual((sheet.getRow(1).values as unknown[]).slice(1), [
      ...COLLECTOR_HEADER,
      "Modbus TCP 地址",
    ]);
    const notes: string[] = [];
    book.getWorksheet("填写说明")!.eachRow((row) => {
      notes.push((row.values as unknown[]).slice(1).join(" | "));
    });
    assert.ok(notes.some((n) => n.startsWith("电表规约 | ")));
    assert.ok(
      notes.some((n) =>
        /^电表规约可选值 \| DL\/T 645-2007、DL\/T 645-1997、DL\/T 698\.45、Modbus-RTU、Modbus TCP$/.test(n),
      ),
      notes.join("\n"),
    );
    for (const column of COLLECTOR_HEADER)
      assert.ok(
        notes.some((n) => n.startsWith(`采集器: ${column} | `)),
        column,
      );
    assert.ok(notes.some((n) => n.startsWith("采集器类型可选值 | DTU、集中器")));
  });
});

/**
 * Registry import benchmark: one sheet of 10,000 rooms in a realistic area tree (parks → buildings
 * → units → floors), each room with an owner, an electric meter and a water meter on its building's
 * DTU, imported into a file-backed embedded PGlite that was migrated and seeded as `npm start` does.
 * Times each phase of the service (parse, preview, import) and then the whole HTTP call into a
 * fresh tenant (upload to answer), and a second import of the same file (everything reused).
 *   tsx bench/registry-import.ts [--rows 10000]
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import ExcelJS from "exceljs";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../apps/server/src/app.ts";
import { FieldCipher } from "../apps/server/src/crud/field-cipher.ts";
import { openDb } from "../apps/server/src/db/client.ts";
import { migrate } from "../apps/server/src/db/migrate.ts";
import { seed } from "../apps/server/src/db/seed.ts";
import type { CurrentUser } from "../apps/server/src/modules/auth/current-user.ts";
import { md5Hex } from "../apps/server/src/modules/auth/password.ts";
import { IMPORT_COLUMNS, type RowText } from "../apps/server/src/modules/pms-import/import-columns.ts";
import { readImportSheet } from "../apps/server/src/modules/pms-import/import-sheet.ts";
import { previewImport, runImport } from "../apps/server/src/modules/pms-import/registry-import.ts";

const { values } = parseArgs({ options: { rows: { type: "string", default: "10000" } } });
const ROWS = Number(values.rows);
const TIME_ZONE = "Asia/Shanghai";
const ADMIN_PASSWORD = "bench-admin";
/** 2 parks × 10 buildings × 2 units × 25 floors × 10 rooms = 10,000 rooms. */
const TREE = { parks: 2, buildings: 10, units: 2, floors: 25, rooms: 10 };
const ROOMS_PER_BUILDING = TREE.units * TREE.floors * TREE.rooms;
const BUILDINGS = TREE.parks * TREE.buildings;

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
const line = (what: string, ms: number, rows?: number) =>
  console.log(
    `${what.padEnd(52)} ${(ms / 1000).toFixed(2).padStart(7)} s${rows ? `   ${String(Math.round(rows / (ms / 1000))).padStart(6)} rows/s` : "".padEnd(17)}   RSS ${mib(process.memoryUsage().rss)}`,
  );
async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - start };
}

function row(i: number, collectorPrefix: string): RowText {
  const building = Math.floor(i / ROOMS_PER_BUILDING);
  const inBuilding = i % ROOMS_PER_BUILDING;
  const unit = Math.floor(inBuilding / (TREE.floors * TREE.rooms)) + 1;
  const floor = Math.floor((inBuilding % (TREE.floors * TREE.rooms)) / TREE.rooms) + 1;
  const room = (i % TREE.rooms) + 1;
  const park = Math.floor(building / TREE.buildings) + 1;
  return {
    areaPath: `第${park}园区/${(building % TREE.buildings) + 1}号楼/${unit}单元/${floor}层`,
    roomName: `${floor}${String(room).padStart(2, "0")}`,
    roomCode: `P${park}-B${building}-${unit}-${floor}${String(room).padStart(2, "0")}`,
    roomType: i % 10 === 0 ? "商铺" : "住宅",
    floorArea: (60 + (i % 80) + 0.5).toFixed(2),
    ownerName: `业主${i}`,
    ownerCode: `YZ${String(i).padStart(6, "0")}`,
    phone: `139${String(i).padStart(8, "0")}`,
    idCard: `11010119900101${String(i % 1000).padStart(3, "0")}X`,
    meterCode: `6${String(i).padStart(11, "0")}`,
    waterCode: `7${String(i).padStart(13, "0")}`,
    collectorCode: `${collectorPrefix}${String(building).padStart(3, "0")}`,
    channel: String((i % 4) + 1),
    chargingScheme: "居民电价,居民水价",
    alarmScheme: "",
  };
}

/** The sheet of `rows` rooms; collector codes are unique across tenants, so each tenant has its own prefix. */
async function sheetOf(rows: number, collectorPrefix: string): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet("房间档案");
  sheet.addRow(IMPORT_COLUMNS.map((c) => c.header));
  for (let i = 0; i < rows; i++) {
    const r = row(i, collectorPrefix);
    sheet.addRow(IMPORT_COLUMNS.map((c) => r[c.key]));
  }
  return Buffer.from(await book.xlsx.writeBuffer());
}

/** A multipart body with the sheet in the `file` field, as the console uploads it. */
function upload(content: Buffer) {
  const boundary = "----meterline-bench";
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="rooms.xlsx"\r\n\r\n`;
  return {
    payload: Buffer.concat([Buffer.from(head), content, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
  };
}

const BASIC = `Basic ${Buffer.from("saber:saber_secret").toString("base64")}`;
async function login(app: FastifyInstance, tenantId: string, password: string): Promise<string> {
  const res = await app.inject({
    method: "POST",
    url: "/api/blade-auth/oauth/token",
    query: { tenantId, username: "admin", password: md5Hex(password), grant_type: "password", scope: "all" },
    headers: { authorization: BASIC, "tenant-id": tenantId },
  });
  if (res.statusCode !== 200) throw new Error(`login to ${tenantId} failed: ${res.body}`);
  return res.json().access_token;
}
async function call(app: FastifyInstance, token: string, url: string, payload: Record<string, unknown>) {
  const res = await app.inject({
    method: "POST",
    url,
    payload,
    headers: { authorization: BASIC, "blade-auth": `bearer ${token}` },
  });
  if (res.statusCode !== 200) throw new Error(`${url} failed: ${res.body}`);
  return res.json().data;
}

/** What an operator registers before importing: a DTU per building and the two price schemes. */
async function registerBasics(app: FastifyInstance, token: string, codePrefix: string) {
  for (let b = 0; b < BUILDINGS; b++) {
    await call(app, token, "/api/blade-pms/collector/submit", {
      collectorName: `${b + 1}号楼 DTU`,
      collectorCode: `${codePrefix}${String(b).padStart(3, "0")}`,
    });
  }
  await call(app, token, "/api/blade-pms/chargingscheme/submit", {
    schemeName: "居民电价",
    energyType: 1,
    priceMode: 1,
    price: "0.5883",
  });
  await call(app, token, "/api/blade-pms/chargingscheme/submit", {
    schemeName: "居民水价",
    energyType: 2,
    priceMode: 1,
    price: "3.20",
  });
}

async function main() {
  const dir = await mkdtemp(path.join(tmpdir(), "meterline-bench-import-"));
  const db = await openDb({ dataDir: path.join(dir, "data") });
  try {
    console.log(
      `node ${process.version}, ${availableParallelism()} cores, load average ${loadavg()[0]!.toFixed(1)} at start`,
    );
    console.log(
      `database: ${db.kind}, file-backed in ${dir}; ${ROWS} rows: ${TREE.parks} parks × ${TREE.buildings} buildings × ${TREE.units} units × ${TREE.floors} floors × ${TREE.rooms} rooms, each with an owner, an electric and a water meter`,
    );
    console.log(`RSS with the database open, before anything else: ${mib(process.memoryUsage().rss)}`);
    line(
      "migrate + seed",
      (await timed(() => migrate(db).then(() => seed(db, { adminPassword: ADMIN_PASSWORD })))).ms,
    );
    const dataKey = randomBytes(32).toString("hex");
    const cipher = new FieldCipher(dataKey);
    const app = await buildApp({
      db,
      config: {
        jwtSecret: randomBytes(32).toString("hex"),
        dataKey,
        captchaEnabled: false,
        timeZone: TIME_ZONE,
      },
    });
    const platform = await login(app, "000000", ADMIN_PASSWORD);
    await registerBasics(app, platform, "DTU-");

    const built = await timed(() => sheetOf(ROWS, "DTU-"));
    line(`build the sheet (${mib(built.value.length)} .xlsx, not part of the import)`, built.ms);

    const [admin] = await db.query<{ id: string }>(
      "select id::text from sys_user where tenant_id = '000000' and account = 'admin'",
    );
    const caller: CurrentUser = {
      userId: admin!.id,
      tenantId: "000000",
      account: "admin",
      userName: "admin",
      realName: "管理员",
      roleIds: ["1"],
      roleAliases: ["administrator"],
      deptIds: ["1"],
      postIds: [],
      clientId: "saber",
      sessionId: "",
      jti: "",
    };
    const parsed = await timed(() => readImportSheet(built.value));
    line("parse (readImportSheet)", parsed.ms, ROWS);
    const preview = await timed(() => previewImport(db, caller, parsed.value, TIME_ZONE));
    line("preview (load snapshot + plan, no writes)", preview.ms, ROWS);
    const imported = await timed(() => runImport(db, caller, parsed.value, TIME_ZONE, cipher));
    line("import (one transaction: plan + write)", imported.ms, ROWS);
    console.log(`  ${JSON.stringify(imported.value.creates)}, rejected ${imported.value.rejected}`);
    line("parse + import", parsed.ms + imported.ms, ROWS);

    // The acceptance figure: the whole HTTP call into a fresh tenant, upload to answer.
    const tenant = await call(app, platform, "/api/blade-system/tenant/submit", {
      tenantName: "基准租户",
      accountNumber: 10,
    });
    const tenantToken = await login(app, tenant.tenantId, tenant.password);
    await registerBasics(app, tenantToken, "T-DTU-");
    const body = upload(await sheetOf(ROWS, "T-DTU-"));
    const http = await timed(() =>
      app.inject({
        method: "POST",
        url: "/api/blade-pms/room/import",
        payload: body.payload,
        headers: { ...body.headers, "blade-auth": `bearer ${tenantToken}` },
      }),
    );
    const httpData = http.value.json().data;
    line("HTTP import into a fresh tenant (upload → answer)", http.ms, ROWS);
    console.log(
      `  status ${http.value.statusCode}, imported ${httpData.imported}, rejected ${httpData.rejected}`,
    );

    const again = await timed(() => runImport(db, caller, parsed.value, TIME_ZONE, cipher));
    line("import the same rows again (all reused)", again.ms, ROWS);
    console.log(`  unchanged ${again.value.unchanged}, created ${JSON.stringify(again.value.creates)}`);

    const rss = process.resourceUsage().maxRSS * 1024;
    console.log(`peak RSS ${mib(rss)}, CPU user ${(process.cpuUsage().user / 1e6).toFixed(1)} s`);
    const failed =
      imported.value.imported !== ROWS || httpData.imported !== ROWS || again.value.unchanged !== ROWS;
    if (failed) {
      console.error("not every row was imported: the figures above are not comparable");
      process.exitCode = 1;
    }
    await app.close();
  } finally {
    await db.close();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();

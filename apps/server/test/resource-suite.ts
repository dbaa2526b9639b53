import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  menuCodeOf,
  permissionCodes,
  type ResourceDef,
  resourceBase,
  resourcesZh,
  writePaths,
} from "@meterline/contracts";
import ExcelJS from "exceljs";
import { nextId } from "../src/db/ids.ts";
import { TenantRepository } from "../src/modules/tenant/tenant.repository.ts";
import { addRole, addTenant, addUser } from "./fixtures.ts";
import { startTestServer, type TestServer } from "./helpers.ts";
import { sampleBody, searchableText, serverRowColumns } from "./sample.ts";

/**
 * Resources whose writes carry domain rules are driven by their own module tests, as are the rows
 * the server creates (commands: operation-records.test.ts), which nobody adds by hand.
 */
const engineWrites = (def: ResourceDef) => !def.readOnly && !def.moduleWrites && !def.rowsCreatedByServer;

/**
 * Plain resources driven through their routes by their definitions alone: create, list with search
 * and paging, detail, update, remove, bulk remove, validation, permissions and tenant isolation.
 * resources.test.ts runs it over every resource; a generated resource's own test over itself.
 */
export function describePlainResources(defs: readonly ResourceDef[]) {
  describe("plain resources", () => {
    let server: TestServer;
    let admin: string;
    let otherTenant: string;
    let noGrants: string;

    /** A user of `tenantId` whose role holds the resource's menu and every button of it. */
    async function grantedUser(def: ResourceDef, tenantId: string): Promise<string> {
      // Resources guarded for admins are granted to a tenant administrator, as the contract's guards want.
      const role = await addRole(server.db, tenantId, def.guard === "admin" ? "admin" : `r${nextId()}`);
      const codes = [menuCodeOf(def), ...Object.values(permissionCodes(def))];
      await server.db.query(
        `insert into sys_role_menu (id, menu_id, role_id)
       select (select max(id) from sys_role_menu) + row_number() over () + 100000, m.id, $2
         from sys_menu m where m.code = any($1) and m.is_deleted = 0`,
        [codes, role],
      );
      const account = `u${nextId()}`;
      await addUser(server.db, { tenantId, account, password: "pw-test", roleIds: [role] });
      return (await server.login(account, "pw-test", tenantId)).access_token;
    }

    before(async () => {
      server = await startTestServer();
      admin = (await server.login()).access_token;
      await addTenant(server.db, "400001");
      // A provisioned tenant has its own business dictionaries; the registry's fields select from them.
      await new TenantRepository(server.db).copyBusinessDictionaries("400001");
      const bare = await addRole(server.db, "000000", "bare");
      await server.db.query("insert into sys_role_menu (id, menu_id, role_id) values ($1, 101, $2)", [
        nextId(),
        bare,
      ]);
      await addUser(server.db, { tenantId: "000000", account: "bare", password: "pw-bare", roleIds: [bare] });
      noGrants = (await server.login("bare", "pw-bare")).access_token;
    });
    after(() => server.close());

    for (const def of defs) {
      describe(def.name, () => {
        const base = resourceBase(def);
        const paths = writePaths(def);
        const [createPath, updatePath, removePath] = [paths.create, paths.update, paths.remove].map(
          (verb) => `${base}/${verb}`,
        ) as [string, string, string];
        const create = async (token: string, seed: string, tenantId = "000000") => {
          const res = await server.call(
            "POST",
            createPath,
            token,
            await sampleBody(server.db, def, seed, tenantId),
          );
          assert.equal(res.statusCode, 200, res.body);
          return res.json().data.id as string;
        };
        const detail = (token: string, id: string) => server.call("GET", `${base}/detail?id=${id}`, token);
        const listAll = async (token: string, query = "") =>
          (await server.call("GET", `${base}/${def.listVerb}?current=1&size=200${query}`, token)).json().data;

        test("menu and every button of the resource are seeded", async () => {
          const all = permissionCodes(def);
          const buttons = def.readOnly
            ? [all.view, all.exportRows]
            : Object.values(all).filter(
                (c) => c !== all.importRows && !(def.rowsCreatedByServer && c === all.add),
              );
          const codes = [menuCodeOf(def), ...buttons];
          const rows = await server.db.query<{ code: string }>(
            "select code from sys_menu where code = any($1) and is_deleted = 0",
            [codes],
          );
          assert.deepEqual(rows.map((r) => r.code).sort(), codes.sort());
        });

        test("server-written rows: list, detail, no write routes, tenant isolation", {
          skip: !def.readOnly,
        }, async () => {
          const mine = nextId();
          const theirs = nextId();
          // Columns the table requires besides the id and tenant (the command log's own schema).
          const required = serverRowColumns[def.name] ?? {};
          const columns = Object.keys(required);
          const values = Object.values(required);
          const more = (first: number) => columns.map((_, i) => `, $${first + i}`).join("");
          await server.db.query(
            `insert into ${def.table} (id, tenant_id${columns.map((c) => `, ${c}`).join("")})
           values ($1, '000000'${more(3)}), ($2, '400001'${more(3)})`,
            [mine, theirs, ...values],
          );
          const listed = await listAll(admin);
          assert.ok(listed.records.some((r: { id: string }) => r.id === mine));
          assert.equal((await detail(admin, mine)).json().data.id, mine);
          // The reading logs take audited corrections (their own routes): not the engine's plain writes.
          const corrected = def.name === "dataRead" || def.name === "waterDataRead";
          // A day's usage is recomputed from its reads (submit), never removed. Write calls the
          // definition refuses by design answer 400 with their reason (refusedWrites); others 404.
          const refused = def.refusedWrites ?? {};
          const submitStatus = corrected || def.name === "dataDaily" || refused.submit ? 400 : 404;
          assert.equal((await server.call("POST", `${base}/submit`, admin, {})).statusCode, submitStatus);
          const removeStatus = corrected || refused.remove ? 400 : 404;
          assert.equal(
            (await server.call("POST", `${base}/remove?ids=${mine}`, admin)).statusCode,
            removeStatus,
          );
          assert.equal((await server.call("GET", `${base}/${def.listVerb}`, noGrants)).statusCode, 403);
          otherTenant = await grantedUser(def, "400001");
          assert.equal((await detail(otherTenant, mine)).statusCode, 404);
          const seen = (await listAll(otherTenant)).records.map((r: { id: string }) => r.id);
          assert.ok(seen.includes(theirs) && !seen.includes(mine));
        });

        test("create, search, page, detail, update, remove and bulk remove", {
          skip: !engineWrites(def),
        }, async () => {
          const seed = `s${nextId().slice(-6)}`;
          const first = await create(admin, `${seed}a`);
          const second = await create(admin, `${seed}b`);
          const third = await create(admin, `${seed}c`);
          assert.match(first, /^\d+$/);

          const one = (await detail(admin, first)).json();
          assert.equal(one.code, 200);
          assert.equal(one.data.id, first);

          if (!def.tree) {
            const paged = (await server.call("GET", `${base}/${def.listVerb}?current=1&size=1`, admin)).json()
              .data;
            assert.equal(paged.records.length, 1);
            assert.ok(paged.total >= 3);
            assert.equal(paged.size, 1);
            const field = searchableText(def);
            if (field) {
              const found = await listAll(admin, `&${field}=${encodeURIComponent(`${seed}a`)}`);
              assert.deepEqual(
                found.records.map((r: { id: string }) => r.id),
                [first],
              );
            }
          }

          const field = searchableText(def) ?? Object.keys(def.fields)[0]!;
          const changed = await sampleBody(server.db, def, `${seed}z`);
          const update = await server.call("POST", updatePath, admin, { ...changed, id: first });
          assert.equal(update.statusCode, 200, update.body);
          const after = (await detail(admin, first)).json().data;
          if (!def.fields[field]!.readOnlyOnEdit) assert.equal(after[field], changed[field]);

          const removed = await server.call("POST", `${removePath}?ids=${first}`, admin);
          assert.equal(removed.json().success, true);
          assert.equal((await detail(admin, first)).statusCode, 404);
          const bulk = await server.call("POST", `${removePath}?ids=${second},${third}`, admin);
          assert.equal(bulk.json().success, true);
          assert.equal((await detail(admin, second)).statusCode, 404);
          assert.equal((await detail(admin, third)).statusCode, 404);
        });

        test("export gives the current search as an Excel sheet with labelled columns", async () => {
          const res = await server.call("GET", `${base}/export`, admin);
          assert.equal(res.statusCode, 200, res.body.slice(0, 200));
          assert.match(String(res.headers["content-type"]), /spreadsheetml/);
          const book = new ExcelJS.Workbook();
          await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
          const sheet = book.worksheets[0]!;
          const labels = (resourcesZh as Record<string, { fields: Record<string, string> }>)[def.name]!;
          const firstListed = Object.entries(def.fields).find(([, f]) => f.list !== false && !f.secret)![0];
          assert.ok((sheet.getRow(1).values as unknown[]).includes(labels.fields[firstListed]));
          assert.equal((await server.call("GET", `${base}/export`, noGrants)).statusCode, 403);
        });

        test("updating an id that does not exist answers not found", {
          skip: !engineWrites(def),
        }, async () => {
          const body = await sampleBody(server.db, def, `n${nextId().slice(-6)}`);
          const res = await server.call("POST", updatePath, admin, { ...body, id: "123456789" });
          assert.equal(res.statusCode, 404);
          assert.equal(res.json().success, false);
        });

        test("a required field left empty is refused with its name", {
          skip: !engineWrites(def),
        }, async () => {
          const required = Object.entries(def.fields).find(([, f]) => f.required && f.default === undefined);
          if (!required) return;
          const body = await sampleBody(server.db, def, `q${nextId().slice(-6)}`);
          const res = await server.call("POST", createPath, admin, { ...body, [required[0]]: "" });
          assert.equal(res.statusCode, 400);
          assert.match(res.json().msg, new RegExp(`^${required[0]}: `));
        });

        test("a duplicate unique value is refused with a clear message", {
          skip: !engineWrites(def),
        }, async () => {
          const unique = Object.entries(def.fields).find(([, f]) => f.unique);
          if (!unique) return;
          const body = await sampleBody(server.db, def, `d${nextId().slice(-6)}`);
          assert.equal((await server.call("POST", createPath, admin, body)).statusCode, 200);
          const res = await server.call("POST", createPath, admin, body);
          assert.equal(res.statusCode, 400);
          assert.match(res.json().msg, /^\w+: .*已存在/);
        });

        test("without the permission codes, list and writes are refused", {
          skip: !engineWrites(def),
        }, async () => {
          assert.equal((await server.call("GET", `${base}/${def.listVerb}`, noGrants)).statusCode, 403);
          const body = await sampleBody(server.db, def, `p${nextId().slice(-6)}`);
          const res = await server.call("POST", createPath, noGrants, body);
          assert.equal(res.statusCode, 403);
          assert.equal(res.json().code, 403);
          assert.equal((await server.call("POST", `${removePath}?ids=1`, noGrants)).statusCode, 403);
        });

        test("another tenant cannot read, change or delete a row by id", {
          skip: !def.tenantScoped || !engineWrites(def),
        }, async () => {
          const mine = await create(admin, `x${nextId().slice(-6)}`);
          otherTenant = await grantedUser(def, "400001");
          assert.equal((await detail(otherTenant, mine)).statusCode, 404);
          const body = await sampleBody(server.db, def, `y${nextId().slice(-6)}`);
          const update = await server.call("POST", updatePath, otherTenant, { ...body, id: mine });
          assert.equal(update.statusCode, 404);
          const remove = await server.call("POST", `${removePath}?ids=${mine}`, otherTenant);
          assert.equal(remove.statusCode, 404);
          const list = await listAll(otherTenant);
          const rows = (list.records ?? list) as { id: string }[];
          assert.ok(!rows.some((r) => r.id === mine));
          // The row is untouched.
          assert.equal((await detail(admin, mine)).json().data.id, mine);
          // The other tenant's own rows land in its own tenant.
          const theirs = await create(otherTenant, `w${nextId().slice(-6)}`, "400001");
          const [row] = await server.db.query<{ tenant_id: string }>(
            `select tenant_id from ${def.table} where id = $1`,
            [theirs],
          );
          assert.equal(row?.tenant_id, "400001");
        });
      });
    }
  });
}

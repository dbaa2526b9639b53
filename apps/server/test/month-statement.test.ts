import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { DEMO_TENANT_ID, seedDemoSite } from "../src/demo/demo-site.ts";
import { priceReading } from "../src/modules/money/usage-pricing.ts";
import { ADMIN_PASSWORD, startTestServer, type TestServer } from "./helpers.ts";
import { get } from "./registry-fixtures.ts";

const DAY = 86_400_000;
const localDay = (at: number) => new Date(at + 8 * 3_600_000).toISOString().slice(0, 10);
const fen = (yuan: string) => {
  const negative = yuan.startsWith("-");
  const [whole, fraction = ""] = yuan.replace("-", "").split(".");
  const value = BigInt(whole!) * 100n + BigInt(fraction.padEnd(2, "0"));
  return negative ? -value : value;
};

interface AccountRow {
  accountId: string;
  energyType: number;
  openingBalance: string;
  deposit: string;
  recharge: string;
  refund: string;
  correction: string;
  usageCorrection: string;
  usage: string;
  usageCharge: string;
  fee: string;
  closingBalance: string;
}
type Totals = Omit<AccountRow, "accountId" | "energyType" | "usage"> & {
  accounts: number;
  balanced: boolean;
  usage: { energyType: number; part: string; usage: string; charge: string }[];
  accountPage: { records: AccountRow[]; total: number };
};

/** opening + in − out, in fen: what the closing balance must be. */
const expectedClosing = (r: Omit<AccountRow, "accountId" | "energyType" | "usage">) =>
  fen(r.openingBalance) +
  fen(r.deposit) +
  fen(r.recharge) -
  fen(r.refund) +
  fen(r.correction) +
  fen(r.usageCorrection) -
  fen(r.usageCharge) -
  fen(r.fee);

describe("monthly statements of the demo site's 60 days equal the ledger", () => {
  let server: TestServer;
  let token: string;
  let months: string[];
  before(async () => {
    server = await startTestServer();
    assert.equal(await seedDemoSite(server.db, { adminPassword: ADMIN_PASSWORD }), true);
    token = (await server.login("admin", ADMIN_PASSWORD, DEMO_TENANT_ID)).access_token;
    const [tenant] = await server.db.query<{ since: Date | string }>(
      "select create_time as since from sys_tenant where tenant_id = $1",
      [DEMO_TENANT_ID],
    );
    const startsAt = new Date(tenant!.since).getTime();
    const days = Array.from({ length: 61 }, (_, n) => localDay(startsAt - n * DAY));
    months = [...new Set(days.map((d) => d.slice(0, 7)))].sort();
  });
  after(() => server.close());

  const statement = (month: string, scope: string, scopeId = "") =>
    get(
      server,
      token,
      `statement/month?month=${month}&scope=${scope}${scopeId ? `&scopeId=${scopeId}` : ""}&size=500`,
    ) as Promise<Totals>;

  /** The ledger's own figures for each account and a month, read straight from pms_ledger. */
  const ledgerOf = (month: string) =>
    server.db.query<{
      id: string;
      opening: string;
      closing: string;
      charge: string;
      parts: string;
      entries: number;
    }>(
      `with b as (select ($1::date::timestamp at time zone 'Asia/Shanghai') as s,
                         (($1::date + interval '1 month')::timestamp at time zone 'Asia/Shanghai') as e)
       select a.id::text as id,
              coalesce((select sum(l.amount) from pms_ledger l where l.account_id = a.id and l.create_time < b.s), 0)::text as opening,
              coalesce((select sum(l.amount) from pms_ledger l where l.account_id = a.id and l.create_time < b.e), 0)::text as closing,
              coalesce((select -sum(l.amount) from pms_ledger l where l.account_id = a.id and l.entry_type = 6
                          and l.create_time >= b.s and l.create_time < b.e), 0)::text as charge,
              (coalesce((select sum(p.charge) from pms_ledger_part p where p.account_id = a.id
                           and p.create_time >= b.s and p.create_time < b.e), 0)
               + coalesce((select -sum(l.amount) from pms_ledger l where l.account_id = a.id and l.part is not null
                             and l.create_time >= b.s and l.create_time < b.e), 0))::text as parts,
              (select count(*) from pms_ledger l where l.account_id = a.id and l.create_time >= b.s and l.create_time < b.e)::int as entries
         from pms_account a, b where a.tenant_id = $2 order by a.id`,
      [`${month}-01`, DEMO_TENANT_ID],
    );

  test("every account, every month: opening + in − out = closing, each figure as its ledger says", async () => {
    // 60 days cross at least one month's end (two months when they start on a 1st, three otherwise).
    assert.ok(months.length >= 2, `the 60 days span ${months}`);
    let checked = 0;
    for (const month of months) {
      const site = await statement(month, "site");
      const ledger = new Map((await ledgerOf(month)).map((r) => [r.id, r]));
      const rows = site.accountPage.records;
      assert.equal(site.accountPage.total, rows.length, "every account on the one page");
      for (const row of rows) {
        const own = ledger.get(row.accountId)!;
        assert.equal(fen(row.openingBalance), BigInt(own.opening), `${month} ${row.accountId} opening`);
        assert.equal(fen(row.closingBalance), BigInt(own.closing), `${month} ${row.accountId} closing`);
        assert.equal(fen(row.usageCharge), BigInt(own.charge), `${month} ${row.accountId} usage charge`);
        assert.equal(
          BigInt(own.parts),
          BigInt(own.charge),
          `${month} ${row.accountId}: the parts are the charge`,
        );
        assert.equal(expectedClosing(row), fen(row.closingBalance), `${month} ${row.accountId} adds up`);
        checked++;
      }
      // Accounts left out would have moved money the statement does not show.
      const moved = [...ledger.values()].filter((r) => Number(r.entries) > 0).map((r) => r.id);
      const listed = new Set(rows.map((r) => r.accountId));
      assert.deepEqual(
        moved.filter((id) => !listed.has(id)),
        [],
        `${month}: every account with entries is listed`,
      );

      // The site's lines are its accounts' sums, and add up themselves.
      assert.equal(site.balanced, true, month);
      assert.equal(expectedClosing(site), fen(site.closingBalance), month);
      for (const key of [
        "openingBalance",
        "recharge",
        "refund",
        "usageCharge",
        "fee",
        "closingBalance",
      ] as const)
        assert.equal(
          fen(site[key]),
          rows.reduce((sum, r) => sum + fen(r[key]), 0n),
          `${month} ${key}`,
        );
      // Usage by tier and band: each energy's parts add up to its subtotal, which is the usage charged.
      for (const energyType of [1, 2]) {
        const lines = site.usage.filter((u) => u.energyType === energyType);
        const subtotal = lines.find((u) => u.part === "total")!;
        const parts = lines.filter((u) => u.part !== "total");
        assert.ok(parts.length > 0, `${month} energy ${energyType} has parts`);
        assert.ok(!parts.some((u) => u.part === "unsplit"), "every demo charge is split");
        assert.equal(
          parts.reduce((sum, u) => sum + fen(u.charge), 0n),
          fen(subtotal.charge),
        );
        assert.equal(
          parts.reduce((sum, u) => sum + fen(u.usage), 0n),
          fen(subtotal.usage),
        );
      }
      assert.equal(
        site.usage.filter((u) => u.part === "total").reduce((sum, u) => sum + fen(u.charge), 0n),
        fen(site.usageCharge),
      );
    }
    assert.ok(checked >= 200 * months.length, `${checked} account-months`);
  });

  test("the ladder's tiers and the time-of-use bands are both among the parts", async () => {
    const parts = new Set<string>();
    for (const month of months) for (const u of (await statement(month, "site")).usage) parts.add(u.part);
    for (const part of ["tier1", "tip", "peak", "peace", "low", "flat"])
      assert.ok(parts.has(part), `${part} in ${[...parts]}`);
  });

  test("the buildings' statements add up to the site's; an owner's and a room's to their accounts'", async () => {
    const month = months.at(-2)!;
    const site = await statement(month, "site");
    const buildings = await server.db.query<{ id: string }>(
      "select id::text as id from pms_area where tenant_id = $1 and area_type = 2 and is_deleted = 0",
      [DEMO_TENANT_ID],
    );
    assert.ok(buildings.length >= 4);
    const each = await Promise.all(buildings.map((b) => statement(month, "building", b.id)));
    for (const key of [
      "openingBalance",
      "recharge",
      "refund",
      "correction",
      "usageCharge",
      "fee",
      "closingBalance",
    ] as const)
      assert.equal(
        each.reduce((sum, b) => sum + fen(b[key]), 0n),
        fen(site[key]),
        key,
      );
    assert.equal(
      each.reduce((n, b) => n + b.accounts, 0),
      site.accounts,
    );
    const row = site.accountPage.records[0]!;
    const [account] = await server.db.query<{ owner_id: string; room_id: string }>(
      "select owner_id::text, room_id::text from pms_account where id = $1",
      [row.accountId],
    );
    const one = await statement(month, "account", row.accountId);
    assert.equal(one.closingBalance, row.closingBalance);
    assert.equal(one.accounts, 1);
    const owner = await statement(month, "owner", account!.owner_id);
    assert.ok(owner.accountPage.records.some((r) => r.accountId === row.accountId));
    const room = await statement(month, "room", account!.room_id);
    assert.equal(room.balanced, true);
  });

  test("a closed month agrees with the daily close: its first day's opening and last day's closing", async () => {
    const month = months.at(-2)!;
    const site = await statement(month, "site");
    const [close] = await server.db.query<{ opening: string; closing: string }>(
      `select sum(opening_balance) filter (where day = $1::date)::text as opening,
              sum(closing_balance) filter (where day = ($1::date + interval '1 month' - interval '1 day')::date)::text as closing
         from pms_account_day where tenant_id = $2`,
      [`${month}-01`, DEMO_TENANT_ID],
    );
    assert.equal(fen(site.openingBalance), BigInt(close!.opening));
    assert.equal(fen(site.closingBalance), BigInt(close!.closing));
  });

  test("the recharge report keeps income, refunds and the net apart: refunds are never income", async () => {
    const res = await server.call("POST", "/api/blade-report/report/rest/run", token, {
      definition: {
        dataset: "recharges",
        groupBy: ["month"],
        measures: [
          { column: "income", fn: "sum" },
          { column: "refund", fn: "sum" },
          { column: "amount", fn: "sum" },
        ],
        filters: [],
        chart: "table",
      },
    });
    assert.equal(res.statusCode, 200, res.body);
    const rows = res.json().data.rows as { g0: string; m0: string; m1: string; m2: string }[];
    const expected = await server.db.query<{ month: string; income: string; refund: string; net: string }>(
      `select to_char(create_time at time zone 'Asia/Shanghai', 'YYYY-MM') as month,
              coalesce(sum(amount) filter (where recharge_type = 1), 0)::text as income,
              coalesce(sum(amount) filter (where recharge_type = 2), 0)::text as refund,
              sum(case when recharge_type in (2, 4) then -amount else amount end)::text as net
         from pms_recharge where tenant_id = $1 and state = 1 group by 1 order by 1`,
      [DEMO_TENANT_ID],
    );
    assert.ok(
      expected.some((e) => BigInt(e.refund) > 0n),
      "the demo has refunds",
    );
    assert.deepEqual(
      rows.map((r) => [r.g0, fen(r.m0), fen(r.m1), fen(r.m2)]),
      expected.map((e) => [e.month, BigInt(e.income), BigInt(e.refund), BigInt(e.net)]),
    );
  });

  test("a reading priced live writes its charge's split, adding up to the fen booked", async () => {
    const accounts = await server.db.query<{
      id: string;
      meter_id: string;
      priced_time: Date;
      register_tip: string;
      register_peak: string;
      register_peace: string;
      register_low: string;
    }>(
      `select a.id::text as id, a.meter_id::text as meter_id, a.priced_time, a.register_tip::text as register_tip,
              a.register_peak::text as register_peak, a.register_peace::text as register_peace,
              a.register_low::text as register_low
         from pms_account a join pms_charging_scheme c on c.id = a.charging_scheme_id
        where a.tenant_id = $1 and a.status = 1 and a.control_status = 1 and a.energy_type = 1
          and c.price_mode in (2, 3) and a.register_tip is not null
        order by c.price_mode, a.id`,
      [DEMO_TENANT_ID],
    );
    // A ladder account (price_mode 2) and a time-of-use one (3).
    for (const account of [accounts[0]!, accounts.at(-1)!]) {
      // 12.34 kWh more in every band since the last priced reading.
      const bands = ["tip", "peak", "peace", "low"] as const;
      const raw = bands.map((b) => BigInt(account[`register_${b}`]) + 1234n);
      const text = (units: bigint) => `${units / 100n}.${String(units % 100n).padStart(2, "0")}`;
      const total = raw.reduce((a, b) => a + b, 0n);
      await priceReading(
        server.db,
        {
          tenantId: DEMO_TENANT_ID,
          energyType: 1,
          meterId: account.meter_id,
          at: new Date(new Date(account.priced_time).getTime() + 60_000),
          registers: {
            total: text(total),
            bands: Object.fromEntries(bands.map((b, i) => [b, text(raw[i]!)])),
          },
        },
        "Asia/Shanghai",
      );
      const [entry] = await server.db.query<{
        amount: string;
        usage: string;
        parts: string;
        part_usage: string;
      }>(
        `select l.amount::text as amount, l.usage::text as usage,
                case when l.part is not null then -l.amount
                     else (select sum(p.charge) from pms_ledger_part p where p.ledger_id = l.id) end::text as parts,
                case when l.part is not null then l.usage
                     else (select sum(p.usage) from pms_ledger_part p where p.ledger_id = l.id) end::text as part_usage
           from pms_ledger l where l.account_id = $1 and l.entry_type = 6 order by l.create_time desc, l.id desc limit 1`,
        [account.id],
      );
      assert.ok(BigInt(entry!.amount) < 0n, "charged");
      assert.equal(BigInt(entry!.parts), -BigInt(entry!.amount), `account ${account.id}`);
      assert.equal(entry!.part_usage, entry!.usage);
    }
  });

  test("bad input is refused naming the field; another tenant's building is not found", async () => {
    for (const [query, field] of [
      ["month=2026-13&scope=site", "month"],
      ["month=&scope=site", "month"],
      ["month=2026-01&scope=street", "scope"],
      ["month=2026-01&scope=building", "scopeId"],
      ["month=2026-01&scope=room&scopeId=abc", "scopeId"],
    ] as const) {
      const res = await server.call("GET", `/api/blade-pms/statement/month?${query}`, token);
      assert.equal(res.statusCode, 400, query);
      assert.match(res.json().msg, new RegExp(`\\b${field}\\b`), query);
    }
    const res = await server.call(
      "GET",
      "/api/blade-pms/statement/month?month=2026-01&scope=building&scopeId=123456789",
      token,
    );
    assert.equal(res.statusCode, 404);
  });
});

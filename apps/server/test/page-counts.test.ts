import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { resources } from "@meterline/contracts";
import { startTestServer, type TestServer } from "./helpers.ts";
import { buildSite, get } from "./registry-fixtures.ts";

interface ReadingsPage {
  records: { meterId: string; meterName: string; roomName: string }[];
  total: number;
  size: number;
  current: number;
  pages: number;
  totalExact?: boolean;
}

const CAP = (resources.dataRead.count as { bounded: number }).bounded;
/** More readings than one bounded count reaches; those of the site's meter are a few of them. */
const ROWS = CAP + 500;
const OF_THE_METER = 150;

describe("bounded counts of large tables, and labels read with the page", () => {
  let server: TestServer;
  let admin: string;
  let site: Awaited<ReturnType<typeof buildSite>>;
  const page = async (query: string) => (await get(server, admin, `dataread/page?${query}`)) as ReadingsPage;

  before(async () => {
    server = await startTestServer();
    admin = (await server.login()).access_token;
    site = await buildSite(server, admin);
    // The site's meter read in room 101 every minute; the rest from a meter of nowhere.
    await server.db.query(
      `insert into pms_data_read (id, tenant_id, meter_id, room_id, product_code, read_time, total_value)
       select 900000000 + g, '000000', case when g < $3 then $1::bigint else 1 end,
              case when g < $3 then $2::bigint else null end, '100000000101',
              timestamptz '2026-01-01' + g * interval '1 minute', g
         from generate_series(0, $4::int - 1) g`,
      [site.meter, site.room101, OF_THE_METER, ROWS],
    );
  });
  after(() => server.close());

  test("the unfiltered first page stops counting past the cap and says its total is a lower bound", async () => {
    const first = await page("current=1&size=10");
    assert.equal(first.records.length, 10);
    assert.equal(first.total, CAP + 1);
    assert.equal(first.totalExact, false);
    assert.equal(first.pages, Math.ceil((CAP + 1) / 10));
  });

  test("a page further on counts further, and the last one counts exactly", async () => {
    // Past the first bound, the total still reaches beyond the page the operator is on.
    const far = await page(`current=${CAP / 10 + 1}&size=10`);
    assert.equal(far.records.length, 10);
    assert.equal(far.total, ROWS);
    assert.equal(far.totalExact, true);
    const last = await page(`current=${ROWS / 10}&size=10`);
    assert.equal(last.records.length, 10);
    assert.equal(last.totalExact, true);
  });

  test("a filtered page counts exactly", async () => {
    const mine = await page(`current=1&size=10&meterId=${site.meter}`);
    assert.equal(mine.total, OF_THE_METER);
    assert.equal(mine.totalExact, true);
    assert.ok(mine.records.every((r) => r.meterId === site.meter));
  });

  test("resources counted exactly do not send the flag", async () => {
    const meters = (await get(server, admin, "meter/page?current=1&size=10")) as ReadingsPage;
    assert.equal(meters.total, 1);
    assert.equal("totalExact" in meters, false);
  });

  test("meter and room labels come with the page's rows, read by the page's own statement", async () => {
    const seen: string[] = [];
    const query = server.db.query.bind(server.db);
    server.db.query = ((text: string, values?: unknown[]) => {
      seen.push(text);
      return query(text, values);
    }) as typeof server.db.query;
    let mine: ReadingsPage;
    try {
      mine = await page(`current=1&size=10&meterId=${site.meter}`);
    } finally {
      server.db.query = query;
    }
    assert.equal(mine.records.length, 10);
    for (const row of mine.records) {
      assert.equal(row.meterName, "100000000101");
      assert.equal(row.roomName, "1号楼 101");
    }
    // No statement of its own for the labels: every one naming a meter or a room reads the readings.
    const labelQueries = seen.filter(
      (s) => /pms_meter"?\s|pms_room"?\s/.test(s) && !s.includes("pms_data_read"),
    );
    assert.deepEqual(labelQueries, []);
    // The count rides in the page's own statement: one round trip for the page and its total.
    const reads = seen.filter((s) => s.includes("pms_data_read"));
    assert.equal(reads.length, 1, "the page and its count in one statement");
    assert.match(reads[0]!, /count\(\*\)/);
  });

  test("a page past the last row still answers the total, and a search matching nothing answers 0", async () => {
    const beyond = await page(`current=${ROWS / 10 + 3}&size=10&meterId=${site.meter}`);
    assert.equal(beyond.records.length, 0);
    assert.equal(beyond.total, OF_THE_METER);
    const none = await page("current=1&size=10&meterId=4242");
    assert.equal(none.records.length, 0);
    assert.equal(none.total, 0);
  });

  test("rows of no room read an empty label", async () => {
    const rest = await page("current=1&size=10");
    const orphan = rest.records.find((r) => r.meterId === "1");
    assert.ok(orphan);
    assert.equal(orphan.roomName, "");
    assert.equal(orphan.meterName, "");
  });
});

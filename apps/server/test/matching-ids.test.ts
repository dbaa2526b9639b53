import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { provisionTenant } from "./fixtures.ts";
import { buildSite, created, get, useRegistrySuite } from "./registry-fixtures.ts";

/** "All N matching" batches: the ids of every meter a search matches, seen as the list sees them. */
describe("meter/matching-ids", () => {
  const suite = useRegistrySuite();

  test("answers the search's count and ids, within the caller's tenant only", async () => {
    const { server, admin, site } = suite;
    const second = await created(server, admin, "meter/save", {
      productCode: "100000000102",
      collectorId: site.collector,
      channel: 2,
    });
    const all = await get(server, admin, "meter/matching-ids");
    assert.equal(all.total, 2);
    assert.deepEqual([...all.ids].sort(), [site.meter, second].sort());
    const one = await get(server, admin, "meter/matching-ids?productCode=0102");
    assert.deepEqual(one, { total: 1, limit: one.limit, ids: [second], names: ["100000000102"] });
    assert.equal((await get(server, admin, "meter/matching-ids?productCode=nothing")).total, 0);
    // The list and the batch agree on what the search means.
    const page = await get(server, admin, "meter/page?productCode=0102");
    assert.equal(page.total, one.total);

    // Another tenant's search never names these meters.
    const other = await provisionTenant(server, admin, "匹配租户");
    const theirs = await buildSite(server, other.token, "T");
    const seen = await get(server, other.token, "meter/matching-ids");
    assert.deepEqual(seen.ids, [theirs.meter]);
    const water = await get(server, other.token, "water/matching-ids");
    assert.deepEqual(water.ids, [theirs.water]);
  });

  test("a user who may not see meters is refused", async () => {
    const { server } = suite;
    const res = await server.call("GET", "/api/blade-pms/meter/matching-ids", "not-a-token");
    assert.equal(res.statusCode, 401);
  });
});

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

  test("remove all matching: the ids of a search removed in one call, by the server's own rules", async () => {
    const { server, admin, site } = suite;
    const batch: string[] = [];
    for (const channel of [3, 4, 5])
      batch.push(
        await created(server, admin, "meter/save", {
          productCode: `55500000000${channel}`,
          collectorId: site.collector,
          channel,
        }),
      );
    const matching = await get(server, admin, "meter/matching-ids?productCode=5550");
    assert.equal(matching.total, 3);
    assert.deepEqual([...matching.ids].sort(), [...batch].sort());
    const remove = (token: string, ids: string[]) =>
      server.call("POST", "/api/blade-pms/meter/remove", token, { ids: ids.join(",") });

    // Another tenant sending these ids removes nothing of ours.
    const other = await provisionTenant(server, admin, "删除租户");
    await remove(other.token, matching.ids);
    assert.equal((await get(server, admin, "meter/matching-ids?productCode=5550")).total, 3);

    // One meter of the batch with an open account: the server refuses the whole call, naming it.
    await server.db.query("update pms_meter set account_status = 1 where id = $1", [batch[1]]);
    const refused = await remove(admin, matching.ids);
    assert.equal(refused.statusCode, 400, refused.body);
    assert.match(refused.json().msg, /555000000004/);
    assert.equal((await get(server, admin, "meter/matching-ids?productCode=5550")).total, 3);

    await server.db.query("update pms_meter set account_status = 0 where id = $1", [batch[1]]);
    const removed = await remove(admin, matching.ids);
    assert.equal(removed.statusCode, 200, removed.body);
    assert.equal((await get(server, admin, "meter/matching-ids?productCode=5550")).total, 0);
    // Only the search's rows went: the site's meter is still listed.
    assert.ok((await get(server, admin, "meter/matching-ids")).ids.includes(site.meter));
  });

  test("a user who may not see meters is refused", async () => {
    const { server } = suite;
    const res = await server.call("GET", "/api/blade-pms/meter/matching-ids", "not-a-token");
    assert.equal(res.statusCode, 401);
  });
});

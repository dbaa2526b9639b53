import assert from "node:assert/strict";
import { test } from "node:test";
import { searchHits } from "../src/layout/top/global-search/search-hits.ts";

test("the search's answer becomes one list in group order, each hit opening its detail page", () => {
  const hits = searchHits({
    rooms: [{ id: "11", roomName: "305", roomCode: "2-305", areaId: "3", path: "阳光公寓 / 2号楼 / 305" }],
    owners: [{ id: "21", ownerName: "王伟", ownerCode: "Y0001", phone: "13910000000", idCardTail: "002X" }],
    meters: [
      { id: "31", energyType: 1, productCode: "202600000001", meterName: "电表 1" },
      { id: "32", energyType: 2, productCode: "20260000000001", meterName: null },
    ],
    collectors: [{ id: "41", collectorCode: "DTU 01&x", collectorName: "1号楼 DTU 1" }],
  });
  assert.deepEqual(
    hits.map((h) => [h.kind, h.title, h.href]),
    [
      ["room", "阳光公寓 / 2号楼 / 305", "/pms/room/detail/11"],
      ["owner", "王伟", "/pms/owner/detail/21"],
      ["meter", "202600000001", "/pms/meter/detail/31"],
      ["meter", "20260000000001", "/pms/water/detail/32"],
      ["collector", "1号楼 DTU 1", "/pms/collector?collectorCode=DTU+01%26x"],
    ],
  );
  assert.equal(hits[1]!.detail, "13910000000 · Y0001 · …002X");
  assert.deepEqual(
    hits.map((h) => h.tag),
    [undefined, undefined, "globalSearch.electric", "globalSearch.water", undefined],
  );
  assert.equal(new Set(hits.map((h) => h.key)).size, hits.length, "keys are unique");
});

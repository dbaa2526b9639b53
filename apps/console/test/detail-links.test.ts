import assert from "node:assert/strict";
import { test } from "node:test";
import { detailLinkOf } from "../src/pages/detail/detail-links.tsx";
import { detailPath, parseDetailPath } from "../src/pages/detail/detail-paths.ts";

test("a detail address names its kind and id, and nothing else is one", () => {
  assert.deepEqual(parseDetailPath("/pms/room/detail/123"), { kind: "room", id: "123" });
  assert.deepEqual(parseDetailPath(detailPath("water", "9")), { kind: "water", id: "9" });
  for (const path of [
    "/pms/room",
    "/pms/room/detail/",
    "/pms/room/detail/1/x",
    "/pms/area/detail/1",
    "/pms/room/detail/abc",
  ])
    assert.equal(parseDetailPath(path), null, path);
});

test("room, owner and meter cells link to their pages; other cells do not", () => {
  // A screen's own rows open by their id.
  assert.equal(detailLinkOf("room", "roomName", { id: "7" }), "/pms/room/detail/7");
  assert.equal(detailLinkOf("water", "productCode", { id: "8" }), "/pms/water/detail/8");
  assert.equal(detailLinkOf("meter", "meterName", { id: "8" }), null);
  // Links to other rows go by the ids beside the labels; a meter's kind by the screen or the row.
  assert.equal(
    detailLinkOf("ownerRoom", "roomId", { id: "1", roomId: "3", ownerId: "4" }),
    "/pms/room/detail/3",
  );
  assert.equal(
    detailLinkOf("ownerRoom", "ownerId", { id: "1", roomId: "3", ownerId: "4" }),
    "/pms/owner/detail/4",
  );
  assert.equal(
    detailLinkOf("waterDataRead", "productCode", { id: "1", meterId: "5" }),
    "/pms/water/detail/5",
  );
  assert.equal(detailLinkOf("dataDaily", "productCode", { id: "1", meterId: "5" }), "/pms/meter/detail/5");
  assert.equal(
    detailLinkOf("meterCommand", "productCode", { id: "1", meterId: "6", energyType: 2 }),
    "/pms/water/detail/6",
  );
  assert.equal(detailLinkOf("recharges", "ownerName", { id: "1", ownerId: "4" }), "/pms/owner/detail/4");
  // Without the id (or with no meter kind) there is nothing to open.
  assert.equal(detailLinkOf("meterCommand", "productCode", { id: "1", meterId: "6" }), null);
  assert.equal(detailLinkOf("recharges", "roomName", { id: "1", roomName: "305" }), null);
  assert.equal(detailLinkOf("collector", "collectorName", { id: "1" }), null);
});

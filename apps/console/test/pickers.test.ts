import assert from "node:assert/strict";
import { test } from "node:test";
import { resources } from "@meterline/contracts";
import { dependentFields, linkTarget, pickerDependencies, pickerSource } from "../src/crud/pickers.ts";

const { roomMeter, ownerRoom, meterOrigValue, wxBind, room, meter } = resources;

test("a refBy link points at the resource of the chosen energy type, or nowhere yet", () => {
  const field = roomMeter.fields.meterId;
  assert.deepEqual(linkTarget(field, { energyType: 1 }), { resource: "meter", label: "productCode" });
  assert.deepEqual(linkTarget(field, { energyType: "2" }), { resource: "water", label: "productCode" });
  assert.equal(linkTarget(field, {}), undefined);
});

test("link forms offer only what is still free; searches offer every row", () => {
  const use = (
    resource: string,
    field: string,
    target: string,
    values = {},
    purpose: "form" | "search" = "form",
  ) => pickerSource({ resource, field, target: { resource: target, label: "x" }, values, purpose });
  assert.deepEqual(use("ownerRoom", "roomId", "room"), {
    kind: "tree",
    path: "/api/blade-pms/room/unbindOwnerTree",
    query: undefined,
  });
  assert.equal(
    (use("ownerRoom", "ownerId", "owner") as { path: string }).path,
    "/api/blade-pms/owner/unbindRoomTree",
  );
  assert.equal(
    (use("ownerRoom", "roomId", "room", {}, "search") as { path: string }).path,
    "/api/blade-pms/room/tree",
  );
  assert.deepEqual(use("roomMeter", "roomId", "room", { energyType: 2 }), {
    kind: "tree",
    path: "/api/blade-pms/room/unbindTree",
    query: { energyType: "2" },
  });
  assert.deepEqual(use("roomMeter", "roomId", "room"), { kind: "none", waitFor: "energyType" });
  assert.equal(
    (use("roomMeter", "meterId", "meter") as { path: string }).path,
    "/api/blade-pms/meter/unbindTree",
  );
  assert.equal(
    (use("roomMeter", "meterId", "water") as { path: string }).path,
    "/api/blade-pms/water/unbindTree",
  );
  // Elsewhere water meters are listed by address.
  assert.equal(
    (use("meterOrigValue", "meterId", "water") as { path: string }).path,
    "/api/blade-pms/water/page",
  );
  // Other definitions reuse the target's picker: any meter, any owner.
  assert.equal(
    (use("meterOrigValue", "meterId", "meter") as { path: string }).path,
    "/api/blade-pms/meter/tree",
  );
  assert.equal((use("wxBind", "ownerId", "owner") as { path: string }).path, "/api/blade-pms/owner/tree");
  // Targets without a registered picker: their tree, else their select list.
  assert.equal((use("room", "areaId", "area") as { path: string }).path, "/api/blade-pms/area/tree");
  assert.deepEqual(use("meter", "collectorId", "collector"), {
    kind: "list",
    path: "/api/blade-pms/collector/select",
    label: "x",
  });
});

test("changing the energy type empties the links that depend on it", () => {
  assert.deepEqual(pickerDependencies(roomMeter, "roomId", "form"), ["energyType"]);
  assert.deepEqual(pickerDependencies(roomMeter, "roomId", "search"), []);
  assert.deepEqual(dependentFields(roomMeter, "energyType", "form").sort(), ["meterId", "roomId"]);
  assert.deepEqual(dependentFields(meterOrigValue, "energyType", "search"), ["meterId"]);
  assert.deepEqual(dependentFields(ownerRoom, "ownerId", "form"), []);
  assert.ok(wxBind && room && meter);
});

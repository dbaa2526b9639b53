import { defineResource } from "../../resource/types.ts";
import { meterByEnergy, registryBase, remarkField } from "./base.ts";

/** The money lists (seed 015), whose search bars filter by area and room with the registry's pickers. */
const moneyListScreens = ["dataRecharge", "payment", "dataOpenAccount", "dataCloseAccount"] as const;

/** Areas: park → building → unit → floor, a tree per tenant (spec §7 area). */
export const area = defineResource({
  name: "area",
  table: "pms_area",
  ...registryBase,
  path: "area",
  listVerb: "list",
  extraVerbs: ["tree", "lazy-list", "lazy-tree"],
  writeVerbs: ["save", "update"],
  tree: { parent: "parentId", title: "areaName", ancestors: true },
  // Screens laid out beside the area tree (rooms and collectors link to areas by ref already).
  pickerUsers: [
    "roomMeter",
    "dataRead",
    "waterDataRead",
    "dataReadHistory",
    "waterDataReadHistory",
    "dataReadOther",
    "dataReadOtherHis",
    "dataDaily",
    "waterDataDaily",
    ...moneyListScreens,
    // 告警记录 filters by area: the records of meters installed in its rooms.
    "checkRecord",
    // 月度对账单 picks a building.
    "monthStatement",
  ],
  fields: {
    parentId: { type: "id", default: "0", ref: { resource: "area", label: "areaName" } },
    ancestors: { type: "string", maxLength: 2000, form: false, list: false },
    areaName: { type: "string", required: true, maxLength: 64, search: "like", unique: ["parentId"] },
    areaCode: { type: "string", maxLength: 32, search: "like" },
    areaType: { type: "int", required: true, dict: "area_type", default: 2, search: "equal" },
    address: { type: "string", maxLength: 255, list: false, span: 24 },
    sort: { type: "int", required: true, min: 0, max: 100000, default: 1 },
    remark: remarkField,
  },
  sort: [{ field: "sort" }, { field: "id" }],
});

/** Rooms of an area; `areaId` filters take the area and everything below it. */
export const room = defineResource({
  name: "room",
  table: "pms_room",
  ...registryBase,
  path: "room",
  listVerb: "page",
  extraVerbs: ["matching-ids"],
  writeVerbs: ["save", "update"],
  // 月度对账单 picks a room.
  pickerUsers: [...moneyListScreens, "monthStatement"],
  fields: {
    areaId: { type: "id", required: true, search: "equal", ref: { resource: "area", label: "areaName" } },
    roomName: { type: "string", required: true, maxLength: 64, search: "like", unique: ["areaId"] },
    roomCode: { type: "string", maxLength: 32, search: "like" },
    roomType: { type: "int", required: true, dict: "room_type", default: 1, search: "equal" },
    floorArea: { type: "decimal", scale: 2, min: 0, max: 1_000_000 },
    remark: remarkField,
  },
  sort: [{ field: "areaId" }, { field: "roomName" }],
});

/** Owners (tenants of rooms) who prepay; the balance is the server's, changed only by the ledger. */
export const owner = defineResource({
  name: "owner",
  table: "pms_owner",
  ...registryBase,
  path: "owner",
  listVerb: "page",
  extraVerbs: ["matching-ids"],
  // 月度对账单 picks an owner.
  pickerUsers: ["monthStatement"],
  fields: {
    ownerName: { type: "string", required: true, maxLength: 64, search: "like" },
    ownerCode: { type: "string", maxLength: 32, search: "like", unique: true },
    ownerType: { type: "int", required: true, dict: "owner_type", default: 1, search: "equal" },
    phone: {
      type: "string",
      maxLength: 20,
      search: "like",
      pattern: { regex: "^1[3-9]\\d{9}$", message: "phone" },
    },
    idCard: {
      type: "string",
      maxLength: 18,
      list: false,
      pattern: { regex: "^\\d{17}[\\dXx]$", message: "idCard" },
    },
    balance: { type: "decimal", scale: 2, form: false, default: 0 },
    remark: remarkField,
  },
  sort: [{ field: "id", desc: true }],
});

/** Which owner lives in which room: a room has one owner, an owner may have several rooms. */
export const ownerRoom = defineResource({
  name: "ownerRoom",
  table: "pms_owner_room",
  ...registryBase,
  path: "ownerroom",
  listVerb: "page",
  extraVerbs: ["listPage"],
  fields: {
    ownerId: { type: "id", required: true, search: "equal", ref: { resource: "owner", label: "ownerName" } },
    roomId: {
      type: "id",
      required: true,
      search: "equal",
      unique: true,
      ref: { resource: "room", label: "roomName" },
    },
    checkInTime: { type: "datetime" },
    remark: remarkField,
  },
});

/** Groups of owners (a company's staff, a dormitory block) recharged or switched together. */
export const ownerGroup = defineResource({
  name: "ownerGroup",
  table: "pms_owner_group",
  ...registryBase,
  path: "ownerGroup",
  listVerb: "page",
  extraVerbs: ["list"],
  writeVerbs: ["submit", "save"],
  fields: {
    groupName: { type: "string", required: true, maxLength: 64, search: "like", unique: true },
    remark: remarkField,
  },
});

/** A meter installed in a room: electric (energyType 1, a `meter`) or water (2, a `water`). */
export const roomMeter = defineResource({
  name: "roomMeter",
  table: "pms_room_meter",
  ...registryBase,
  path: "roommeter",
  listVerb: "page",
  fields: {
    roomId: { type: "id", required: true, search: "equal", ref: { resource: "room", label: "roomName" } },
    energyType: { type: "int", required: true, dict: "energy_type", search: "equal" },
    meterId: { type: "id", required: true, search: "equal", unique: ["energyType"], refBy: meterByEnergy },
    remark: remarkField,
  },
});

import type { QueryParams } from "@meterline/api-client";
import type { FieldPicker, PickerSource, PickerUse } from "./pickers.ts";

const pms = "/api/blade-pms";
/** The server's page size limit: pickers list at most this many rows of a plain list. */
const LIST_LIMIT = 1000;

const tree = (path: string, query?: QueryParams): PickerSource => ({ kind: "tree", path, query });

/**
 * The usual picker of a link target, for every definition whose `ref` (or `refBy`) names it.
 * Registry trees hang rooms under their areas and meters under their rooms, and mark which nodes
 * may be picked; water meters (no tree of rooms) are listed by address.
 */
export const targetPickers: Record<string, (use: PickerUse) => PickerSource> = {
  room: () => tree(`${pms}/room/tree`),
  owner: () => tree(`${pms}/owner/tree`),
  meter: () => tree(`${pms}/meter/tree`),
  water: () => ({
    kind: "list",
    path: `${pms}/water/page`,
    query: { current: 1, size: LIST_LIMIT },
    label: "productCode",
    detail: "meterName",
  }),
};

/**
 * Form pickers of the screens where links are made: only what is still free to link is offered
 * (the current value of an edited row is kept selectable by the picker itself).
 */
export const fieldPickers: Record<string, FieldPicker> = {
  "ownerRoom.ownerId": { source: () => tree(`${pms}/owner/unbindRoomTree`) },
  "ownerRoom.roomId": { source: () => tree(`${pms}/room/unbindOwnerTree`) },
  "roomMeter.roomId": {
    dependsOn: ["energyType"],
    source: ({ values }) =>
      values.energyType
        ? tree(`${pms}/room/unbindTree`, { energyType: String(values.energyType) })
        : { kind: "none", waitFor: "energyType" },
  },
  "roomMeter.meterId": {
    // Electric and water meters not yet installed in a room, under their collectors.
    source: (use) => tree(`${pms}/${use.target.resource === "meter" ? "meter" : "water"}/unbindTree`),
  },
};

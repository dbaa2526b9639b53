import { defineResource, LARGE_TABLE_COUNT } from "../../resource/types.ts";
import { meterByEnergy, serverWrittenBase } from "./base.ts";

/**
 * Commands to meters (spec §7 metercommand) as the gateway runs them (design.md §5): queued →
 * sent → success | fail | timeout to be confirmed, with the request frame, the reply and the
 * evidence of the settled state. Operations write them; nobody edits them.
 */
export const meterCommand = defineResource({
  name: "meterCommand",
  table: "pms_meter_command",
  ...serverWrittenBase,
  path: "metercommand",
  listVerb: "list",
  count: LARGE_TABLE_COUNT,
  fields: {
    createTime: { type: "datetime", search: "range", width: 170 },
    energyType: { type: "int", dict: "energy_type", search: "equal", width: 90 },
    meterId: { type: "id", search: "equal", refBy: meterByEnergy, list: false },
    productCode: { type: "string", maxLength: 14, search: "like", width: 150 },
    commandType: { type: "string", maxLength: 32, dict: "command_type", search: "equal" },
    payload: { type: "text", list: false },
    state: { type: "string", maxLength: 16, dict: "command_state", search: "equal" },
    result: { type: "int", dictBiz: "MSG_RESULT", search: "equal" },
    source: { type: "string", maxLength: 64, list: false },
    batchId: { type: "id", search: "equal", list: false },
    sentTime: { type: "datetime", list: false },
    doneTime: { type: "datetime", width: 170 },
    request: { type: "text", list: false },
    reply: { type: "text", list: false },
    evidence: { type: "text", list: false },
  },
  sort: [{ field: "createTime", desc: true }],
});

/** The answer of a switching call (message/switch…): the batch queued and the meters left out. */
export interface SwitchOutcome {
  batchId: string | null;
  queued: number;
  /** Meters not sent a command, with why (one still unsettled, no collector to reach it). */
  skipped: { meterId: string; productCode: string; reason: string }[];
}

/** How far a batch of commands has got (message/batchProgress). */
export interface BatchProgress {
  total: number;
  queued: number;
  sent: number;
  success: number;
  fail: number;
  timeout: number;
  /** Every command settled (success, fail or timeout to be confirmed). */
  done: boolean;
}

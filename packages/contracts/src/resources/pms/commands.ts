import { defineResource, type FieldDef, LARGE_TABLE_COUNT } from "../../resource/types.ts";
import { meterByEnergy, remarkField } from "./base.ts";

/** What every view of the command table shares: soft delete (settled commands only), no audit columns. */
const commandBase = {
  service: "blade-pms",
  tenantScoped: true,
  softDelete: true,
  audit: false,
  rowsCreatedByServer: true,
  dataScope: true,
  listVerb: "list",
  count: LARGE_TABLE_COUNT,
  sort: [{ field: "createTime", desc: true }],
} as const;

/**
 * The command's columns. The operator edits only the remark (submit with an id); everything else is
 * the server's and the gateway's record of what was sent and how it settled.
 */
const commandFields = {
  createTime: { type: "datetime", search: "range", width: 170, form: false },
  energyType: { type: "int", dict: "energy_type", search: "equal", width: 90, form: false },
  meterId: { type: "id", search: "equal", refBy: meterByEnergy, list: false, form: false },
  productCode: { type: "string", maxLength: 14, search: "like", width: 150, form: false },
  commandType: { type: "string", maxLength: 32, dict: "command_type", search: "equal", form: false },
  payload: { type: "text", list: false, form: false },
  state: { type: "string", maxLength: 16, dict: "command_state", search: "equal", form: false },
  result: { type: "int", dictBiz: "MSG_RESULT", search: "equal", form: false },
  source: { type: "string", maxLength: 64, list: false, form: false },
  batchId: { type: "id", search: "equal", list: false, form: false },
  createUser: { type: "id", list: false, form: false },
  sentTime: { type: "datetime", list: false, form: false },
  doneTime: { type: "datetime", width: 170, form: false },
  request: { type: "text", list: false, form: false },
  reply: { type: "text", list: false, form: false },
  evidence: { type: "text", list: false, form: false },
  remark: { ...remarkField, required: false },
} as const satisfies Record<string, FieldDef>;

/**
 * Commands to meters (spec §7 metercommand) as the gateway runs them (design.md §5): queued →
 * sent → success | fail | timeout to be confirmed, with the request frame, the reply and the
 * evidence of the settled state. Operations write them; the operator may add a remark, and may
 * remove a settled one (hidden from lists, kept for audit).
 */
export const meterCommand = defineResource({
  ...commandBase,
  name: "meterCommand",
  table: "pms_meter_command",
  path: "metercommand",
  fields: commandFields,
});

/**
 * Operation records (spec §7 dataswitch, datawriteprice, datawritealarm, message): views of the
 * same command table, each the commands of one kind. The server decides the kind from the command
 * type and its payload (command-kinds.ts), so a new command type lands in its record by name.
 */
export const dataSwitch = defineResource({
  ...commandBase,
  name: "dataSwitch",
  table: "pms_meter_command",
  path: "dataswitch",
  listVerb: "page",
  fields: commandFields,
});

export const dataWritePrice = defineResource({
  ...commandBase,
  name: "dataWritePrice",
  table: "pms_meter_command",
  path: "datawriteprice",
  listVerb: "page",
  fields: commandFields,
});

export const dataWriteAlarm = defineResource({
  ...commandBase,
  name: "dataWriteAlarm",
  table: "pms_meter_command",
  path: "datawritealarm",
  listVerb: "page",
  fields: commandFields,
});

/** message list/detail: the operator's view of every command sent, whatever its kind. */
export const message = defineResource({
  ...commandBase,
  name: "message",
  table: "pms_meter_command",
  path: "message",
  fields: commandFields,
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

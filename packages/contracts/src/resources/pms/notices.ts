import { defineResource } from "../../resource/types.ts";

/** What the two notification lists share: the PMS service, one tenant, removed rows kept hidden. */
const noticeBase = {
  service: "blade-pms",
  tenantScoped: true,
  softDelete: true,
  audit: false,
  // Rows are written by the sender; submit and remove carry rules (queue again, resend) in a module.
  moduleWrites: true,
} as const;

/**
 * The outgoing owner notifications (spec §7 messagequeue): one SMS per owner, balance alarm level
 * and day, with its state (MESSAGE_STATE), attempts, the provider's last error and when the next
 * attempt runs. Submit without an id queues a message of the operator's (to an owner or a phone),
 * with an id queues the message again (optionally to a corrected phone); remove takes it out.
 */
export const messageQueue = defineResource({
  name: "messageQueue",
  menuCode: "messagequeue",
  table: "pms_message_queue",
  ...noticeBase,
  path: "messagequeue",
  listVerb: "list",
  fields: {
    createTime: { type: "datetime", search: "range", form: false, width: 170 },
    ownerId: {
      type: "id",
      search: "equal",
      readOnlyOnEdit: true,
      ref: { resource: "owner", label: "ownerName" },
    },
    phone: {
      type: "string",
      maxLength: 20,
      search: "like",
      pattern: { regex: "^1[3-9]\\d{9}$", message: "phone" },
    },
    ruleCode: { type: "string", maxLength: 32, dict: "alarm_rule", search: "equal", form: false },
    alarmLevel: { type: "int", dictBiz: "ALARM_LEVEL", form: false, list: false },
    templateParams: { type: "text", list: false, span: 24 },
    state: { type: "int", dict: "message_state", search: "equal", form: false },
    attempts: { type: "int", form: false, width: 80 },
    lastError: { type: "string", maxLength: 500, form: false },
    nextAttemptTime: { type: "datetime", form: false, width: 170 },
    sentTime: { type: "datetime", form: false, list: false },
    recordId: { type: "id", form: false, list: false },
    smsLogId: { type: "id", form: false, list: false },
  },
  sort: [
    { field: "createTime", desc: true },
    { field: "id", desc: true },
  ],
});

/**
 * Every SMS handed to a provider (spec §7 sms), from owner notifications and from the send test,
 * with the provider's answer (MSG_RESULT). Submit without an id sends a message (phones, template
 * values) through the tenant's enabled provider and records it; with an id it keeps the remark
 * (the record itself is what the provider answered and is never edited); remove hides a record.
 */
export const smsRecord = defineResource({
  name: "smsRecord",
  menuCode: "pms_sms",
  table: "sms_send_log",
  ...noticeBase,
  path: "sms",
  listVerb: "page",
  fields: {
    createTime: { type: "datetime", search: "range", form: false, width: 170 },
    phones: { type: "string", maxLength: 2000, search: "like", required: true, readOnlyOnEdit: true },
    category: { type: "int", dict: "sms", search: "equal", form: false },
    templateId: { type: "string", maxLength: 64, form: false },
    params: { type: "text", list: false, span: 24, readOnlyOnEdit: true },
    result: { type: "int", dictBiz: "MSG_RESULT", search: "equal", form: false },
    providerCode: { type: "string", maxLength: 100, form: false },
    error: { type: "string", maxLength: 500, form: false },
    providerAnswer: { type: "text", form: false, list: false },
    attempts: { type: "int", form: false, list: false },
    messageId: { type: "id", search: "equal", form: false, list: false },
    smsId: { type: "id", form: false, list: false },
    remark: { type: "string", maxLength: 255, list: false },
  },
  sort: [
    { field: "createTime", desc: true },
    { field: "id", desc: true },
  ],
});

import { defineResource, LARGE_TABLE_COUNT, type ResourceDef } from "../resource/types.ts";

/** Notices (contract §11.1): rich text, sanitized on the way in and on the way out. */
export const notice = defineResource({
  name: "notice",
  table: "desk_notice",
  service: "blade-desk",
  path: "notice",
  listVerb: "list",
  tenantScoped: true,
  dataScope: true,
  softDelete: true,
  audit: true,
  fields: {
    title: { type: "string", required: true, maxLength: 255, search: "like", span: 24 },
    category: { type: "int", required: true, dict: "notice", search: "equal" },
    releaseTime: { type: "datetime", required: true, search: "range" },
    content: { type: "richtext", maxLength: 20_000, list: false, span: 24 },
  },
  sort: [{ field: "releaseTime", desc: true }],
});

/** Columns every log table shares (contract §11.2). */
const logFields = {
  serviceId: { type: "string", maxLength: 64, search: "like" },
  serverHost: { type: "string", maxLength: 255, list: false },
  env: { type: "string", maxLength: 255, list: false },
  method: { type: "string", maxLength: 10, search: "equal", width: 80 },
  requestUri: { type: "string", maxLength: 1000, search: "like" },
  userAgent: { type: "string", maxLength: 1000, list: false },
  remoteIp: { type: "string", maxLength: 255 },
  params: { type: "text", list: false },
  createBy: { type: "string", maxLength: 64, search: "like" },
  createTime: { type: "datetime", search: "range" },
} as const satisfies ResourceDef["fields"];

const logBase = {
  service: "blade-log",
  listVerb: "list",
  // Every call writes a line: the unfiltered page must not count the whole history.
  count: LARGE_TABLE_COUNT,
  tenantScoped: true,
  softDelete: false,
  audit: false,
  readOnly: true,
  sort: [{ field: "createTime", desc: true }],
  // (tenant, create time): the screens' newest-first pages and the retention sweep both walk it.
  indexes: [["createTime"]],
} as const;

/** Every API call: who, what, how long, with what outcome. Written by the server. */
export const logApi = defineResource({
  ...logBase,
  name: "logApi",
  menuCode: "log_api",
  table: "log_api",
  path: "api",
  fields: {
    ...logFields,
    title: { type: "string", maxLength: 255, search: "like" },
    status: { type: "int", search: "equal", width: 80 },
    time: { type: "int", width: 90 },
  },
});

/** Every unhandled server error with its stack, and the console's uploaded error logs. */
export const logError = defineResource({
  ...logBase,
  name: "logError",
  menuCode: "log_error",
  table: "log_error",
  path: "error",
  fields: {
    ...logFields,
    exceptionName: { type: "string", maxLength: 255, search: "like" },
    message: { type: "text", search: "like" },
    stackTrace: { type: "text", list: false },
  },
});

/** Explicit business log lines the server writes. */
export const logUsual = defineResource({
  ...logBase,
  name: "logUsual",
  menuCode: "log_usual",
  table: "log_usual",
  path: "usual",
  fields: {
    ...logFields,
    logLevel: { type: "string", maxLength: 10, search: "equal" },
    logId: { type: "string", maxLength: 100, search: "like" },
    logData: { type: "text", search: "like" },
  },
});

import { resources } from "@meterline/contracts";
import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { badParam, badRequest } from "../contract/errors.ts";
import { isBigintText } from "../contract/params.ts";

/**
 * The longest query string we read. Node refuses a request line past 16 KB on a real socket
 * (see clientError in app.ts); the same bound here keeps in-process calls answering alike.
 */
export const MAX_QUERY_BYTES = 16 * 1024;

/**
 * NUL and the other C0 controls (tab, line feed and carriage return excepted) and DEL: no field of
 * ours holds them, PostgreSQL refuses NUL in text outright, and the rest only hide what a value says.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
/** `id`, `ids` and camel-case names ending in them (`meterId`, `roleIds`): all are bigint columns. */
const ID_NAME = /^ids?$|[a-z0-9]Ids?$/;
/**
 * Names ending in Id that carry text, not a row's bigint: codes of outside systems (WeChat, OAuth,
 * SMS and storage providers), workflow definitions and diagram elements, and tenant codes.
 */
const TEXT_ID_NAMES = new Set([
  "tenantId",
  "tenantIds",
  // An NB-IoT meter's device on its operator's platform (IMEI, or IoTDA's product_node).
  "deviceId",
  "clientId",
  "appId",
  "mchId",
  "openId",
  "unionId",
  "transactionId",
  "prepayId",
  "oauthId",
  "billId",
  "processDefinitionId",
  "definitionId",
  "taskDefinitionId",
  "processId",
  "businessId",
  "elementId",
  "activityId",
  "nodeId",
  "executionId",
  "sessionId",
  "requestId",
  "secretId",
  "accessKeyId",
  "regionId",
  "templateId",
  "serviceId",
  "providerId",
  "logId",
  // Every plain resource's text field whose name ends in Id (a provider's app id, a log's id).
  ...Object.values(resources).flatMap((def) =>
    Object.entries(def.fields)
      .filter(([name, field]) => ID_NAME.test(name) && field.type !== "id" && field.type !== "idList")
      .map(([name]) => name),
  ),
]);
/** An id, or ids separated by commas (the family's `roleId=1,2`); blanks around them are trimmed. */
const ID_TEXT = /^\s*-?\d{1,19}\s*(,\s*-?\d{1,19}\s*)*$/;

/**
 * A top-level value under an id's name must be an id: `x`, `1e3`, `1.5`, `true` or an object reach
 * no column (the database would refuse the cast with a 500). Blank means "none" and stays allowed.
 */
function checkIdShape(name: string, value: unknown) {
  if (!ID_NAME.test(name) || TEXT_ID_NAMES.has(name)) return;
  for (const item of Array.isArray(value) ? value : [value]) {
    if (item === null || item === undefined || item === "") continue;
    if (typeof item === "number" && Number.isInteger(item)) continue;
    if (typeof item === "string" && ID_TEXT.test(item)) continue;
    throw badParam(name);
  }
}

/** Nesting deeper than any form of ours sends; beyond it a body is refused rather than walked. */
const MAX_DEPTH = 32;

/** A field name fit to print in a message, even when the name itself is the garbage. */
const printable = (name: string) => (CONTROL.test(name) ? JSON.stringify(name) : name);

function checkText(field: string, value: string) {
  if (CONTROL.test(value)) throw badRequest(`${printable(field)}: 不能包含控制字符`);
}

/** Digits under an id's name must fit a bigint; other text is left to the route's own checks. */
function checkId(field: string, value: unknown) {
  if (typeof value === "number" && !Number.isSafeInteger(value) && Number.isInteger(value)) {
    throw badRequest(`${field}: 编号超出范围,请以字符串传递`);
  }
  if (typeof value !== "string") return;
  const parts = value.split(",").map((part) => part.trim());
  if (parts.every((part) => /^-?\d+$/.test(part)) && !parts.every(isBigintText)) {
    throw badRequest(`${field}: 编号超出范围`);
  }
}

/** Walks query, form, JSON body and path parameters alike, naming the first bad field. */
function checkValue(field: string, name: string, value: unknown, depth: number) {
  if (depth > MAX_DEPTH) throw badRequest(`${printable(field)}: 嵌套层级过深`);
  if (typeof value === "string") checkText(field, value);
  else if (typeof value === "number" && !Number.isFinite(value))
    throw badRequest(`${field}: 必须是有限的数字`);
  if (ID_NAME.test(name)) {
    for (const item of Array.isArray(value) ? value : [value]) checkId(field, item);
  }
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) checkValue(`${field}[${index}]`, name, item, depth + 1);
  } else if (value && typeof value === "object" && !Buffer.isBuffer(value)) {
    for (const [key, item] of Object.entries(value)) {
      checkText(field ? `${field}.${key}` : key, key);
      checkValue(field ? `${field}.${key}` : key, key, item, depth + 1);
    }
  }
}

/**
 * A multipart file is read by the route itself (streamed), after every hook: the name it was sent
 * under is checked as the route receives it, so no route stores or echoes a control character.
 */
function guardFileNames(request: FastifyRequest) {
  const read = request.file.bind(request);
  request.file = (async (...args: Parameters<typeof read>) => {
    const part = await read(...args);
    if (part) checkText(part.fieldname, part.filename);
    return part;
  }) as typeof request.file;
}

/**
 * One place where malformed input becomes a 400 naming the field, for every route, signed in or not:
 * oversize query strings, multipart without a boundary, control characters in any value or name,
 * non-finite numbers, and ids that are no ids or cannot fit a bigint. Routes then only check what is theirs.
 */
export default fp(
  async (app: FastifyInstance) => {
    app.addHook("onRequest", async (request) => {
      const queryAt = request.url.indexOf("?");
      if (queryAt >= 0 && request.url.length - queryAt - 1 > MAX_QUERY_BYTES) {
        throw badRequest(`query: 查询字符串不能超过 ${MAX_QUERY_BYTES / 1024} KB`);
      }
      const type = String(request.headers["content-type"] ?? "");
      if (/^\s*multipart\//i.test(type) && !/;\s*boundary=[^;\s]/i.test(type)) {
        throw badRequest("file: multipart/form-data 请求缺少 boundary");
      }
    });
    app.addHook("preValidation", async (request) => {
      // The wildcard of a path such as /oss/file/* is named for what it is.
      for (const [name, value] of Object.entries((request.params ?? {}) as Record<string, unknown>)) {
        checkValue(name === "*" ? "path" : name, name, value, 0);
      }
      checkValue("", "", request.query ?? {}, 0);
      const body = request.body;
      if (typeof body === "string") checkText("body", body);
      else if (body && typeof body === "object") checkValue("", "", body, 0);
      // Only the request's own fields: nested objects (a diagram, a batch's rows) are their route's.
      for (const bag of [request.query, Array.isArray(body) ? undefined : body]) {
        if (!bag || typeof bag !== "object" || Buffer.isBuffer(bag)) continue;
        for (const [name, value] of Object.entries(bag)) checkIdShape(name, value);
      }
      if (typeof request.isMultipart === "function" && request.isMultipart()) guardFileNames(request);
    });
    // An answer sent before the request's body was read whole (a refused upload: too large, no
    // permission, a bad field) ends its connection: the client stops sending once answered, and the
    // next request on a kept-alive connection would wait behind body bytes that never come.
    app.addHook("onSend", async (request, reply) => {
      if (!request.raw.complete) reply.header("connection", "close");
    });
  },
  { name: "input-guard" },
);

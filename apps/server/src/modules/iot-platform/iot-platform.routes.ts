import type { FastifyInstance, FastifyRequest } from "fastify";
import { formatDateTime } from "../../contract/dates.ts";
import { ok } from "../../contract/envelope.ts";
import { badRequest } from "../../contract/errors.ts";
import { optionalId, optionalString, readParams } from "../../contract/params.ts";
import { type FieldCipher, isMask, maskOf } from "../../crud/field-cipher.ts";
import { requirePermission } from "../../crud/permissions.ts";
import type { Db } from "../../db/client.ts";
import { registryTenant } from "../pms/registry-access.ts";
import {
  deviceOfMeter,
  linkDevice,
  openConfig,
  saveConfig,
  storedConfig,
} from "./iot-platform.repository.ts";
import { dispatchQueued, expireLapsed, handlePush, type IotDeps } from "./iot-platform.service.ts";
import { meterCommands } from "./platform-commands.db.ts";
import { onenetHandshake, PushRefused, type ReceivedPush } from "./platform-pushes.ts";
import { isPlatform, type Platform } from "./platform-signing.ts";

const base = "/api/blade-pms/iot";
const tags = ["iot-platform"];
/** A platform push carries one report or one state change: a few kilobytes at most, refused unread above. */
export const PUSH_BODY_LIMIT = 32 * 1024;
/** Who links meters to devices and reads their platform commands: the people who switch supply. */
const CODES = ["meter_switch"];
/** A water meter's link is also the water screen's, whose switch permission is water_switch. */
const LINK_CODES = { "1": ["meter_switch"], "2": ["meter_switch", "water_switch"] } as const;
/**
 * Platform secrets are a tenant administrator's: the IoT platform screen's grants (seed 064: reading
 * and saving), or the payment configuration's that held them before the screen existed.
 */
const CONFIG_CODES = { read: ["iotPlatform_view", "wxConfig"], save: ["iotPlatform_edit", "wxConfig"] };

function platformOf(value: unknown, name = "platform"): Platform {
  if (!isPlatform(value)) throw badRequest(`${name}: 只能是 ctwing、onenet 或 iotda`);
  return value;
}

function required(params: Record<string, unknown>, name: string, max = 255): string {
  const value = optionalString(params, name);
  if (!value) throw badRequest(`${name}: 必填`);
  if (value.length > max) throw badRequest(`${name}: 最长 ${max} 个字符`);
  return value;
}

/** A secret as the console sends it: absent or masked keeps the stored one. */
function secret(params: Record<string, unknown>, name: string): string | undefined {
  const value = optionalString(params, name);
  return value === undefined || isMask(value) ? undefined : value;
}

/**
 * NB-IoT meters through their operators' platforms: each platform's webhook (public, verified by
 * the platform's own signature or token), the tenant's configuration of a platform (secrets
 * encrypted, masked when read), a meter's link to its device, and the meter's platform commands
 * with their states and expected wake. Commands are handed over every `dispatchMs`.
 */
export async function iotPlatformRoutes(
  app: FastifyInstance,
  opts: { db: Db; cipher: FieldCipher; timeZone: string; dispatchMs?: number },
) {
  const deps: IotDeps = {
    db: opts.db,
    cipher: opts.cipher,
    timeZone: opts.timeZone,
    log: (message, fields) => app.log.warn(fields, message),
  };
  if (opts.dispatchMs !== 0) {
    let running = false;
    const timer = setInterval(() => {
      if (running) return;
      running = true;
      Promise.all([dispatchQueued(deps), expireLapsed(deps)])
        .catch((error: unknown) => app.log.warn({ err: error }, "iot platform dispatch failed"))
        .finally(() => {
          running = false;
        });
    }, opts.dispatchMs ?? 5_000);
    timer.unref();
    app.addHook("onClose", async () => clearInterval(timer));
  }

  await app.register(async (hooks) => {
    hooks.removeAllContentTypeParsers();
    hooks.addContentTypeParser("*", { parseAs: "string", bodyLimit: PUSH_BODY_LIMIT }, (_req, body, done) =>
      done(null, body),
    );
    const received = (request: FastifyRequest): ReceivedPush => ({
      body: typeof request.body === "string" ? request.body : "",
      headers: request.headers,
      query: request.query as Record<string, string | undefined>,
    });
    const target = (params: { platform: string; tenantId: string }) => {
      if (!isPlatform(params.platform) || !/^\d{6,12}$/.test(params.tenantId)) return undefined;
      return { platform: params.platform, tenantId: params.tenantId };
    };
    hooks.post<{ Params: { platform: string; tenantId: string } }>(
      `${base}/push/:platform/:tenantId`,
      {
        config: { public: true },
        bodyLimit: PUSH_BODY_LIMIT,
        schema: { tags, summary: "A platform's push of NB-IoT reports and command states (signed); public" },
      },
      async (request, reply) => {
        const to = target(request.params);
        if (!to) return reply.code(404).send({ code: 404, msg: "unknown platform or tenant" });
        try {
          const outcome = await handlePush(deps, to.platform, to.tenantId, received(request));
          return reply.send({ code: 0, msg: outcome.duplicate ? "duplicate" : "ok" });
        } catch (error) {
          if (error instanceof PushRefused)
            return reply.code(error.status).send({ code: error.status, msg: error.message });
          throw error;
        }
      },
    );
    // OneNET checks the URL before it pushes: it sends msg, nonce and signature and wants msg back.
    hooks.get<{ Params: { platform: string; tenantId: string } }>(
      `${base}/push/:platform/:tenantId`,
      { config: { public: true }, schema: { tags, summary: "OneNET's URL verification; public" } },
      async (request, reply) => {
        const to = target(request.params);
        if (to?.platform !== "onenet") return reply.code(404).send("unknown");
        const config = await openConfig(opts.db, opts.cipher, to.tenantId, "onenet");
        if (!config) return reply.code(403).send("no configuration");
        try {
          return reply.type("text/plain").send(onenetHandshake(received(request).query, config));
        } catch (error) {
          if (error instanceof PushRefused) return reply.code(error.status).send(error.message);
          throw error;
        }
      },
    );
  });

  app.post(
    `${base}/platform/submit`,
    { schema: { tags, summary: "Save the tenant's platform configuration" } },
    async (request) => {
      const user = await requirePermission(opts.db, request, CONFIG_CODES.save, "admin");
      const params = readParams(request);
      const tenantId = registryTenant(user, params);
      const platform = platformOf(params.platform);
      const baseUrl = required(params, "baseUrl");
      if (!/^https?:\/\/[^\s]+$/.test(baseUrl)) throw badRequest("baseUrl: 须为 http(s) 地址");
      const stored = await storedConfig(opts.db, tenantId, platform);
      const appSecret = secret(params, "appSecret");
      const pushToken = secret(params, "pushToken");
      if (!stored && (!appSecret || !pushToken))
        throw badRequest(`${appSecret ? "pushToken" : "appSecret"}: 必填`);
      await saveConfig(opts.db, tenantId, {
        platform,
        baseUrl,
        appId: required(params, "appId", 128),
        ...(appSecret ? { appSecret: opts.cipher.encrypt(appSecret) } : {}),
        ...(pushToken ? { pushToken: opts.cipher.encrypt(pushToken) } : {}),
        account: optionalString(params, "account") ?? null,
        authUrl: optionalString(params, "authUrl") ?? null,
      });
      return ok(null, "保存成功");
    },
  );

  app.get(
    `${base}/platform/detail`,
    { schema: { tags, summary: "The tenant's platform configuration, secrets masked" } },
    async (request) => {
      const user = await requirePermission(opts.db, request, CONFIG_CODES.read, "admin");
      const params = readParams(request);
      const row = await storedConfig(opts.db, registryTenant(user, params), platformOf(params.platform));
      if (!row) return ok(null);
      return ok({
        platform: row.platform,
        baseUrl: row.base_url,
        appId: row.app_id,
        appSecret: maskOf(row.app_secret),
        pushToken: maskOf(row.push_token),
        account: row.account,
        authUrl: row.auth_url,
      });
    },
  );

  /** The caller's tenant's meter a link call names, checked to exist there; 400 naming the field otherwise. */
  async function meterOf(request: FastifyRequest) {
    const params = readParams(request);
    const type = optionalString(params, "energyType");
    if (type !== "1" && type !== "2") {
      // Who may link neither kind of meter hears 403 first, whatever the parameters.
      await requirePermission(opts.db, request, [...LINK_CODES["1"], ...LINK_CODES["2"]]);
      throw badRequest("energyType: 只能是 1(电) 或 2(水)");
    }
    const user = await requirePermission(opts.db, request, [...LINK_CODES[type]]);
    const tenantId = registryTenant(user, params);
    const meterId = optionalId(params, "meterId");
    if (!meterId) throw badRequest("meterId: 必填");
    const table = type === "1" ? "pms_meter" : "pms_water";
    const [meter] = await opts.db.query(
      `select 1 from ${table} where id = $1 and tenant_id = $2 and is_deleted = 0`,
      [meterId, tenantId],
    );
    if (!meter) throw badRequest(`meterId: 表计不存在 (${meterId})`);
    return { tenantId, energyType: Number(type) as 1 | 2, meterId, params };
  }

  app.get(
    `${base}/device/detail`,
    { schema: { tags, summary: "A meter's link to its platform device (empty data when it has none)" } },
    async (request) => {
      const { tenantId, energyType, meterId } = await meterOf(request);
      const row = await deviceOfMeter(opts.db, tenantId, energyType, meterId);
      if (!row) return ok(null);
      // The next report: the last plus the gap between the last two, as a waiting command expects it.
      const last = row.last_report_time;
      const next =
        last && row.report_interval_seconds
          ? new Date(last.getTime() + row.report_interval_seconds * 1000)
          : null;
      return ok({
        platform: row.platform,
        deviceId: row.device_id,
        lastReportTime: last ? formatDateTime(last, opts.timeZone) : null,
        reportIntervalSeconds: row.report_interval_seconds,
        nextReportTime: next ? formatDateTime(next, opts.timeZone) : null,
      });
    },
  );

  app.post(
    `${base}/device/submit`,
    { schema: { tags, summary: "Link a meter to its platform device" } },
    async (request) => {
      const { tenantId, energyType, meterId, params } = await meterOf(request);
      const platform = platformOf(params.platform);
      const deviceId = required(params, "deviceId", 128);
      try {
        await linkDevice(opts.db, {
          tenantId,
          energyType,
          meterId,
          platform,
          deviceId,
        });
      } catch (error) {
        if (/unique|duplicate/i.test((error as Error).message))
          throw badRequest(`deviceId: ${deviceId} 已绑定其他表计`);
        throw error;
      }
      return ok(null, "保存成功");
    },
  );

  app.get(
    `${base}/commands`,
    { schema: { tags, summary: "A meter's platform commands, their states and its expected wake" } },
    async (request) => {
      const user = await requirePermission(opts.db, request, CODES);
      const params = readParams(request);
      const meterId = optionalId(params, "meterId");
      if (!meterId) throw badRequest("meterId: 必填");
      return ok(await meterCommands(opts.db, registryTenant(user, params), meterId));
    },
  );
}

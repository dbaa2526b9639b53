import type { FastifyInstance, FastifyRequest } from "fastify";
import { done, ok } from "../../contract/envelope.ts";
import { badRequest, notFound } from "../../contract/errors.ts";
import { optionalString, readParams } from "../../contract/params.ts";
import type { FieldCipher } from "../../crud/field-cipher.ts";
import type { Db } from "../../db/client.ts";
import type { SmsProvider } from "../sms/sms-provider.ts";
import { accountsOf, historyOf, noticesOf, ownerName, receiptOf, usageOf } from "./owner-reads.ts";
import {
  bindIdentity,
  boundOwner,
  closeSession,
  openSession,
  ownersOfRoom,
  sessionOf,
  unbindIdentity,
} from "./owner-session.ts";
import { readPhone, SmsCodes } from "./sms-codes.ts";
import { STATE_SECONDS, settingsOf, WechatAuthorize } from "./wechat-authorize.ts";

export const OWNER_BASE = "/api/blade-pms/h5";

/** Ties a WeChat authorization to the browser that started it; sent to the WeChat routes only. */
const BROWSER_COOKIE = "meterline_h5";

function browserKeyOf(request: FastifyRequest): string {
  for (const part of (request.headers.cookie ?? "").split(";")) {
    const at = part.indexOf("=");
    if (at > 0 && part.slice(0, at).trim() === BROWSER_COOKIE) return part.slice(at + 1).trim();
  }
  return "";
}

function browserCookie(request: FastifyRequest, value: string, maxAge: number): string {
  // Lax: WeChat sends the person back with a top-level GET, which must carry it.
  const secure = request.protocol === "https" ? "; Secure" : "";
  return `${BROWSER_COOKIE}=${value}; Path=${OWNER_BASE}/wechat; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure}`;
}

/**
 * The owner page's API. None of it takes an operator token: the routes are outside the operator
 * authentication (public to it) and each one either needs nothing (sign-in) or an owner session
 * from the H5-Auth header, whose tenant and bound owner bind every query.
 */
export async function ownerPageRoutes(
  app: FastifyInstance,
  opts: {
    db: Db;
    cipher: FieldCipher;
    providers: Readonly<Record<number, SmsProvider>>;
    secret: string;
    timeZone: string;
  },
) {
  const { db, cipher, timeZone } = opts;
  const codes = new SmsCodes(db, cipher, opts.providers, opts.secret);
  const wechat = new WechatAuthorize(db);
  const sweeper = setInterval(() => {
    wechat.purge().catch((error: unknown) => app.log.warn({ err: error }, "owner page sweep failed"));
  }, 3_600_000);
  sweeper.unref();
  app.addHook("onClose", async () => clearInterval(sweeper));

  const open = { public: true } as const;
  const tags = ["ownerPage"];

  const tenantOf = async (request: FastifyRequest): Promise<string> => {
    const tenantId = optionalString(readParams(request), "tenantId")?.trim();
    if (!tenantId || !/^\d{6}$/.test(tenantId)) throw badRequest("tenantId: 不能为空");
    const [row] = await db.query("select 1 from sys_tenant where tenant_id = $1 and is_deleted = 0", [
      tenantId,
    ]);
    if (!row) throw notFound("tenantId: 租户不存在");
    return tenantId;
  };
  // The callback address WeChat sends the person back to: this server, as the browser reached it.
  const callbackOf = (request: FastifyRequest) =>
    `${request.protocol}://${request.host}${OWNER_BASE}/wechat/callback`;

  app.get(
    `${OWNER_BASE}/site`,
    { config: open, schema: { tags, summary: "What sign-ins a tenant offers" } },
    async (request) => {
      const tenantId = await tenantOf(request);
      const settings = await settingsOf(db, cipher, tenantId);
      return ok({ tenantId, wechat: Boolean(settings?.appSecret) });
    },
  );

  app.post(
    `${OWNER_BASE}/code`,
    { config: open, schema: { tags, summary: "Send an SMS code to a phone" } },
    async (request) => {
      const tenantId = await tenantOf(request);
      const phone = readPhone(readParams(request).phone);
      const settings = await settingsOf(db, cipher, tenantId);
      await codes.send(tenantId, phone, request.ip, settings?.smsCode);
      return done("验证码已发送");
    },
  );

  app.post(
    `${OWNER_BASE}/sign-in`,
    { config: open, schema: { tags, summary: "Sign in with phone and SMS code" } },
    async (request) => {
      const tenantId = await tenantOf(request);
      const params = readParams(request);
      const phone = readPhone(params.phone);
      await codes.verify(tenantId, phone, params.code);
      const token = await openSession(db, tenantId, "phone", phone, null);
      return ok({ token });
    },
  );

  app.get(
    `${OWNER_BASE}/wechat`,
    { config: open, schema: { tags, summary: "Start WeChat web-page authorization" } },
    async (request, reply) => {
      const tenantId = await tenantOf(request);
      const settings = await settingsOf(db, cipher, tenantId);
      if (!settings) throw badRequest("tenantId: 未配置微信公众号");
      const { url, browserKey } = await wechat.start(tenantId, settings, callbackOf(request));
      reply.header("set-cookie", browserCookie(request, browserKey, STATE_SECONDS));
      return reply.redirect(url);
    },
  );

  app.get(
    `${OWNER_BASE}/wechat/callback`,
    { config: open, schema: { tags, summary: "WeChat sends the owner back" } },
    async (request, reply) => {
      const params = readParams(request);
      const state = optionalString(params, "state") ?? "";
      const code = optionalString(params, "code");
      const claimed = await wechat.claim(state, browserKeyOf(request));
      reply.header("set-cookie", browserCookie(request, "", 0));
      // The person declined (WeChat sends no code): back to the page, which offers the SMS sign-in.
      if (!code) return reply.redirect(`/h5/?tenant=${claimed.tenantId}`);
      const settings = await settingsOf(db, cipher, claimed.tenantId);
      if (!settings) throw badRequest("tenantId: 未配置微信公众号");
      const openid = await wechat.openid(claimed.tenantId, settings, callbackOf(request), code, {
        state,
        ...claimed,
      });
      const token = await openSession(db, claimed.tenantId, "wechat", openid, settings.appId);
      // The fragment never reaches a server or a log: the page reads the session from it and drops it.
      return reply.redirect(`/h5/?tenant=${claimed.tenantId}#session=${token}`);
    },
  );

  app.get(
    `${OWNER_BASE}/me`,
    { config: open, schema: { tags, summary: "The owner and their accounts" } },
    async (request) => {
      const session = await sessionOf(db, request);
      const base = {
        tenantId: session.tenantId,
        kind: session.kind,
        // The phone is the person's own; an openid is no use to them.
        phone: session.kind === "phone" ? session.identity : "",
        bound: session.ownerId !== null,
      };
      if (!session.ownerId) return ok({ ...base, ownerName: "", accounts: [] });
      return ok({
        ...base,
        ownerName: await ownerName(db, session.tenantId, session.ownerId),
        accounts: await accountsOf(db, session.tenantId, session.ownerId),
      });
    },
  );

  app.post(
    `${OWNER_BASE}/bind`,
    { config: open, schema: { tags, summary: "Bind to the owner of a room" } },
    async (request) => {
      const session = await sessionOf(db, request);
      const params = readParams(request);
      const room = optionalString(params, "room")?.trim();
      if (!room) throw badRequest("room: 请输入房间号");
      const phone = readPhone(params.phone);
      // A phone session has proven its phone already; anyone else proves the owner's phone now.
      if (!(session.kind === "phone" && session.identity === phone))
        await codes.verify(session.tenantId, phone, params.code);
      const owners = await ownersOfRoom(db, session.tenantId, room, phone);
      if (owners.length === 0) throw badRequest("room: 房间号与业主手机号不匹配");
      if (owners.length > 1) throw badRequest("room: 该房间号对应多位业主,请联系物业");
      await bindIdentity(db, session, owners[0]!);
      return done("绑定成功");
    },
  );

  app.post(
    `${OWNER_BASE}/unbind`,
    { config: open, schema: { tags, summary: "End the binding" } },
    async (request) => {
      const session = await sessionOf(db, request);
      boundOwner(session);
      await unbindIdentity(db, session);
      return done("已解除绑定");
    },
  );

  app.post(
    `${OWNER_BASE}/sign-out`,
    { config: open, schema: { tags, summary: "End the owner session" } },
    async (request) => {
      const session = await sessionOf(db, request);
      await closeSession(db, session.token);
      return done();
    },
  );

  app.get(
    `${OWNER_BASE}/usage`,
    { config: open, schema: { tags, summary: "Daily or monthly usage of an account" } },
    async (request) => {
      const session = await sessionOf(db, request);
      const ownerId = boundOwner(session);
      const params = readParams(request);
      const accountId = optionalString(params, "accountId") ?? "";
      const span = optionalString(params, "span") ?? "day";
      if (span !== "day" && span !== "month") throw badRequest("span: 应为 day 或 month");
      return ok(await usageOf(db, session.tenantId, ownerId, accountId, span, timeZone));
    },
  );

  app.get(
    `${OWNER_BASE}/history`,
    { config: open, schema: { tags, summary: "Recharges and payments" } },
    async (request) => {
      const session = await sessionOf(db, request);
      return ok(await historyOf(db, session.tenantId, boundOwner(session), timeZone));
    },
  );

  app.get(
    `${OWNER_BASE}/receipt`,
    { config: open, schema: { tags, summary: "One recharge's receipt" } },
    async (request) => {
      const session = await sessionOf(db, request);
      const id = optionalString(readParams(request), "id") ?? "";
      return ok(await receiptOf(db, session.tenantId, boundOwner(session), id, timeZone));
    },
  );

  app.get(
    `${OWNER_BASE}/notices`,
    { config: open, schema: { tags, summary: "Balance alarms, cuts and restores" } },
    async (request) => {
      const session = await sessionOf(db, request);
      return ok(await noticesOf(db, session.tenantId, boundOwner(session), timeZone));
    },
  );
}

import type { FastifyInstance, FastifyRequest } from "fastify";
import { done, ok } from "../../contract/envelope.ts";
import { badRequest, notFound } from "../../contract/errors.ts";
import { optionalString, readParams } from "../../contract/params.ts";
import type { FieldCipher } from "../../crud/field-cipher.ts";
import type { Db } from "../../db/client.ts";
import { closeSession, openSession, sessionOf } from "./owner-session.ts";
import { readPhone, type SmsCodes } from "./sms-codes.ts";
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
 * How an owner signs in on the owner page: a phone and an SMS code anywhere, WeChat's web-page
 * authorization inside WeChat. Each ends in an owner session (H5-Auth), never an operator token.
 */
export async function ownerSignInRoutes(
  app: FastifyInstance,
  opts: { db: Db; cipher: FieldCipher; codes: SmsCodes },
) {
  const { db, cipher, codes } = opts;
  const wechat = new WechatAuthorize(db);
  const sweeper = setInterval(() => {
    wechat.purge().catch((error: unknown) => app.log.warn({ err: error }, "owner page sweep failed"));
  }, 3_600_000);
  sweeper.unref();
  app.addHook("onClose", async () => clearInterval(sweeper));

  const open = { public: true } as const;
  const tags = ["ownerPage"];

  /** The tenant code the request names: six digits, whether or not such a tenant exists. */
  const tenantCodeOf = (request: FastifyRequest): string => {
    const tenantId = optionalString(readParams(request), "tenantId")?.trim();
    if (!tenantId || !/^\d{6}$/.test(tenantId)) throw badRequest("tenantId: 不能为空");
    return tenantId;
  };
  const tenantExists = async (tenantId: string): Promise<boolean> => {
    const rows = await db.query("select 1 from sys_tenant where tenant_id = $1 and is_deleted = 0", [
      tenantId,
    ]);
    return rows.length > 0;
  };
  const tenantOf = async (request: FastifyRequest): Promise<string> => {
    const tenantId = tenantCodeOf(request);
    if (!(await tenantExists(tenantId))) throw notFound("tenantId: 租户不存在");
    return tenantId;
  };
  /**
   * The tenant's official account when the tenant exists and has one that can sign owners in (its
   * secret is set). An unknown tenant has none, like a tenant without WeChat: the anonymous routes
   * that ask this cannot tell the two apart.
   */
  const wechatOf = async (tenantId: string) => {
    const [exists, settings] = await Promise.all([tenantExists(tenantId), settingsOf(db, cipher, tenantId)]);
    return exists && settings?.appSecret ? settings : null;
  };
  // The callback address WeChat sends the person back to: this server, as the browser reached it.
  const callbackOf = (request: FastifyRequest) =>
    `${request.protocol}://${request.host}${OWNER_BASE}/wechat/callback`;

  app.get(
    `${OWNER_BASE}/site`,
    { config: open, schema: { tags, summary: "What sign-ins a tenant offers" } },
    async (request) => {
      // Anyone may ask, so the answer has one shape and status for every code and says only what
      // the page needs (whether to offer WeChat): a tenant code that does not exist answers like a
      // tenant without WeChat, and the owner learns of it on asking for an SMS code.
      return ok({ wechat: (await wechatOf(tenantCodeOf(request))) !== null });
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
      const tenantId = tenantCodeOf(request);
      const settings = await wechatOf(tenantId);
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

  app.post(
    `${OWNER_BASE}/sign-out`,
    { config: open, schema: { tags, summary: "End the owner session" } },
    async (request) => {
      const session = await sessionOf(db, request);
      await closeSession(db, session.token);
      return done();
    },
  );
}

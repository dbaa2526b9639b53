import type { FastifyInstance } from "fastify";
import { done, ok } from "../../contract/envelope.ts";
import { badRequest } from "../../contract/errors.ts";
import { optionalString, readParams } from "../../contract/params.ts";
import type { FieldCipher } from "../../crud/field-cipher.ts";
import type { Db } from "../../db/client.ts";
import type { SmsProvider } from "../sms/sms-provider.ts";
import { ownerAlipayRoutes } from "./owner-alipay.routes.ts";
import { ownerAlipayDemoRoutes } from "./owner-alipay-demo.ts";
import { ownerPayRoutes } from "./owner-pay.routes.ts";
import { accountsOf, historyOf, noticesOf, ownerName, receiptOf, usageOf } from "./owner-reads.ts";
import { bindIdentity, boundOwner, ownersOfRoom, sessionOf, unbindIdentity } from "./owner-session.ts";
import { OWNER_BASE, ownerSignInRoutes } from "./owner-sign-in.routes.ts";
import { readPhone, SmsCodes } from "./sms-codes.ts";

/**
 * The owner page's API. None of it takes an operator token: the routes are outside the operator
 * authentication (public to it) and each one either needs nothing (sign-in, in its own file) or an
 * owner session from the H5-Auth header, whose tenant and bound owner bind every query.
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
  await ownerSignInRoutes(app, { db, cipher, codes });
  await ownerPayRoutes(app, { db, cipher, timeZone });
  await ownerAlipayRoutes(app, { db, cipher, timeZone });
  await ownerAlipayDemoRoutes(app);
  const open = { public: true } as const;
  const tags = ["ownerPage"];

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
        accounts: await accountsOf(db, session.tenantId, session.ownerId, timeZone),
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

import { moneyScreens, readCodesOf, resources } from "@meterline/contracts";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { ok } from "../../contract/envelope.ts";
import { missingParam, unauthorized } from "../../contract/errors.ts";
import { optionalString, readParams } from "../../contract/params.ts";
import { requirePermission } from "../../crud/permissions.ts";
import type { Db } from "../../db/client.ts";
import { AuthRepository } from "../auth/auth.repository.ts";
import { LiveHub } from "./live-hub.ts";
import { LiveTickets, TICKET_TTL_SECONDS, type TicketHolder } from "./live-tickets.ts";

const base = "/api/blade-pms/live";
const tags = ["live"];
/**
 * Who follows changes: users of the pages that follow them (room, meter, owner pages, the counter,
 * the command log). A user with none of them gets no stream, not even the bare ids it carries.
 */
const FOLLOW_CODES = [
  ...[resources.room, resources.meter, resources.water, resources.owner, resources.meterCommand].flatMap(
    (def) => readCodesOf(def),
  ),
  ...moneyScreens,
];

declare module "fastify" {
  interface FastifyInstance {
    /** This process's push streams (tests read how many are open). */
    liveHub: LiveHub;
  }
}

/**
 * The push channel of open console pages (server-sent events). A browser's EventSource cannot send
 * the Blade-Auth header, and the long-lived token must not travel in an address, so the console
 * first asks `live/ticket` with its token as every call does, then opens `live/stream?ticket=…`
 * within seconds; the ticket works once.
 */
async function live(app: FastifyInstance, { db }: { db: Db }) {
  const tickets = new LiveTickets(db);
  const sessions = new AuthRepository(db);
  const sessionAlive = async (holder: TicketHolder) => {
    const session = await sessions.liveSession(holder.jti);
    return (
      session !== undefined && session.tenant_id === holder.tenantId && session.user_id === holder.userId
    );
  };
  const hub = new LiveHub(sessionAlive);
  const stopWatching = await db.watchChanges(hub);
  app.decorate("liveHub", hub);
  // Open streams never end by themselves: end them so the server can close.
  app.addHook("preClose", async () => hub.stop());
  app.addHook("onClose", async () => stopWatching());

  app.post(
    `${base}/ticket`,
    {
      schema: {
        tags,
        summary: "A single-use ticket (valid 30 s) that opens the caller's push stream",
      },
    },
    async (request) => {
      const user = await requirePermission(db, request, FOLLOW_CODES);
      const ticket = await tickets.issue({ tenantId: user.tenantId, userId: user.userId, jti: user.jti });
      return ok({ ticket, expiresIn: TICKET_TTL_SECONDS });
    },
  );

  app.get(
    `${base}/stream`,
    {
      // The ticket is the credential here: the route checks it itself.
      config: { public: true },
      schema: {
        tags,
        summary:
          "Server-sent events of the caller's tenant: change {kind: supply|balance|command, meterIds}, resync, ready",
      },
    },
    async (request, reply) => {
      const ticket = optionalString(readParams(request), "ticket");
      if (!ticket) throw missingParam("ticket");
      const holder = await tickets.redeem(ticket);
      if (!holder || !(await sessionAlive(holder))) throw unauthorized("ticket: 无效或已使用");
      reply.hijack();
      hub.open(holder, reply.raw);
    },
  );
}

/** Not encapsulated: the hub is the server's (`app.liveHub`), and closing the server ends its streams. */
export const liveRoutes = fp(live, { name: "live" });

import { createHmac, timingSafeEqual } from "node:crypto";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";

/** Where stored files are served; a link is this base plus the file's unguessable name. */
export const FILE_LINK_BASE = "/api/blade-resource/oss/file";
const DAY_SECONDS = 86_400;
/** A file link in a JSON answer, with the signature an earlier answer may have given it. */
const LINK_IN_JSON = /\/api\/blade-resource\/oss\/file\/([\w./-]+?)(?:\?expires=\d+&signature=[\w-]+)?(?=")/g;
const SIGNED_SUFFIX = /\?expires=\d+&signature=[\w-]+$/;

/**
 * Signed, expiring links to stored files: an `<img>` tag (avatars, image fields, the login
 * background) and a download link cannot send the token, so each link the server hands out
 * carries `expires` (unix seconds) and an HMAC of the file's name and that expiry, keyed by a
 * secret derived from the server's signing key. Links expire at the end of the next day, so
 * one link stays the same all day long and browsers can cache the image.
 */
export class FileLinks {
  private readonly key: Buffer;

  constructor(serverSecret: string) {
    this.key = createHmac("sha256", serverSecret).update("meterline file links").digest();
  }

  private signature(name: string, expires: number): string {
    return createHmac("sha256", this.key).update(`${name}\n${expires}`).digest("base64url");
  }

  /** The signed link of a stored file's name, valid until the end of tomorrow (UTC). */
  sign(name: string, nowMs = Date.now()): string {
    const expires = (Math.floor(nowMs / 1000 / DAY_SECONDS) + 2) * DAY_SECONDS;
    return `${FILE_LINK_BASE}/${name}?expires=${expires}&signature=${this.signature(name, expires)}`;
  }

  /** True when the signature is this server's for the name and the expiry has not passed. */
  verify(name: string, expires: unknown, signature: unknown, nowMs = Date.now()): boolean {
    if (typeof expires !== "string" || typeof signature !== "string" || !/^\d{1,12}$/.test(expires))
      return false;
    if (Number(expires) * 1000 <= nowMs) return false;
    const expected = Buffer.from(this.signature(name, Number(expires)));
    const given = Buffer.from(signature);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}

/**
 * Signs every file link on its way out in a JSON answer (token answers, profiles, resource rows,
 * import results), and strips the signature from links sent back in a form, so what is stored is
 * the bare link and never an expired one.
 */
export default fp(
  async (app: FastifyInstance, opts: { serverSecret: string }) => {
    const links = new FileLinks(opts.serverSecret);
    app.decorate("fileLinks", links);
    app.addHook("preHandler", async (request) => {
      const body = request.body;
      if (!body || typeof body !== "object" || Array.isArray(body)) return;
      for (const [key, value] of Object.entries(body)) {
        if (typeof value === "string" && value.startsWith(FILE_LINK_BASE) && SIGNED_SUFFIX.test(value)) {
          (body as Record<string, unknown>)[key] = value.replace(SIGNED_SUFFIX, "");
        }
      }
    });
    app.addHook("onSend", async (_request, reply, payload) => {
      if (typeof payload !== "string" || !payload.includes(FILE_LINK_BASE)) return payload;
      if (!String(reply.getHeader("content-type") ?? "").startsWith("application/json")) return payload;
      const now = Date.now();
      return payload.replace(LINK_IN_JSON, (_link, name: string) => links.sign(name, now));
    });
  },
  { name: "file-links" },
);

declare module "fastify" {
  interface FastifyInstance {
    fileLinks: FileLinks;
  }
}

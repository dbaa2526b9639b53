import type { FastifyReply, FastifyRequest } from "fastify";
import { STATE_TTL_SECONDS } from "./social-sign-in.ts";

/** The cookie that ties a sign-in started at a provider to the browser that started it. */
const COOKIE = "meterline_social";
// Sent to the callback and to the token call, nowhere else.
const COOKIE_PATH = "/api/blade-auth/oauth";

export function setBrowserKey(request: FastifyRequest, reply: FastifyReply, key: string): void {
  // Lax: the provider sends the browser back with a top-level GET, which must carry the cookie.
  const secure = request.protocol === "https" ? "; Secure" : "";
  reply.header(
    "set-cookie",
    `${COOKIE}=${key}; Path=${COOKIE_PATH}; Max-Age=${STATE_TTL_SECONDS}; HttpOnly; SameSite=Lax${secure}`,
  );
}

export function browserKeyOf(request: FastifyRequest): string {
  for (const part of (request.headers.cookie ?? "").split(";")) {
    const at = part.indexOf("=");
    if (at > 0 && part.slice(0, at).trim() === COOKIE) return part.slice(at + 1).trim();
  }
  return "";
}

/** Spent once the sign-in is finished, whatever its outcome. */
export function clearBrowserKey(reply: FastifyReply): void {
  reply.header("set-cookie", `${COOKIE}=; Path=${COOKIE_PATH}; Max-Age=0; HttpOnly; SameSite=Lax`);
}

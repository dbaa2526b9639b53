import helmet from "@fastify/helmet";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";

/**
 * The Content-Security-Policy of every answer, console and API alike. Scripts come only from our
 * own origin (the console's bundle, the API browser's files): no inline script, no eval.
 */
export const CONTENT_SECURITY_POLICY = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  // Ant Design writes its CSS-in-JS into <style> tags at run time and ECharts and the API browser
  // set style attributes; neither works without inline styles. Styles cannot run code.
  styleSrc: ["'self'", "'unsafe-inline'"],
  // The captcha arrives as a data: URL, avatars are previewed from blob: URLs before upload.
  imgSrc: ["'self'", "data:", "blob:"],
  fontSrc: ["'self'", "data:"],
  connectSrc: ["'self'"],
  // External menu pages (the /myiframe route) may be framed when they are https; ours only by us.
  frameSrc: ["'self'", "https:"],
  frameAncestors: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  // Sites served over plain http on a LAN must keep loading their own files.
  upgradeInsecureRequests: null,
};

/**
 * Security headers through @fastify/helmet: the CSP above, X-Frame-Options SAMEORIGIN for browsers
 * without frame-ancestors, nosniff, and no Referer leaving the console.
 */
export default fp(
  async (app: FastifyInstance) => {
    await app.register(helmet, {
      contentSecurityPolicy: { useDefaults: false, directives: CONTENT_SECURITY_POLICY },
      frameguard: { action: "sameorigin" },
      referrerPolicy: { policy: "no-referrer" },
    });
  },
  { name: "security-headers" },
);

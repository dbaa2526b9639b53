import { existsSync } from "node:fs";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";
import { failure } from "../contract/envelope.ts";

/** Files the build names by their content's hash: a new version is a new name, so keep them forever. */
const HASHED = /[^/]+-[\w-]{8,}\.[\w.]+$/;
export const IMMUTABLE = "public, max-age=31536000, immutable";

/** The owner page's document in the build (a second entry beside the console's index.html). */
const OWNER_PAGE = "h5/index.html";

/** Scripts and style sheets of the build: never shown as a page of their own. */
const SUBRESOURCE = /\.(js|css)(\.br|\.gz)?$/;

/**
 * Headers that only mean something on a document (framing, the page's CSP, cross-origin
 * isolation, HSTS, old IE options). A script or style sheet carries them for nothing: with ~40
 * files on the first load they were ~25 KB of the login page's wire. nosniff, the
 * cross-origin-resource policy and the referrer policy (a style sheet's own fetches follow it)
 * stay; other files under /assets (the SVG logo, a document when opened) keep them all.
 */
const DOCUMENT_ONLY = [
  "content-security-policy",
  "cross-origin-opener-policy",
  "origin-agent-cluster",
  "strict-transport-security",
  "x-dns-prefetch-control",
  "x-download-options",
  "x-frame-options",
  "x-permitted-cross-domain-policies",
  "x-xss-protection",
];

/**
 * Serves the built console at `/` with an SPA fallback: any GET outside /api that is not a file
 * gets index.html, so deep links such as /wel/dashboard load the console. The build's brotli and
 * gzip copies (.br, .gz) are sent to browsers that accept them; hashed assets are cached for a
 * year, everything else (index.html above all, which names the current assets) is revalidated.
 */
export async function consoleStatic(app: FastifyInstance, opts: { root: string }) {
  const index = path.join(opts.root, "index.html");
  if (!existsSync(index)) {
    app.log.warn({ root: opts.root }, "console build not found; serving the API only");
    return;
  }
  // The hashed assets behind one wildcard route: a route per file (and per .br/.gz copy) would
  // cost every start hundreds of route registrations.
  await app.register(fastifyStatic, {
    root: path.join(opts.root, "assets"),
    prefix: "/assets/",
    wildcard: true,
    decorateReply: false,
    preCompressed: true,
    cacheControl: false,
    setHeaders: (reply, file) => {
      const hashed = HASHED.test(file.replaceAll("\\", "/"));
      reply.header("cache-control", hashed ? IMMUTABLE : "no-cache");
      if (!SUBRESOURCE.test(file)) return;
      for (const name of DOCUMENT_ONLY) reply.removeHeader(name);
      // A hashed name is never asked for again: its validators would only be dead weight.
      if (hashed) {
        reply.removeHeader("etag");
        reply.removeHeader("last-modified");
      }
    },
  });
  // The few files at the top (index.html, the icon), each a route of its own.
  await app.register(fastifyStatic, {
    root: opts.root,
    wildcard: false,
    globIgnore: ["assets/**"],
    // "/" is answered by the console route below: the plugin's own index lookup does not fall back
    // to the plain file when a compressed copy of index.html is missing.
    index: false,
    preCompressed: true,
    cacheControl: false,
    setHeaders: (reply) => {
      reply.header("cache-control", "no-cache");
    },
  });
  // The owner page is an entry of its own (h5/index.html), so owners never load the console.
  const ownerPage = existsSync(path.join(opts.root, OWNER_PAGE));
  app.get("/h5", { schema: { hide: true } }, async (request, reply) => {
    const query = request.url.indexOf("?");
    return reply.redirect(`/h5/${query >= 0 ? request.url.slice(query) : ""}`);
  });
  // Every other GET outside /api is a console route; the not-found handler stays the API's.
  app.get("/*", { schema: { hide: true } }, async (request, reply) => {
    const pathOnly = request.url.split("?")[0] ?? "";
    if (pathOnly.startsWith("/api/") || path.extname(pathOnly) !== "") {
      return reply.status(404).send(failure(404, `404 没找到请求: ${request.method} ${pathOnly}`));
    }
    const page = ownerPage && pathOnly.startsWith("/h5/") ? OWNER_PAGE : "index.html";
    return reply.type("text/html").header("cache-control", "no-cache").sendFile(page);
  });
}

import { existsSync } from "node:fs";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";
import { failure } from "../contract/envelope.ts";

/** Files the build names by their content's hash: a new version is a new name, so keep them forever. */
const HASHED = /[^/]+-[\w-]{8,}\.[\w.]+$/;
export const IMMUTABLE = "public, max-age=31536000, immutable";

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
      reply.header("cache-control", HASHED.test(file.replaceAll("\\", "/")) ? IMMUTABLE : "no-cache");
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
  // Every other GET outside /api is a console route; the not-found handler stays the API's.
  app.get("/*", { schema: { hide: true } }, async (request, reply) => {
    const pathOnly = request.url.split("?")[0] ?? "";
    if (pathOnly.startsWith("/api/") || path.extname(pathOnly) !== "") {
      return reply.status(404).send(failure(404, `404 没找到请求: ${request.method} ${pathOnly}`));
    }
    return reply.type("text/html").header("cache-control", "no-cache").sendFile("index.html");
  });
}

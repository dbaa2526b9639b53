// The compiled server (apps/server/dist, made by `npm run build`), rebuilt first when it is missing
// or older than any of its sources: `npm start` and `npm run gateway` never run stale code.
import { existsSync, readdirSync, statSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const serverDist = `${root}apps/server/dist/`;
// Everything bundled into the server: a change to any of it makes the compiled server stale.
const sources = ["apps/server/src", "apps/gateway/src", "packages"].map((dir) => `${root}${dir}`);

function newestChange(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "node_modules" || entry.name === "dist") continue;
    const full = `${dir}/${entry.name}`;
    newest = Math.max(newest, entry.isDirectory() ? newestChange(full) : statSync(full).mtimeMs);
  }
  return newest;
}

/** The path of a compiled entry when it is built and newer than all its sources, else undefined. */
export function freshEntry(name) {
  const entry = `${serverDist}${name}.mjs`;
  if (!existsSync(entry)) return undefined;
  const built = statSync(entry).mtimeMs;
  return sources.some((dir) => existsSync(dir) && newestChange(dir) > built) ? undefined : entry;
}

/** The file URL of a compiled entry (main, gateway, gateway-process), built first if need be. */
export async function compiledEntry(name) {
  const entry = `${serverDist}${name}.mjs`;
  if (!freshEntry(name)) {
    const { buildServer } = await import("./build-server.mjs");
    await buildServer();
  }
  return pathToFileURL(entry).href;
}

// `npm run build` (after the console): compiles the server, the registry gateway process, the
// stand-alone gateway and the spreadsheet worker into apps/server/dist/*.mjs, so that `npm start`
// runs plain JavaScript and nothing is transpiled at run time. The workspace packages are bundled
// in (their package.json points at TypeScript); everything from node_modules stays an import.
import { cp, rm } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { build, stop } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));
export const serverDist = `${root}apps/server/dist/`;

/**
 * Output names are the source's own names with .mjs, in one folder: code that finds a sibling by
 * `new URL("./x.mjs", import.meta.url)` (the spreadsheet worker) or a folder next to it
 * (migrations/) finds it in the compiled tree as it does in the sources.
 */
const entryPoints = {
  main: "apps/server/src/main.ts",
  "gateway-process": "apps/server/src/gateway-process.ts",
  gateway: "apps/gateway/src/main.ts",
  "sheet-worker": "apps/server/src/xlsx/sheet-worker.ts",
  "pglite-worker": "apps/server/src/db/pglite-worker.ts",
};

/** Bare imports stay imports, except our own workspaces, which ship TypeScript. */
const externalDependencies = {
  name: "external-dependencies",
  setup(bundler) {
    bundler.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith("@meterline/")) return undefined;
      return { path: args.path, external: true };
    });
  },
};

export async function buildServer() {
  await rm(serverDist, { recursive: true, force: true });
  await build({
    absWorkingDir: root,
    entryPoints,
    outdir: serverDist,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    splitting: true,
    chunkNames: "[name]-[hash]",
    platform: "node",
    format: "esm",
    target: "node20",
    sourcemap: "linked",
    plugins: [externalDependencies],
    logLevel: "warning",
  });
  // esbuild's service process would otherwise live as long as the server that `npm start` runs here.
  await stop();
  // Schema and seed SQL are read at run time, next to the compiled code as next to the sources.
  await cp(`${root}apps/server/src/db/migrations`, `${serverDist}migrations`, { recursive: true });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  await buildServer();
  console.log(`server built in ${Math.round(performance.now() - started)} ms → apps/server/dist/`);
}

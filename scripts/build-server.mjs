// `npm run build` (after the console): compiles the server, the registry gateway process, the
// stand-alone gateway and the spreadsheet worker into apps/server/dist/*.mjs, so that `npm start`
// runs plain JavaScript and nothing is transpiled at run time. The workspace packages are bundled
// in (their package.json points at TypeScript); everything from node_modules stays an import.
import { cp, readdir, readFile, rm, writeFile } from "node:fs/promises";
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
  "secret-worker": "apps/server/src/secret-worker.ts",
};

/**
 * Packages loaded as they are, from node_modules: those that find files of their own next to their
 * code (the API browser's pages, the embedded database's WebAssembly, pg's optional native driver)
 * and the large ones that are only loaded when first used (spreadsheets, the secret checks' word
 * lists, the OpenAPI generator). Everything else the server imports at start is bundled: loading
 * its ~400 small CommonJS files one by one (resolve, stat, read, compile) was a fifth of the start.
 */
const LOADED_AS_IS = [
  "@electric-sql/pglite",
  "@fastify/swagger",
  "@fastify/swagger-ui",
  "@zxcvbn-ts/core",
  "@zxcvbn-ts/language-common",
  "exceljs",
  // Reads its font metrics from files next to its code; loaded with the first PDF export.
  "pdfkit",
  "pg-native",
  "tsx",
];

const externalDependencies = {
  name: "external-dependencies",
  setup(bundler) {
    bundler.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith("@meterline/") || args.path.startsWith("node:")) return undefined;
      const external = LOADED_AS_IS.some((name) => args.path === name || args.path.startsWith(`${name}/`));
      return external ? { path: args.path, external: true } : undefined;
    });
  },
};

/** Bundled CommonJS code calls require() for Node's own modules: ESM output has to provide it. */
const requireBanner =
  'import { createRequire as __meterlineRequire } from "node:module";\n' +
  "const require = __meterlineRequire(import.meta.url);";

/**
 * V8 keeps each module's source in memory for as long as the process lives (functions compile
 * lazily from it), one byte a character, unless a single character is beyond Latin-1: then the
 * whole text takes two. esbuild writes code as ASCII but keeps the comments it finds in class
 * bodies as they are, and one library's doc comments quote Arabic and Burmese dates: the 6.6 MB
 * server chunk took 13.3 MB of the idle heap. Such characters (only ever in comments, since code
 * is ASCII) become \u escapes.
 */
async function keepOneByteSources() {
  for (const name of await readdir(serverDist)) {
    if (!name.endsWith(".mjs")) continue;
    const file = `${serverDist}${name}`;
    const text = await readFile(file, "utf8");
    // Every UTF-16 unit above Latin-1, surrogate halves included (each becomes its own escape).
    const beyondLatin1 = /[\u0100-\uffff]/g;
    if (text.search(beyondLatin1) < 0) continue;
    await writeFile(
      file,
      text.replace(beyondLatin1, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`),
    );
  }
}

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
    banner: { js: requireBanner },
    logLevel: "warning",
  });
  // esbuild's service process would otherwise live as long as the server that `npm start` runs here.
  await stop();
  await keepOneByteSources();
  // Schema and seed SQL are read at run time, next to the compiled code as next to the sources.
  await cp(`${root}apps/server/src/db/migrations`, `${serverDist}migrations`, { recursive: true });
  // The BPMN processes the product ships, deployed at start (modules/workflow/shipped.ts).
  await cp(`${root}apps/server/src/modules/workflow/processes`, `${serverDist}processes`, {
    recursive: true,
  });
  // The Modbus model catalogue (one JSON file a model), read at run time by the gateway and the
  // simulated fleet (packages/protocols/src/modbus/catalogue.ts looks beside its own code).
  await cp(`${root}packages/protocols/src/modbus/models`, `${serverDist}models`, { recursive: true });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  await buildServer();
  console.log(`server built in ${Math.round(performance.now() - started)} ms → apps/server/dist/`);
}

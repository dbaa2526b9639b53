import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { renderIconDefinitionToSVGElement } from "@ant-design/icons-svg/lib/helpers.js";
import type { IconDefinition } from "@ant-design/icons-svg/lib/types.js";
import { transform } from "esbuild";
import type { Plugin, Rollup } from "vite";

type OutputBundle = Rollup.OutputBundle;

// A relative import: the config bundler inlines it (the workspace package is TypeScript source).
import { website } from "../../packages/contracts/src/website.ts";
import { en } from "./src/i18n/en.ts";
import { zh } from "./src/i18n/zh.ts";

const here = path.dirname(fileURLToPath(import.meta.url));

/** The texts the boot form shows, from the console's own tables (one source for both forms). */
const TEXT_KEYS = {
  title: "app.title",
  subtitle: "app.subtitle",
  welcome: "login.welcome",
  tenantId: "login.tenantId",
  username: "login.username",
  password: "login.password",
  showPassword: "login.showPassword",
  hidePassword: "login.hidePassword",
  submit: "login.submit",
  language: "top.language",
} as const;

type TextName = keyof typeof TEXT_KEYS;

/** antd puts a space between the two characters of a two-character Chinese button label. */
const buttonLabel = (text: string) => (/^[\u4e00-\u9fa5]{2}$/.test(text) ? `${text[0]} ${text[1]}` : text);

function textsOf(catalogue: Record<string, string>): Record<TextName, string> {
  const texts = {} as Record<TextName, string>;
  for (const [name, key] of Object.entries(TEXT_KEYS) as [TextName, string][]) {
    const text = catalogue[key];
    if (text === undefined) throw new Error(`boot login: no text for ${key}`);
    texts[name] = name === "submit" ? buttonLabel(text) : text;
  }
  return texts;
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c] ?? c);

async function icon(name: string, className = ""): Promise<string> {
  // A CommonJS module: Node hands its exports object over as the default.
  const module = (await import(`@ant-design/icons-svg/lib/asn/${name}.js`)) as {
    default: IconDefinition | { default: IconDefinition };
  };
  const definition = "default" in module.default ? module.default.default : module.default;
  const svg = renderIconDefinitionToSVGElement(definition, {
    extraSVGAttrs: {
      width: "1em",
      height: "1em",
      fill: "currentColor",
      "aria-hidden": "true",
      focusable: "false",
    },
  });
  // Decorative, as the fields and the button are named themselves.
  return `<span class="anticon ${className}" aria-hidden="true">${svg}</span>`;
}

/**
 * The login form's markup, laid out with the classes of the console's login page (LoginPage and
 * LoginForm), in zh; the boot script switches the texts for English readers.
 */
async function markup(texts: Record<TextName, string>, logoUrl: string): Promise<string> {
  const field = async (name: string, iconName: string, testId: string, extra: string, suffix = "") =>
    `<div class="ml-login-field"><span class="ml-login-input"><span class="ml-login-prefix">${await icon(iconName)}</span>` +
    `<input class="ml-login-control" id="boot-${name}" name="${name}" data-label="${name}" ` +
    `placeholder="${escapeHtml(texts[name as TextName])}" aria-label="${escapeHtml(texts[name as TextName])}" ` +
    `data-testid="${testId}" ${extra}>${suffix}</span></div>`;
  const eye =
    `<button type="button" tabindex="-1" class="ml-login-suffix" data-label="showPassword" aria-label="${escapeHtml(texts.showPassword)}">` +
    `${await icon("EyeInvisibleOutlined", "ml-boot-eye-closed")}${await icon("EyeOutlined", "ml-boot-eye-open")}</button>`;
  const tenant = website.tenantMode
    ? await field(
        "tenantId",
        "TeamOutlined",
        "login-tenant",
        `value="${escapeHtml(website.defaultTenantId)}"`,
      )
    : "";
  return [
    `<div id="ml-boot-login" hidden><div class="ml-boot"><div class="ml-login"><div class="ml-login-card">`,
    `<div class="ml-login-top"><span class="ml-login-language ml-boot-language" aria-hidden="true">${await icon("TranslationOutlined")}</span></div>`,
    `<div class="ml-login-brand"><img src="${escapeHtml(logoUrl)}" alt=""><div>`,
    `<h3 class="ml-login-title" data-text="title">${escapeHtml(texts.title)}</h3>`,
    `<span class="ml-login-subtitle" data-text="subtitle">${escapeHtml(texts.subtitle)}</span></div></div>`,
    `<h4 class="ml-login-welcome" data-text="welcome">${escapeHtml(texts.welcome)}</h4>`,
    `<form class="ml-login-form" novalidate>`,
    tenant,
    await field("username", "UserOutlined", "login-username", `autocomplete="username"`),
    await field(
      "password",
      "LockOutlined",
      "login-password",
      `type="password" autocomplete="current-password"`,
      eye,
    ),
    `<button type="submit" class="ml-login-submit" data-testid="login-submit" data-text="submit">${escapeHtml(texts.submit)}</button>`,
    `</form></div></div></div></div>`,
  ].join("");
}

/**
 * main.tsx imports the console (start.tsx) only after the boot form's first paint; its chunks are
 * preloaded from index.html all the same, as the entry's own are, so the console starts no later.
 */
function withStartPreloads(html: string, bundle: OutputBundle | undefined): string {
  const chunks = Object.values(bundle ?? {}).filter((file) => file.type === "chunk");
  const start = chunks.find((chunk) => chunk.facadeModuleId?.endsWith("/src/start.tsx"));
  if (!start) throw new Error("boot login: the build has no chunk for src/start.tsx");
  const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const wanted = new Set<string>();
  const visit = (fileName: string) => {
    if (wanted.has(fileName)) return;
    wanted.add(fileName);
    for (const imported of byName.get(fileName)?.imports ?? []) visit(imported);
  };
  visit(start.fileName);
  const links = [...wanted]
    .filter((fileName) => !html.includes(`/${fileName}"`))
    .map((fileName) => `<link rel="modulepreload" crossorigin href="/${fileName}">`);
  return html.replace("</head>", `    ${links.join("\n    ")}\n  </head>`);
}

/**
 * Puts the login form into index.html itself, with a small classic script that shows it on /login
 * before any module has loaded: the form is on screen at the document's first paint instead of
 * after the console's scripts, the login page's chunk and React's first render (spec §2's login
 * page; issue 12's "shows the form at once"). The console's login page takes it over.
 */
export function bootLogin(): Plugin {
  let script = "";
  let fileName = "";
  return {
    name: "meterline-boot-login",
    apply: "build",
    async buildStart() {
      const texts = { zh: textsOf(zh), en: textsOf(en) };
      const source = (await readFile(path.join(here, "boot/boot-login.js"), "utf8")).replace(
        "__BOOT_TEXTS__",
        JSON.stringify(texts),
      );
      script = (await transform(source, { minify: true, target: "es2020" })).code;
      fileName = `assets/login-boot-${createHash("sha256").update(script).digest("hex").slice(0, 8)}.js`;
    },
    generateBundle() {
      this.emitFile({ type: "asset", fileName, source: script });
    },
    transformIndexHtml: {
      order: "post",
      async handler(html, context) {
        // The icon link already carries the logo's hashed name: the boot form shows the same file.
        const logoUrl = html.match(/<link rel="icon"[^>]*href="([^"]+)"/)?.[1] ?? "";
        const form = await markup(textsOf(zh), logoUrl);
        // The stylesheet and the boot script are asked for before the two dozen module preloads
        // (a browser opens six connections per site): the form's first paint waits for both. The
        // script itself follows the form and blocks the parser, so that it runs before any module
        // and before the browser compiles what the preloads bring.
        const stylesheet = html.match(/\s*<link rel="stylesheet"[^>]*>/)?.[0] ?? "";
        return withStartPreloads(html.replace(stylesheet, ""), context.bundle)
          .replace(
            "</title>",
            `</title>\n    ${stylesheet.trim()}\n    <link rel="preload" as="script" fetchpriority="high" href="/${fileName}">`,
          )
          .replace(
            '<div id="root"></div>',
            `<div id="root"></div>\n    ${form}\n    <script src="/${fileName}"></script>`,
          );
      },
    },
  };
}

import type { Locale } from "antd/es/locale";
import zhCN from "antd/es/locale/zh_CN";
import { useCallback, useMemo } from "react";
import type { Language } from "../store/state.ts";
import { store } from "../store/store.ts";
import { useConsole } from "../store/useConsole.ts";
import { type MessageKey, zh } from "./zh.ts";

export type { MessageKey } from "./zh.ts";

/**
 * zh, the default, is built in; another language's tables (ours and antd's) travel only to those
 * who use it: loaded before the first render when it is the stored choice, else on switching.
 */
const catalogues: Partial<Record<Language, Record<MessageKey, string>>> = { zh };
const antdLocales: Partial<Record<Language, Locale>> = { zh: zhCN };

/** Loads a language's message tables (a no-op for one already loaded). */
export async function loadLanguage(language: Language): Promise<void> {
  if (catalogues[language]) return;
  const [{ en }, { default: enUS }] = await Promise.all([import("./en.ts"), import("antd/es/locale/en_US")]);
  catalogues.en = en;
  antdLocales.en = enUS;
}

/** Switches the console's language once its tables are there; the choice is persisted. */
export async function setLanguage(language: Language): Promise<void> {
  await loadLanguage(language);
  store.setState({ language });
}

/** antd's own texts (pagers, pickers, empty states) in `language`. */
export function antdLocaleOf(language: Language): Locale {
  return antdLocales[language] ?? zhCN;
}

export type Vars = Record<string, string | number>;

function fill(text: string, vars?: Vars): string {
  if (!vars) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));
}

/** Translates outside React (e.g. the API error bridge). */
export function translate(language: Language, key: MessageKey, vars?: Vars): string {
  return fill(catalogues[language]?.[key] ?? zh[key], vars);
}

/** Translates a key built at run time (menu codes, stored tab keys); `fallback` when unknown. */
export function translateDynamic(language: Language, key: string | undefined, fallback: string): string {
  if (!key) return fallback;
  const catalogue = (catalogues[language] ?? zh) as Record<string, string>;
  return catalogue[key] ?? fallback;
}

export type Translate = (key: MessageKey, vars?: Vars) => string;

export interface I18n {
  language: Language;
  t: Translate;
  /** For keys built at run time: `tr("menu." + code, name)`. */
  tr: (key: string | undefined, fallback: string) => string;
}

/** The translation hook; re-renders on language change. */
export function useI18n(): I18n {
  const language = useConsole((state) => state.language);
  const t = useCallback<Translate>((key, vars) => translate(language, key, vars), [language]);
  const tr = useCallback(
    (key: string | undefined, fallback: string) => translateDynamic(language, key, fallback),
    [language],
  );
  return useMemo(() => ({ language, t, tr }), [language, t, tr]);
}

/** Shortcut when only `t` is needed. */
export function useT(): Translate {
  return useI18n().t;
}

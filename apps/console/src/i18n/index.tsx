import { useCallback, useMemo } from "react";
import type { Language } from "../store/state.ts";
import { useConsole } from "../store/useConsole.ts";
import { en } from "./en.ts";
import { type MessageKey, zh } from "./zh.ts";

export type { MessageKey } from "./zh.ts";

const catalogues: Record<Language, Record<MessageKey, string>> = { zh, en };

export type Vars = Record<string, string | number>;

function fill(text: string, vars?: Vars): string {
  if (!vars) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));
}

/** Translates outside React (e.g. the API error bridge). */
export function translate(language: Language, key: MessageKey, vars?: Vars): string {
  return fill(catalogues[language][key] ?? zh[key], vars);
}

/** Translates a key built at run time (menu codes, stored tab keys); `fallback` when unknown. */
export function translateDynamic(language: Language, key: string | undefined, fallback: string): string {
  if (!key) return fallback;
  const catalogue = catalogues[language] as Record<string, string>;
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

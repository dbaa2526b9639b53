import type { DictionaryItem } from "@meterline/api-client";
import type { FieldDef } from "@meterline/contracts";
import { useEffect, useState } from "react";
import { api, reportNetworkError } from "../app/api.ts";
import type { Language } from "../store/state.ts";

/**
 * Dictionary items are shared by every select of a page and rarely change, so each code is fetched
 * once per page load; a failed fetch is forgotten so the next select tries again.
 */
const cache = new Map<string, Promise<DictionaryItem[]>>();

export function loadDictionary(code: string, biz: boolean): Promise<DictionaryItem[]> {
  const key = `${biz ? "biz" : "sys"}:${code}`;
  let pending = cache.get(key);
  if (!pending) {
    pending = api.dictionary(code, biz).catch((error: unknown) => {
      cache.delete(key);
      throw error;
    });
    cache.set(key, pending);
  }
  return pending;
}

export interface Option {
  value: string;
  label: string;
}

export const dictionaryOptions = (items: readonly DictionaryItem[], language: Language): Option[] =>
  items.map((item) => ({
    value: String(item.dictKey),
    label: language === "en" && item.dictValueEn ? item.dictValueEn : item.dictValue,
  }));

/** The select options of a dict- or dictBiz-backed field; empty for any other field. */
export function useDictionary(field: FieldDef, language: Language): Option[] {
  const code = field.dict ?? field.dictBiz;
  const [items, setItems] = useState<DictionaryItem[]>([]);
  useEffect(() => {
    if (!code) return;
    let live = true;
    loadDictionary(code, Boolean(field.dictBiz))
      .then((loaded) => live && setItems(loaded))
      // Server failures were toasted by the API bridge; the select just stays empty.
      .catch(reportNetworkError);
    return () => {
      live = false;
    };
  }, [code, field.dictBiz]);
  return dictionaryOptions(items, language);
}

import { useEffect, useState } from "react";
import { dictionaryOptions, loadDictionary, type Option } from "../../../crud/dictionary.ts";
import { type Translate, useI18n } from "../../../i18n/index.tsx";

const BUILT_IN = ["1", "2", "3", "4", "5", "0"] as const;

/** The built-in PAYMENT_METHOD labels (spec §3), for when the dictionary cannot be read. */
const builtIn = (t: Translate): Option[] =>
  BUILT_IN.map((key) => ({ value: key, label: t(`counter.method.${key}`) }));

/**
 * The payment methods of the PAYMENT_METHOD dictionary in the console's language; the spec's own
 * list until it has loaded or when it fails, so the counter can always take money.
 */
export function usePaymentMethods(): Option[] {
  const { language, t } = useI18n();
  const [items, setItems] = useState<Awaited<ReturnType<typeof loadDictionary>>>([]);
  useEffect(() => {
    let live = true;
    loadDictionary("PAYMENT_METHOD", false)
      .then((loaded) => live && setItems(loaded))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);
  return items.length > 0 ? dictionaryOptions(items, language) : builtIn(t);
}

/** The label of a payment method key among `options`, or the key itself. */
export const methodLabel = (options: readonly Option[], key: number | string) =>
  options.find((option) => option.value === String(key))?.label ?? String(key);

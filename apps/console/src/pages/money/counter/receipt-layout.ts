import { useState } from "react";

/** The paper a receipt is printed on: a whole A4 sheet, half of one (A5), or a 58 mm or 80 mm thermal roll. */
export type ReceiptLayout = "a4" | "a5" | "58mm" | "80mm";

export const RECEIPT_LAYOUTS: readonly ReceiptLayout[] = ["a4", "a5", "80mm", "58mm"];

/** Per browser: each desk has its own printer, so the choice stays with the browser, not the user. */
const STORAGE_KEY = "meterline.receiptLayout";

function stored(): ReceiptLayout {
  try {
    const value = window.localStorage.getItem(STORAGE_KEY);
    return RECEIPT_LAYOUTS.find((layout) => layout === value) ?? "a5";
  } catch {
    return "a5"; // storage refused (private mode): the default paper
  }
}

/** The receipt layout last chosen in this browser, and a setter that remembers the choice. */
export function useReceiptLayout(): [ReceiptLayout, (layout: ReceiptLayout) => void] {
  const [layout, setLayout] = useState<ReceiptLayout>(stored);
  const choose = (next: ReceiptLayout) => {
    setLayout(next);
    try {
      window.localStorage.setItem(STORAGE_KEY, next);
    } catch {
      // not remembered, still used for this print
    }
  };
  return [layout, choose];
}

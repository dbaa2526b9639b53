import { useT } from "../../../i18n/index.tsx";
import type { ClosingSupplyState } from "./receipt-data.ts";

/**
 * What a closing did to supply, in words: a cut on its way or confirmed by the meter's read-back,
 * a cut that was not confirmed (the command's state), supply kept on with the operator's reason, or
 * nothing switched (with the server's reason when it gave one). Empty before anything was recorded.
 */
export function useClosingSupplyText() {
  const t = useT();
  return ({ supply, reason, state }: ClosingSupplyState): string => {
    if (supply === "2") return t("closingSupply.kept", { reason });
    if (supply === "1") {
      if (state === "success") return t("closingSupply.cut");
      if (state === "queued" || state === "sent" || state === "") return t("closingSupply.cutting");
      return t("closingSupply.unconfirmed", { state });
    }
    if (supply === "0") return reason ? t("closingSupply.noneWhy", { reason }) : t("closingSupply.none");
    return "";
  };
}

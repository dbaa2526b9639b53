import type { GlobalToken } from "antd";
import type { MessageKey } from "../../../i18n/index.tsx";
import type { Band } from "./scheme-json.ts";

/** The colour of each band in the editors, from the theme (tip hottest, low coolest). */
export const bandColours = (token: GlobalToken): Record<Band, string> => ({
  tip: token.colorError,
  peak: token.colorWarning,
  peace: token.colorPrimary,
  low: token.colorSuccess,
});

export const bandNames: Record<Band, MessageKey> = {
  tip: "scheme.band.tip",
  peak: "scheme.band.peak",
  peace: "scheme.band.peace",
  low: "scheme.band.low",
};

import type { FormRule } from "antd";
import type { FormCustomization } from "../../../crud/form-customization.ts";
import type { Translate } from "../../../i18n/index.tsx";
import { LadderEditor } from "./LadderEditor.tsx";
import { LadderView, TouPeriodsView } from "./SchemeViewers.tsx";
import { type Band, bandsUsed, ladderProblem, type Problem, slotsProblem } from "./scheme-json.ts";
import { TouPeriodsEditor } from "./TouPeriodsEditor.tsx";

/** Keys of the `price_mode` dictionary. */
const FLAT = "1";
const LADDER = "2";
const TIME_OF_USE = "3";

const bandOfPrice: Record<string, Band> = {
  tipPrice: "tip",
  peakPrice: "peak",
  peacePrice: "peace",
  lowPrice: "low",
};

/** A rule that fails with the problem's message. */
export const problemRule =
  (check: (value: unknown) => Problem | null, t: Translate): FormRule =>
  () => ({
    validator: async (_, value: unknown) => {
      const problem = check(value);
      if (problem) throw new Error(t(problem.key, problem.vars));
    },
  });

/**
 * The charging scheme form: only what the price mode needs (a price; a cycle and a table of tiers;
 * or a table of time slots and the prices of the bands they use), each of them required then.
 */
export const chargingForm: FormCustomization = {
  editors: { ladder: LadderEditor, touPeriods: TouPeriodsEditor },
  viewers: { ladder: LadderView, touPeriods: TouPeriodsView },
  visible(name, values) {
    const mode = String(values.priceMode ?? "");
    if (name === "price") return mode === FLAT;
    if (name === "ladderCycle" || name === "ladder") return mode === LADDER;
    if (name === "touPeriods") return mode === TIME_OF_USE;
    const band = bandOfPrice[name];
    if (band) return mode === TIME_OF_USE && bandsUsed(values.touPeriods).includes(band);
    return true;
  },
  rules(name, t, label) {
    if (name === "ladder") return [problemRule(ladderProblem, t)];
    if (name === "touPeriods") return [problemRule(slotsProblem, t)];
    if (name === "ladderCycle") return [{ required: true, message: t("crud.requiredSelect", { label }) }];
    if (name === "price" || bandOfPrice[name])
      return [{ required: true, message: t("crud.required", { label }) }];
    return [];
  },
  extra(name, t) {
    if (name === "ladder") return t("scheme.ladder.hint");
    if (name === "touPeriods") return t("scheme.tou.hint");
    return undefined;
  },
};

import type { FormCustomization } from "../../../crud/form-customization.ts";
import { ChannelsSelect, ChannelsText } from "./ChannelsSelect.tsx";
import { problemRule } from "./charging-form.ts";
import { ProtectDatesEditor } from "./ProtectDatesEditor.tsx";
import { ProtectTimesEditor } from "./ProtectTimesEditor.tsx";
import { ProtectDatesView, ProtectTimesView } from "./SchemeViewers.tsx";
import { datesProblem, windowsProblem } from "./scheme-json.ts";

const isBlank = (value: unknown) => value === undefined || value === null || value === "";

/**
 * The alarm scheme form: protection windows as a list, protected dates as a list with a weekend
 * switch, channels as a multiple choice, and the first alarm above the second.
 */
export const alarmForm: FormCustomization = {
  editors: {
    protectTimes: ProtectTimesEditor,
    protectDates: ProtectDatesEditor,
    notifyChannels: ChannelsSelect,
  },
  viewers: { notifyChannels: ChannelsText, protectTimes: ProtectTimesView, protectDates: ProtectDatesView },
  dependencies: { firstAlarm: ["secondAlarm"] },
  rules(name, t) {
    if (name === "protectTimes") return [problemRule(windowsProblem, t)];
    if (name === "protectDates") return [problemRule(datesProblem, t)];
    if (name === "firstAlarm")
      return [
        ({ getFieldValue }) => ({
          validator: async (_, first: unknown) => {
            const second: unknown = getFieldValue("secondAlarm");
            if (isBlank(first) || isBlank(second)) return;
            if (Number(first) <= Number(second)) throw new Error(t("scheme.alarm.falling"));
          },
        }),
      ];
    return [];
  },
  extra(name, t) {
    if (name === "protectTimes") return t("scheme.protect.hint");
    return undefined;
  },
};

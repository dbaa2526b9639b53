import type { FieldDef } from "@meterline/contracts";
import { Select } from "antd";
import { useDictionary } from "../../../crud/dictionary.ts";
import type { FieldEditorProps } from "../../../crud/form-customization.ts";
import { EMPTY_VALUE } from "../../../crud/view-values.ts";
import { useI18n } from "../../../i18n/index.tsx";
import { channelList, channelText } from "./scheme-json.ts";

/** The system dictionary of notification channels (console, sms, wechat). */
const channels: FieldDef = { type: "string", dict: "notify_channel" };

/** Where alarms are sent: several channels, stored as a comma-separated list of dictionary keys. */
export function ChannelsSelect({ value, onChange, disabled, id }: FieldEditorProps) {
  const { language } = useI18n();
  const options = useDictionary(channels, language);
  return (
    <Select
      id={id}
      mode="multiple"
      value={channelList(value)}
      onChange={(picked: string[]) => onChange?.(channelText(picked))}
      options={options}
      disabled={disabled}
      allowClear
      data-testid="notify-channels"
    />
  );
}

/** The channels as the view dialog reads them: their names in the user's language, "—" for none. */
export function ChannelsText({ value }: { value?: unknown }) {
  const { language } = useI18n();
  const options = useDictionary(channels, language);
  const names = channelList(value).map((key) => options.find((o) => o.value === key)?.label ?? key);
  return <>{names.length ? names.join(", ") : EMPTY_VALUE}</>;
}

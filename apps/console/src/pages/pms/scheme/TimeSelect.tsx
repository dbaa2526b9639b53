import { Select } from "antd";
import { MINUTES_PER_DAY, timeOf } from "./scheme-json.ts";

/** Quarter hours: the steps meters' day tables and protection windows are set in. */
const STEP = 15;
const starts = Array.from({ length: MINUTES_PER_DAY / STEP }, (_, i) => timeOf(i * STEP));
const startOptions = starts.map((time) => ({ value: time, label: time }));
const endOptions = [...startOptions, { value: "24:00", label: "24:00" }];

interface Props {
  value?: string;
  onChange: (time: string) => void;
  /** Ends may be 24:00, the end of the day. */
  end?: boolean;
  disabled?: boolean;
  "aria-label": string;
  "data-testid"?: string;
}

/** A time of day in quarter hours, searchable by typing it ("08:30"). */
export function TimeSelect({ value, onChange, end, disabled, ...rest }: Props) {
  return (
    <Select
      {...rest}
      value={value || undefined}
      onChange={onChange}
      options={end ? endOptions : startOptions}
      disabled={disabled}
      showSearch={{ optionFilterProp: "label" }}
      placeholder="HH:mm"
      style={{ width: 110 }}
    />
  );
}

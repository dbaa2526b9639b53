import { DatePicker, Space } from "antd";
import type { Dayjs } from "dayjs";

type Bound = Dayjs | null;

interface Props {
  /** Injected by Form.Item: the form's field id, given to the first box. */
  id?: string;
  value?: [Bound, Bound] | null;
  onChange?: (value: [Bound, Bound]) => void;
  startLabel: string;
  endLabel: string;
}

/**
 * A from–to pair of date-time boxes for the search bar. antd's RangePicker with time keeps Tab
 * cycling between its own two boxes while either is empty, so keyboard users could never reach
 * the buttons and the table after it; two single pickers let Tab move on like any other field.
 */
export function DateRangeInput({ id, value, onChange, startLabel, endLabel }: Props) {
  const [from, to] = value ?? [null, null];
  return (
    <Space.Compact>
      <DatePicker
        id={id}
        showTime
        value={from}
        placeholder={startLabel}
        aria-label={startLabel}
        onChange={(next) => onChange?.([next, to])}
      />
      <DatePicker
        id={id ? `${id}_end` : undefined}
        showTime
        value={to}
        placeholder={endLabel}
        aria-label={endLabel}
        onChange={(next) => onChange?.([from, next])}
      />
    </Space.Compact>
  );
}

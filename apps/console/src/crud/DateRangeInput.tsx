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
  /** Whole days only (money lists, statements); the server takes a day as all of it. */
  showTime?: boolean;
}

/**
 * A from–to pair of date-time boxes for the search bar. antd's RangePicker with time keeps Tab
 * cycling between its own two boxes while either is empty, so keyboard users could never reach
 * the buttons and the table after it; two single pickers let Tab move on like any other field.
 */
export function DateRangeInput({ id, value, onChange, startLabel, endLabel, showTime = true }: Props) {
  const [from, to] = value ?? [null, null];
  return (
    <Space.Compact>
      <DatePicker
        id={id}
        showTime={showTime}
        value={from}
        placeholder={startLabel}
        aria-label={startLabel}
        onChange={(next) => onChange?.([next, to])}
      />
      <DatePicker
        id={id ? `${id}_end` : undefined}
        showTime={showTime}
        value={to}
        placeholder={endLabel}
        aria-label={endLabel}
        onChange={(next) => onChange?.([from, next])}
      />
    </Space.Compact>
  );
}

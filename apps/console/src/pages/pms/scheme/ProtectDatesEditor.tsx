import { DatePicker, Space, Switch, Tag, Typography } from "antd";
import type { Dayjs } from "dayjs";
import { DATE } from "../../../crud/fields.ts";
import type { FieldEditorProps } from "../../../crud/form-customization.ts";
import { useT } from "../../../i18n/index.tsx";
import { EditorSurface } from "./EditorSurface.tsx";
import { datesText, MAX_DATES, parseDates } from "./scheme-json.ts";

/** Dates when supply is never cut: picked one by one, plus a switch for every weekend. */
export function ProtectDatesEditor({ value, onChange, disabled, id }: FieldEditorProps) {
  const t = useT();
  const { weekend, dates } = parseDates(value);
  const write = (next: { weekend: boolean; dates: string[] }) => onChange?.(datesText(next));

  return (
    <EditorSurface>
      <Space id={id} orientation="vertical" style={{ width: "100%" }} data-testid="protect-dates">
        <Space>
          <Switch
            checked={weekend}
            onChange={(on) => write({ weekend: on, dates })}
            disabled={disabled}
            aria-label={t("scheme.dates.weekend")}
            data-testid="protect-weekend"
          />
          <span>{t("scheme.dates.weekend")}</span>
        </Space>
        <DatePicker
          // Always empty: a picked date joins the list below and the picker is ready for the next.
          value={null as Dayjs | null}
          onChange={(day: Dayjs | null) => day && write({ weekend, dates: [...dates, day.format(DATE)] })}
          disabled={disabled || dates.length >= MAX_DATES}
          placeholder={t("scheme.dates.add")}
          aria-label={t("scheme.dates.add")}
          data-testid="protect-date-pick"
        />
        <Space size={[4, 8]} wrap data-testid="protect-date-list">
          {dates.length === 0 && <Typography.Text type="secondary">{t("scheme.dates.none")}</Typography.Text>}
          {dates.map((date) => (
            <Tag
              key={date}
              closable={!disabled}
              onClose={(event) => {
                event.preventDefault();
                write({ weekend, dates: dates.filter((d) => d !== date) });
              }}
            >
              {date}
            </Tag>
          ))}
        </Space>
      </Space>
    </EditorSurface>
  );
}

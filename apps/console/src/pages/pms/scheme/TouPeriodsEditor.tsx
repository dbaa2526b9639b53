import { Select, Space, Table, theme } from "antd";
import type { FieldEditorProps } from "../../../crud/form-customization.ts";
import { useT } from "../../../i18n/index.tsx";
import { bandColours, bandNames } from "./band-look.ts";
import { DayBar } from "./DayBar.tsx";
import { EditorSurface } from "./EditorSurface.tsx";
import { AddRowButton, RemoveRowButton } from "./RowButtons.tsx";
import { rowEdits } from "./row-edits.ts";
import { BANDS, MAX_SLOTS, parseSlots, type Slot, slotsText } from "./scheme-json.ts";
import { TimeSelect } from "./TimeSelect.tsx";

/**
 * The time-of-use day as a table of slots (start, end, band) with a 24-hour bar of what they
 * cover. A slot may wrap past midnight (22:00–06:00). The value is the stored JSON.
 */
export function TouPeriodsEditor({ value, onChange, disabled, id }: FieldEditorProps) {
  const t = useT();
  const { token } = theme.useToken();
  const colours = bandColours(token);
  const slots = parseSlots(value);
  const write = (next: Slot[]) => onChange?.(slotsText(next));
  const { change, without } = rowEdits(slots, write);
  // A new slot starts where the last one ends, the usual way a day is filled in.
  const add = () =>
    write([...slots, { start: slots.at(-1)?.end.replace("24:00", "00:00") || "00:00", end: "", band: "" }]);
  const remove = (index: number) => write(without(index));
  const bandOptions = BANDS.map((band) => ({
    value: band,
    label: (
      <Space size={6}>
        <span
          style={{
            display: "inline-block",
            width: 10,
            height: 10,
            borderRadius: 2,
            background: colours[band],
          }}
        />
        {t(bandNames[band])}
      </Space>
    ),
  }));
  const rows = slots.map((slot, index) => ({ ...slot, index }));

  return (
    <EditorSurface>
      <Space id={id} orientation="vertical" style={{ width: "100%" }} data-testid="tou-editor">
        <Table
          size="small"
          pagination={false}
          rowKey="index"
          dataSource={rows}
          locale={{ emptyText: t("scheme.tou.none") }}
          columns={[
            {
              key: "start",
              title: t("scheme.tou.start"),
              render: (_, row) => (
                <TimeSelect
                  value={row.start}
                  onChange={(start) => change(row.index, { start })}
                  disabled={disabled}
                  aria-label={t("scheme.tou.startOf", { n: row.index + 1 })}
                  data-testid={`tou-start-${row.index}`}
                />
              ),
            },
            {
              key: "end",
              title: t("scheme.tou.end"),
              render: (_, row) => (
                <TimeSelect
                  end
                  value={row.end}
                  onChange={(end) => change(row.index, { end })}
                  disabled={disabled}
                  aria-label={t("scheme.tou.endOf", { n: row.index + 1 })}
                  data-testid={`tou-end-${row.index}`}
                />
              ),
            },
            {
              key: "band",
              title: t("scheme.tou.band"),
              render: (_, row) => (
                <Select
                  value={row.band || undefined}
                  onChange={(band) => change(row.index, { band })}
                  options={bandOptions}
                  disabled={disabled}
                  style={{ width: 110 }}
                  aria-label={t("scheme.tou.bandOf", { n: row.index + 1 })}
                  data-testid={`tou-band-${row.index}`}
                />
              ),
            },
            {
              key: "remove",
              width: 56,
              render: (_, row) => (
                <RemoveRowButton
                  onClick={() => remove(row.index)}
                  disabled={disabled}
                  label={t("scheme.tou.removeOf", { n: row.index + 1 })}
                />
              ),
            },
          ]}
        />
        <AddRowButton
          onClick={add}
          disabled={disabled || slots.length >= MAX_SLOTS}
          label={t("scheme.tou.add")}
          testId="tou-add"
        />
        <DayBar slots={slots} />
      </Space>
    </EditorSurface>
  );
}

import { Space, Typography } from "antd";
import type { FieldEditorProps } from "../../../crud/form-customization.ts";
import { useT } from "../../../i18n/index.tsx";
import { EditorSurface } from "./EditorSurface.tsx";
import { AddRowButton, RemoveRowButton } from "./RowButtons.tsx";
import { rowEdits } from "./row-edits.ts";
import { MAX_WINDOWS, parseWindows, type Window, windowsText } from "./scheme-json.ts";
import { TimeSelect } from "./TimeSelect.tsx";

/** Times of day when supply is never cut, as a list of windows; a window may wrap past midnight. */
export function ProtectTimesEditor({ value, onChange, disabled, id }: FieldEditorProps) {
  const t = useT();
  const windows = parseWindows(value);
  const write = (next: Window[]) => onChange?.(windowsText(next));
  const { change, without } = rowEdits(windows, write);

  return (
    <EditorSurface>
      <Space id={id} orientation="vertical" style={{ width: "100%" }} data-testid="protect-times">
        {windows.length === 0 && (
          <Typography.Text type="secondary">{t("scheme.protect.none")}</Typography.Text>
        )}
        {windows.map((w, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: windows have no identity beyond their place
          <Space key={index} wrap>
            <TimeSelect
              value={w.start}
              onChange={(start) => change(index, { start })}
              disabled={disabled}
              aria-label={t("scheme.protect.startOf", { n: index + 1 })}
              data-testid={`protect-start-${index}`}
            />
            <span>–</span>
            <TimeSelect
              end
              value={w.end}
              onChange={(end) => change(index, { end })}
              disabled={disabled}
              aria-label={t("scheme.protect.endOf", { n: index + 1 })}
              data-testid={`protect-end-${index}`}
            />
            <RemoveRowButton
              onClick={() => write(without(index))}
              disabled={disabled}
              label={t("scheme.protect.removeOf", { n: index + 1 })}
            />
          </Space>
        ))}
        <AddRowButton
          onClick={() => write([...windows, { start: "", end: "" }])}
          disabled={disabled || windows.length >= MAX_WINDOWS}
          label={t("scheme.protect.add")}
          testId="protect-add"
        />
      </Space>
    </EditorSurface>
  );
}

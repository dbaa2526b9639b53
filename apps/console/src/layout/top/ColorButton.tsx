import { ColorPicker, Tooltip } from "antd";
import { useState } from "react";
import { useT } from "../../i18n/index.tsx";
import { store } from "../../store/store.ts";
import { useConsole } from "../../store/useConsole.ts";

/** Primary colour picker (spec §9 default #409EFF); drives antd's colorPrimary everywhere. */
export function ColorButton() {
  const color = useConsole((state) => state.color);
  const t = useT();
  const [open, setOpen] = useState(false);
  return (
    <Tooltip title={t("top.color")} open={open ? false : undefined}>
      <span className="ml-color-button" data-testid="color-picker">
        <ColorPicker
          size="small"
          value={color}
          disabledAlpha
          open={open}
          onOpenChange={setOpen}
          presets={[
            {
              label: t("top.color"),
              colors: [
                "#409EFF",
                "#1677ff",
                "#13c2c2",
                "#52c41a",
                "#fa8c16",
                "#f5222d",
                "#eb2f96",
                "#722ed1",
              ],
            },
          ]}
          onChangeComplete={(value) => store.setState({ color: value.toHexString() })}
          aria-label={t("top.color")}
        />
      </span>
    </Tooltip>
  );
}

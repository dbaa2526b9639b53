import { ColorPicker } from "antd";
import { type ReactNode, useState } from "react";
import { useT } from "../../i18n/index.tsx";
import { store } from "../../store/store.ts";
import { useConsole } from "../../store/useConsole.ts";
import { AA_TEXT, contrastRatio, shadeFor } from "../../theme/contrast.ts";

const presets = ["#409EFF", "#1677ff", "#13c2c2", "#52c41a", "#fa8c16", "#f5222d", "#eb2f96", "#722ed1"];

/**
 * Under the picker: when white text on the colour would fall below AA, it says so and names the
 * shade that filled controls will use instead.
 */
function ContrastWarning({ color }: { color: string }) {
  const t = useT();
  const ratio = contrastRatio(color, "#ffffff");
  if (ratio >= AA_TEXT) return null;
  return (
    <p className="ml-color-warning" role="status" data-testid="color-warning">
      {t("top.colorContrastWarning", { ratio: ratio.toFixed(2), shade: shadeFor(color, "#f0f2f5") })}
    </p>
  );
}

/** antd's colour picker around the colour button (its own chunk, with Collapse: see ColorButton). */
export default function ColorPanel({
  open,
  onOpenChange,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  children: ReactNode;
}) {
  const color = useConsole((state) => state.color);
  const t = useT();
  // What the panel shows while the user drags, so the warning follows before the choice is final.
  const [draft, setDraft] = useState(color);
  return (
    <ColorPicker
      size="small"
      value={color}
      disabledAlpha
      open={open}
      onOpenChange={(next) => {
        onOpenChange(next);
        setDraft(color);
      }}
      presets={[{ label: t("top.color"), colors: presets }]}
      onChange={(value) => setDraft(value.toHexString())}
      onChangeComplete={(value) => store.setState({ color: value.toHexString() })}
      panelRender={(panel) => (
        <div className="ml-color-panel">
          {panel}
          <ContrastWarning color={draft} />
        </div>
      )}
    >
      {children}
    </ColorPicker>
  );
}

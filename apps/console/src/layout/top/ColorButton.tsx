import { Tooltip } from "antd";
import { lazy, Suspense, useState } from "react";
import { useT } from "../../i18n/index.tsx";
import { useConsole } from "../../store/useConsole.ts";

const loadPanel = () => import("./ColorPanel.tsx");
const ColorPanel = lazy(loadPanel);

/**
 * Primary colour picker (spec §9 default #409EFF); drives antd's colorPrimary everywhere. antd's
 * picker (and the Collapse its presets use) loads when the pointer or the focus reaches the
 * button, or at the latest on its first click, not with every page of the shell.
 */
export function ColorButton() {
  const color = useConsole((state) => state.color);
  const t = useT();
  const [open, setOpen] = useState(false);
  const [panelWanted, setPanelWanted] = useState(false);
  // A real button as the trigger: reachable with Tab, opened with Enter or Space, named.
  const button = (
    <button
      type="button"
      className="ml-color-button"
      aria-label={t("top.color")}
      aria-haspopup="dialog"
      aria-expanded={open}
      data-testid="color-picker"
      onPointerEnter={() => void loadPanel()}
      onFocus={() => void loadPanel()}
      onClick={
        panelWanted
          ? undefined
          : () => {
              setPanelWanted(true);
              setOpen(true);
            }
      }
    >
      <span className="ml-color-swatch" style={{ background: color }} />
    </button>
  );
  return (
    <Tooltip title={t("top.color")} open={open ? false : undefined}>
      <span className="ml-color-wrap">
        {panelWanted ? (
          <Suspense fallback={button}>
            <ColorPanel open={open} onOpenChange={setOpen}>
              {button}
            </ColorPanel>
          </Suspense>
        ) : (
          button
        )}
      </span>
    </Tooltip>
  );
}

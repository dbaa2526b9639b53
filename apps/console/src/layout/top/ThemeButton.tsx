import { BgColorsOutlined, CheckOutlined } from "@ant-design/icons";
import { type ThemeName, themes } from "@meterline/contracts";
import { Modal } from "antd";
import { useState } from "react";
import { useT } from "../../i18n/index.tsx";
import { store } from "../../store/store.ts";
import { useConsole } from "../../store/useConsole.ts";
import { themeLooks } from "../../theme/themes.ts";
import { IconButton } from "./IconButton.tsx";

/** A miniature of the shell in a theme's colours: header bar, sidebar, content. */
function ThemePreview({ name }: { name: ThemeName }) {
  const look = themeLooks[name];
  return (
    <span className="ml-theme-preview" style={{ background: look.contentBg }} aria-hidden>
      <span className="ml-theme-preview-sider" style={{ background: look.siderBg }} />
      <span className="ml-theme-preview-header" style={{ background: look.headerBg }} />
    </span>
  );
}

/** Theme dialog with the 11 themes of spec §2; the choice applies at once and is remembered. */
export function ThemeButton() {
  const current = useConsole((state) => state.theme);
  const t = useT();
  const [open, setOpen] = useState(false);
  return (
    <>
      <IconButton
        label={t("top.theme")}
        icon={<BgColorsOutlined />}
        onClick={() => setOpen(true)}
        testId="theme-button"
      />
      <Modal open={open} title={t("theme.title")} footer={null} onCancel={() => setOpen(false)} width={640}>
        <div
          className="ml-theme-grid"
          role="radiogroup"
          aria-label={t("theme.title")}
          data-testid="theme-dialog"
        >
          {themes.map((name) => (
            <button
              key={name}
              type="button"
              aria-pressed={name === current}
              className={name === current ? "ml-theme-option is-active" : "ml-theme-option"}
              onClick={() => store.setState({ theme: name })}
              data-testid={`theme-option-${name}`}
            >
              <ThemePreview name={name} />
              <span>
                {name === current ? <CheckOutlined /> : null} {t(`theme.${name}`)}
              </span>
            </button>
          ))}
        </div>
      </Modal>
    </>
  );
}

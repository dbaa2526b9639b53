import { CheckOutlined } from "@ant-design/icons";
import { type ThemeName, themes } from "@meterline/contracts";
import { Modal } from "antd";
import { useEffect } from "react";
import { useT } from "../../i18n/index.tsx";
import { store } from "../../store/store.ts";
import { useConsole } from "../../store/useConsole.ts";
import { themeLooks } from "../../theme/themes.ts";

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

/** The theme dialog's content: loaded when the theme button is first pressed (ThemeButton). */
export default function ThemeDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const current = useConsole((state) => state.theme);
  const t = useT();
  // Picking a theme redraws the whole console, and the focus can leave the dialog on the way, where
  // the modal's own Escape no longer hears it: Escape closes the dialog wherever the focus is.
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") onClose();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [open, onClose]);
  return (
    <Modal open={open} title={t("theme.title")} footer={null} onCancel={onClose} width={640}>
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
  );
}

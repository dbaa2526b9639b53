import { TranslationOutlined } from "@ant-design/icons";
import { Button } from "antd";
import { lazy, type ReactNode, Suspense, useState } from "react";
import { useT } from "../../i18n/index.tsx";

const loadMenu = () => import("./LanguageMenu.tsx");
const LanguageMenu = lazy(loadMenu);

/**
 * zh / en switch; the choice is persisted and also switches antd's own texts. The menu (antd's
 * Dropdown and Menu) is loaded when the pointer or the focus reaches the button, or at the latest
 * on its first click, not with the login page. `tooltip` wraps the button in the caller's tooltip
 * (the top bar's antd Tooltip, hidden while the menu is open); without it the button is named by
 * the browser's own tooltip, so that the login page does not load antd's positioning machinery.
 */
export function LanguageSwitch({
  className,
  tooltip,
}: {
  className?: string;
  tooltip?: (button: ReactNode, menuOpen: boolean) => ReactNode;
}) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const [menuWanted, setMenuWanted] = useState(false);
  const plain = (
    <Button
      type="text"
      className={className ?? "ml-top-button"}
      icon={<TranslationOutlined />}
      aria-label={t("top.language")}
      title={tooltip ? undefined : t("top.language")}
      data-testid="language-switch"
      onPointerEnter={() => void loadMenu()}
      onFocus={() => void loadMenu()}
      onClick={
        menuWanted
          ? undefined
          : () => {
              setMenuWanted(true);
              setOpen(true);
            }
      }
    />
  );
  const button = tooltip ? tooltip(plain, open) : plain;
  if (!menuWanted) return button;
  return (
    <Suspense fallback={button}>
      <LanguageMenu open={open} onOpenChange={setOpen}>
        {button}
      </LanguageMenu>
    </Suspense>
  );
}

import { TranslationOutlined } from "@ant-design/icons";
import { lazy, type ReactElement, type ReactNode, Suspense, useState } from "react";
import { useT } from "../../i18n/index.tsx";

const loadMenu = () => import("./LanguageMenu.tsx");
const LanguageMenu = lazy(loadMenu);

/** What the switch's button needs: its label, icon and handlers (drawn by the caller). */
export interface LanguageButtonProps {
  icon: ReactNode;
  "aria-label": string;
  title: string | undefined;
  "data-testid": string;
  onPointerEnter: () => void;
  onFocus: () => void;
  onClick: (() => void) | undefined;
}

/**
 * zh / en switch; the choice is persisted and also switches antd's own texts. The menu (antd's
 * Dropdown and Menu) is loaded when the pointer or the focus reaches the button, or at the latest
 * on its first click, not with the login page. `renderButton` draws the button (the top bar's antd
 * Button, the login page's plain one: antd's Button stays out of the login page's load).
 * `tooltip` wraps it in the caller's tooltip (the top bar's antd Tooltip, hidden while the menu is
 * open); without it the button is named by the browser's own tooltip.
 */
export function LanguageSwitch({
  renderButton,
  tooltip,
}: {
  renderButton: (props: LanguageButtonProps) => ReactElement;
  tooltip?: (button: ReactNode, menuOpen: boolean) => ReactNode;
}) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const [menuWanted, setMenuWanted] = useState(false);
  const plain = renderButton({
    icon: <TranslationOutlined />,
    "aria-label": t("top.language"),
    title: tooltip ? undefined : t("top.language"),
    "data-testid": "language-switch",
    onPointerEnter: () => void loadMenu(),
    onFocus: () => void loadMenu(),
    onClick: menuWanted
      ? undefined
      : () => {
          setMenuWanted(true);
          setOpen(true);
        },
  });
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

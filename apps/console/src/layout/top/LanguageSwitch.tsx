import { TranslationOutlined } from "@ant-design/icons";
import { Button, Tooltip } from "antd";
import { lazy, Suspense, useState } from "react";
import { useT } from "../../i18n/index.tsx";

const loadMenu = () => import("./LanguageMenu.tsx");
const LanguageMenu = lazy(loadMenu);

/**
 * zh / en switch; the choice is persisted and also switches antd's own texts. The menu (antd's
 * Dropdown and Menu) is loaded when the pointer or the focus reaches the button, or at the latest
 * on its first click, not with the login page.
 */
export function LanguageSwitch({
  className,
  nativeTooltip,
}: {
  className?: string;
  nativeTooltip?: boolean;
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
      title={nativeTooltip ? t("top.language") : undefined}
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
  // The login page names the button with the browser's own tooltip: antd's would bring its
  // positioning machinery into that page's load.
  const button = nativeTooltip ? (
    plain
  ) : (
    <Tooltip title={t("top.language")} open={open ? false : undefined}>
      {plain}
    </Tooltip>
  );
  if (!menuWanted) return button;
  return (
    <Suspense fallback={button}>
      <LanguageMenu open={open} onOpenChange={setOpen}>
        {button}
      </LanguageMenu>
    </Suspense>
  );
}

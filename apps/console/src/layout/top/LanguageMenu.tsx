import { Dropdown } from "antd";
import type { ReactNode } from "react";
import { setLanguage, useI18n } from "../../i18n/index.tsx";
import type { Language } from "../../store/state.ts";

const languages: Language[] = ["zh", "en"];

/** The zh / en menu of the language switch, around its button (its own chunk: see LanguageSwitch). */
export default function LanguageMenu({
  open,
  onOpenChange,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  children: ReactNode;
}) {
  const { t, language } = useI18n();
  return (
    <Dropdown
      trigger={["click"]}
      // Opened from the keyboard, its first item has the focus and the arrows move through it.
      autoFocus
      open={open}
      onOpenChange={onOpenChange}
      menu={{
        selectable: true,
        selectedKeys: [language],
        items: languages.map((code) => ({
          key: code,
          label: <span data-testid={`language-${code}`}>{t(`language.${code}`)}</span>,
        })),
        onClick: ({ key }) => {
          onOpenChange(false);
          void setLanguage(key as Language);
          // The picked item leaves the page with its menu: the focus goes back to the switch (one per
          // page: the login page's or the top bar's), not to the document's body.
          requestAnimationFrame(() =>
            document.querySelector<HTMLElement>('[data-testid="language-switch"]')?.focus(),
          );
        },
      }}
    >
      {children}
    </Dropdown>
  );
}

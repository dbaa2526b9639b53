import { TranslationOutlined } from "@ant-design/icons";
import { Button, Dropdown, Tooltip } from "antd";
import { useState } from "react";
import { useI18n } from "../../i18n/index.tsx";
import type { Language } from "../../store/state.ts";
import { store } from "../../store/store.ts";

const languages: Language[] = ["zh", "en"];

/** zh / en switch; the choice is persisted and also switches antd's own texts. */
export function LanguageSwitch({ className }: { className?: string }) {
  const { t, language } = useI18n();
  const [open, setOpen] = useState(false);
  return (
    <Dropdown
      trigger={["click"]}
      open={open}
      onOpenChange={setOpen}
      menu={{
        selectable: true,
        selectedKeys: [language],
        items: languages.map((code) => ({
          key: code,
          label: <span data-testid={`language-${code}`}>{t(`language.${code}`)}</span>,
        })),
        onClick: ({ key }) => {
          setOpen(false);
          store.setState({ language: key as Language });
        },
      }}
    >
      <Tooltip title={t("top.language")} open={open ? false : undefined}>
        <Button
          type="text"
          className={className ?? "ml-top-button"}
          icon={<TranslationOutlined />}
          aria-label={t("top.language")}
          data-testid="language-switch"
        />
      </Tooltip>
    </Dropdown>
  );
}

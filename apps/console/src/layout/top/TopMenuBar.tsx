import { HomeOutlined } from "@ant-design/icons";
import { Button } from "antd";
import { useState } from "react";
import { reportNetworkError } from "../../app/api.ts";
import { selectTopMenu } from "../../app/session.ts";
import { useI18n } from "../../i18n/index.tsx";
import { useConsole } from "../../store/useConsole.ts";
import { MenuIcon } from "../icon-registry.tsx";

/** Top menu: a home item (no id → full menu) followed by the server's top menus (contract §7.4). */
export function TopMenuBar() {
  const topMenus = useConsole((state) => state.topMenus);
  const active = useConsole((state) => state.activeTopMenu);
  const screen = useConsole((state) => state.screen);
  const { t, tr } = useI18n();
  const [busy, setBusy] = useState<string | null>(null);

  const choose = async (id: string) => {
    setBusy(id);
    try {
      await selectTopMenu(id);
    } catch (error) {
      reportNetworkError(error);
    } finally {
      setBusy(null);
    }
  };

  const entries = [
    { id: "", label: t("top.home"), icon: <HomeOutlined /> },
    ...topMenus.map((menu) => ({
      id: menu.id,
      label: tr(`menu.${menu.code}`, menu.name),
      icon: <MenuIcon source={menu.source} />,
    })),
  ];

  return (
    <nav className="ml-top-menu" aria-label={t("top.topMenu")} data-testid="top-menu">
      {entries.map((entry) => (
        <Button
          key={entry.id || "home"}
          type="text"
          icon={entry.icon}
          loading={busy === entry.id}
          className={entry.id === active ? "is-active" : undefined}
          aria-pressed={entry.id === active}
          aria-label={entry.label}
          onClick={() => choose(entry.id)}
          data-testid="top-menu-item"
          data-id={entry.id}
        >
          {screen >= 2 ? entry.label : null}
        </Button>
      ))}
    </nav>
  );
}

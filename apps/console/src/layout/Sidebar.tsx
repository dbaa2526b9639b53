import { website } from "@meterline/contracts";
import { Layout, Menu, type MenuProps } from "antd";
import { useEffect, useMemo, useState } from "react";
import { useLocation } from "react-router";
import logoUrl from "../assets/logo.svg";
import { type I18n, useI18n } from "../i18n/index.tsx";
import { useConsole } from "../store/useConsole.ts";
import { themeLooks } from "../theme/themes.ts";
import { MenuIcon } from "./icon-registry.tsx";
import { ancestorKeys, type MenuItem, menuLeaves } from "./menu-model.ts";
import { useOpenMenu } from "./useOpenMenu.ts";

type Items = NonNullable<MenuProps["items"]>;

function keyOf(leaf: MenuItem): string {
  return leaf.target === "window" ? `window:${leaf.id}` : leaf.path;
}

const menuIcon = (source: string) => <MenuIcon source={source} />;

function toMenuItems(items: readonly MenuItem[], tr: I18n["tr"]): Items {
  return items.map((item) => {
    const label = tr(item.i18n, item.name);
    const icon = menuIcon(item.icon);
    if (item.children.length) {
      return {
        key: item.id,
        icon,
        label: (
          <span data-testid="menu-group" data-code={item.code}>
            {label}
          </span>
        ),
        children: toMenuItems(item.children, tr),
      };
    }
    return {
      key: keyOf(item),
      icon,
      label: (
        <span data-testid="menu-item" data-code={item.code} data-path={item.path}>
          {label}
        </span>
      ),
    };
  });
}

/** The collapsible sidebar built from the server routes of the selected top menu. */
export function Sidebar() {
  const menus = useConsole((state) => state.menus);
  const collapsed = useConsole((state) => state.collapsed);
  const screen = useConsole((state) => state.screen);
  const theme = useConsole((state) => state.theme);
  const { t, tr } = useI18n();
  const { pathname } = useLocation();
  const openMenu = useOpenMenu();
  const [openKeys, setOpenKeys] = useState<string[]>([]);
  const items = useMemo(() => toMenuItems(menus ?? [], tr), [menus, tr]);

  // Unfold the groups holding the current page whenever it changes.
  useEffect(() => {
    const ancestors = ancestorKeys(menus ?? [], pathname);
    if (ancestors.length) setOpenKeys((keys) => [...new Set([...keys, ...ancestors])]);
  }, [menus, pathname]);

  const onClick: MenuProps["onClick"] = ({ key }) => {
    const leaf = menuLeaves(menus ?? []).find((item) => keyOf(item) === key);
    if (leaf) openMenu(leaf);
  };

  return (
    <Layout.Sider
      className="ml-sider"
      collapsed={collapsed}
      collapsedWidth={screen === 0 ? 0 : 64}
      width={220}
      trigger={null}
    >
      <nav className="ml-sider-inner" aria-label={t("sidebar.label")} data-testid="sidebar">
        <div className="ml-logo">
          <img src={logoUrl} alt="" />
          {collapsed ? null : <span>{website.title}</span>}
        </div>
        <Menu
          mode="inline"
          theme={themeLooks[theme].menu}
          items={items}
          selectedKeys={[pathname]}
          openKeys={collapsed ? undefined : openKeys}
          onOpenChange={setOpenKeys}
          onClick={onClick}
        />
      </nav>
    </Layout.Sider>
  );
}

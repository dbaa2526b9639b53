import { MenuFoldOutlined, MenuUnfoldOutlined } from "@ant-design/icons";
import { useT } from "../../i18n/index.tsx";
import { store } from "../../store/store.ts";
import { useConsole } from "../../store/useConsole.ts";
import { IconButton } from "./IconButton.tsx";

export function CollapseButton() {
  const collapsed = useConsole((state) => state.collapsed);
  const t = useT();
  return (
    <IconButton
      label={collapsed ? t("top.expand") : t("top.collapse")}
      icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
      onClick={() => store.setState({ collapsed: !collapsed })}
      testId="collapse-toggle"
    />
  );
}

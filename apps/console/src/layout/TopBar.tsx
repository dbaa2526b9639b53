import { SearchOutlined } from "@ant-design/icons";
import { Button, Tooltip } from "antd";
import { useT } from "../i18n/index.tsx";
import { useConsole } from "../store/useConsole.ts";
import { CollapseButton } from "./top/CollapseButton.tsx";
import { ColorButton } from "./top/ColorButton.tsx";
import { FullscreenButton } from "./top/FullscreenButton.tsx";
import { GlobalSearchBox } from "./top/global-search/GlobalSearchBox.tsx";
import { IconButton } from "./top/IconButton.tsx";
import { LanguageSwitch } from "./top/LanguageSwitch.tsx";
import { LockButton } from "./top/LockButton.tsx";
import { LogButton } from "./top/LogButton.tsx";
import { NoticeBell } from "./top/NoticeBell.tsx";
import { ThemeButton } from "./top/ThemeButton.tsx";
import { TodoBadge } from "./top/TodoBadge.tsx";
import { TopMenuBar } from "./top/TopMenuBar.tsx";
import { UserMenu } from "./top/UserMenu.tsx";

/** Header: collapse, top menu, then the global search box, menu search, lock, theme, colour, log, todo tasks, notice, language, full screen, user. */
export function TopBar({ onSearch }: { onSearch: () => void }) {
  const t = useT();
  const screen = useConsole((state) => state.screen);
  return (
    <div className="ml-topbar" data-testid="top-bar">
      <div className="ml-topbar-left">
        <CollapseButton />
        <TopMenuBar />
      </div>
      <div className="ml-topbar-right">
        {screen >= 1 ? <GlobalSearchBox /> : null}
        <IconButton
          label={t("top.search")}
          icon={<SearchOutlined />}
          onClick={onSearch}
          testId="search-button"
        />
        <LockButton />
        <ThemeButton />
        {screen >= 1 ? <ColorButton /> : null}
        <LogButton />
        <TodoBadge />
        <NoticeBell />
        <LanguageSwitch
          renderButton={({ icon, ...props }) => (
            <Button type="text" className="ml-top-button" icon={icon} {...props} />
          )}
          tooltip={(button, menuOpen) => (
            <Tooltip title={t("top.language")} open={menuOpen ? false : undefined}>
              {button}
            </Tooltip>
          )}
        />
        {screen >= 1 ? <FullscreenButton /> : null}
        <UserMenu />
      </div>
    </div>
  );
}

import { Dropdown, type MenuProps, Tabs } from "antd";
import { useLocation, useNavigate } from "react-router";
import { useI18n } from "../i18n/index.tsx";
import { isClosable, type Tab, tabHref } from "../store/tabs.ts";
import { useConsole } from "../store/useConsole.ts";
import { TagActions } from "./TagActions.tsx";
import { useTabActions } from "./useTabActions.ts";

/** Right-click menu of one tab: the actions apply to that tab. */
function TabLabel({ tab, label }: { tab: Tab; label: string }) {
  const { t } = useI18n();
  const actions = useTabActions();
  const items: MenuProps["items"] = [
    { key: "clear-cache", label: <span data-testid="tab-context-clear-cache">{t("tags.clearCache")}</span> },
    {
      key: "close-others",
      label: <span data-testid="tab-context-close-others">{t("tags.closeOthers")}</span>,
    },
    { key: "close-all", label: <span data-testid="tab-context-close-all">{t("tags.closeAll")}</span> },
  ];
  const onClick: MenuProps["onClick"] = ({ key }) => {
    if (key === "clear-cache") actions.clearCache();
    if (key === "close-others") actions.closeOthers(tab.value);
    if (key === "close-all") actions.closeAll();
  };
  return (
    <Dropdown menu={{ items, onClick }} trigger={["contextMenu"]}>
      <span data-testid="tab" data-value={tab.value}>
        {label}
      </span>
    </Dropdown>
  );
}

/** Open pages as tabs (spec §2): closable unless only one remains. */
export function TagBar() {
  const tabs = useConsole((state) => state.tabs);
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const { t, tr } = useI18n();
  const { close } = useTabActions();
  const closable = isClosable(tabs);

  return (
    <div className="ml-tags" data-testid="tag-bar">
      <Tabs
        type="editable-card"
        hideAdd
        size="small"
        activeKey={pathname}
        aria-label={t("tags.label")}
        onChange={(value) => {
          const tab = tabs.find((item) => item.value === value);
          if (tab) navigate(tabHref(tab));
        }}
        onEdit={(value, action) => {
          if (action === "remove" && typeof value === "string") close(value);
        }}
        items={tabs.map((tab) => ({
          key: tab.value,
          label: <TabLabel tab={tab} label={tr(tab.meta.i18n, tab.label)} />,
          closable,
        }))}
        tabBarExtraContent={<TagActions />}
      />
    </div>
  );
}

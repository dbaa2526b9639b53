import { CloseOutlined } from "@ant-design/icons";
import { Dropdown, type MenuProps, Tabs } from "antd";
import { useEffect, useRef } from "react";
import { useLocation, useNavigate } from "react-router";
import { useI18n } from "../i18n/index.tsx";
import { isClosable, type Tab, tabHref, tabTitle } from "../store/tabs.ts";
import { useConsole } from "../store/useConsole.ts";
import { TagActions } from "./TagActions.tsx";
import { useTabActions } from "./useTabActions.ts";

/**
 * Right-click menu of one tab: the actions apply to that tab. A closable tab shows a close mark
 * for the mouse; keyboard users close the focused tab with Delete (WAI-ARIA tabs pattern). The
 * mark is no button of its own: a tab list may hold only tabs.
 */
function TabLabel({ tab, label, onClose }: { tab: Tab; label: string; onClose?: () => void }) {
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
      <span className="ml-tab-label">
        <span data-testid="tab" data-value={tab.value}>
          {label}
        </span>
        {onClose ? (
          <CloseOutlined
            className="ml-tab-close"
            aria-hidden
            data-testid="tab-close"
            onClick={(event) => {
              // The click must not also select the tab being closed.
              event.stopPropagation();
              onClose();
            }}
          />
        ) : null}
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
  const bar = useRef<HTMLDivElement>(null);
  // Delete on a focused tab closes it; antd marks each tab with the page path it holds.
  useEffect(() => {
    const node = bar.current;
    if (!node || !closable) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "Delete" || !(event.target instanceof HTMLElement)) return;
      const tab = event.target.closest("[role=tab]");
      const value = tab?.closest("[data-node-key]")?.getAttribute("data-node-key");
      if (value) close(value);
    };
    node.addEventListener("keydown", onKeyDown);
    return () => node.removeEventListener("keydown", onKeyDown);
  }, [closable, close]);

  return (
    <div className="ml-tags" data-testid="tag-bar" ref={bar}>
      <Tabs
        type="card"
        size="small"
        activeKey={pathname}
        aria-label={t("tags.label")}
        onChange={(value) => {
          const tab = tabs.find((item) => item.value === value);
          if (tab) navigate(tabHref(tab));
        }}
        items={tabs.map((tab) => ({
          key: tab.value,
          label: (
            <TabLabel
              tab={tab}
              label={tabTitle(tab, tr)}
              onClose={closable ? () => close(tab.value) : undefined}
            />
          ),
        }))}
      />
      <TagActions />
    </div>
  );
}

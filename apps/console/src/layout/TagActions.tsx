import { DownOutlined } from "@ant-design/icons";
import { Button, Dropdown, Input, type MenuProps } from "antd";
import { useState } from "react";
import { useNavigate } from "react-router";
import { useI18n } from "../i18n/index.tsx";
import { filterTabs, tabHref, tabTitle } from "../store/tabs.ts";
import { useConsole } from "../store/useConsole.ts";
import { useTabActions } from "./useTabActions.ts";

/** The tag bar dropdown: clear cache, close others, close all, and a search over the open tabs. */
export function TagActions() {
  const tabs = useConsole((state) => state.tabs);
  const { t, tr } = useI18n();
  const navigate = useNavigate();
  const actions = useTabActions();
  const [open, setOpen] = useState(false);
  const [search, setSearch] = useState("");
  const labelOf = (value: (typeof tabs)[number]) => tabTitle(value, tr);
  const matches = filterTabs(tabs, search, labelOf);

  const items: MenuProps["items"] = [
    { key: "clear-cache", label: <span data-testid="tag-action-clear-cache">{t("tags.clearCache")}</span> },
    {
      key: "close-others",
      label: <span data-testid="tag-action-close-others">{t("tags.closeOthers")}</span>,
    },
    { key: "close-all", label: <span data-testid="tag-action-close-all">{t("tags.closeAll")}</span> },
    { type: "divider" },
    ...(matches.length
      ? matches.map((tab) => ({
          key: `tab:${tab.value}`,
          label: (
            <span data-testid="tag-option" data-value={tab.value}>
              {labelOf(tab)}
            </span>
          ),
        }))
      : [{ key: "none", disabled: true, label: t("tags.noMatch") }]),
  ];

  const onClick: MenuProps["onClick"] = ({ key }) => {
    setOpen(false);
    if (key === "clear-cache") actions.clearCache();
    else if (key === "close-others") actions.closeOthers();
    else if (key === "close-all") actions.closeAll();
    else if (key.startsWith("tab:")) {
      const tab = tabs.find((item) => `tab:${item.value}` === key);
      if (tab) navigate(tabHref(tab));
    }
  };

  return (
    <Dropdown
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) setSearch("");
      }}
      trigger={["click"]}
      menu={{ items, onClick }}
      popupRender={(menu) => (
        <div className="ml-tag-dropdown">
          <Input
            allowClear
            size="small"
            value={search}
            placeholder={t("tags.search")}
            aria-label={t("tags.search")}
            onChange={(event) => setSearch(event.target.value)}
            onKeyDown={(event) => {
              // Typing must not drive the menu underneath; Esc still closes the dropdown.
              if (event.key !== "Escape") event.stopPropagation();
            }}
            data-testid="tag-search"
          />
          {menu}
        </div>
      )}
    >
      <Button size="small" type="text" aria-label={t("tags.actions")} data-testid="tag-dropdown">
        <DownOutlined />
      </Button>
    </Dropdown>
  );
}

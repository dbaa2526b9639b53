import { website } from "@meterline/contracts";
import { useLocation, useNavigate } from "react-router";
import { api, reportNetworkError } from "../app/api.ts";
import { useFeedback } from "../app/feedback.ts";
import { useT } from "../i18n/index.tsx";
import { store } from "../store/store.ts";
import { closeAllTabs, closeOtherTabs, closeTab, tabHref } from "../store/tabs.ts";

/** The tag bar's actions (spec §2), shared by the tab right-click menu and the dropdown. */
export function useTabActions() {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const { modal, message } = useFeedback();
  const t = useT();

  const close = (value: string) => {
    const result = closeTab(store.getState().tabs, value, pathname);
    store.setState({ tabs: result.tabs });
    if (result.activate) navigate(tabHref(result.activate));
  };

  /** Keeps `value` (default: the active tab) and home; shows `value`. */
  const closeOthers = (value = pathname) => {
    const tabs = closeOtherTabs(store.getState().tabs, value);
    store.setState({ tabs });
    const kept = tabs.find((tab) => tab.value === value);
    if (kept && value !== pathname) navigate(tabHref(kept));
  };

  const closeAll = () => {
    store.setState({ tabs: closeAllTabs() });
    navigate(website.homePath);
  };

  const clearCache = () => {
    modal.confirm({
      title: t("common.tip"),
      content: t("tags.clearCacheConfirm"),
      okText: t("common.ok"),
      cancelText: t("common.cancel"),
      onOk: async () => {
        try {
          await api.clearCache();
          message.success(t("tags.cacheCleared"));
        } catch (error) {
          reportNetworkError(error);
        }
      },
    });
  };

  return { close, closeOthers, closeAll, clearCache };
}

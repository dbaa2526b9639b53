import { App, ConfigProvider } from "antd";
import { type CSSProperties, useEffect, useMemo } from "react";
import { RouterProvider } from "react-router";
import { antdLocaleOf } from "../i18n/index.tsx";
import { useConsole } from "../store/useConsole.ts";
import { antdThemeFor, cssVariablesFor } from "../theme/themes.ts";
import { FeedbackBridge } from "./feedback.ts";
import { router } from "./router.tsx";
import { useReducedMotion } from "./useReducedMotion.ts";

/** Providers around the router: antd locale and theme follow the store. */
export function ConsoleApp() {
  const themeName = useConsole((state) => state.theme);
  const color = useConsole((state) => state.color);
  const language = useConsole((state) => state.language);
  const reducedMotion = useReducedMotion();
  const theme = useMemo(
    () => antdThemeFor(themeName, color, !reducedMotion),
    [themeName, color, reducedMotion],
  );

  useEffect(() => {
    document.documentElement.lang = language === "en" ? "en" : "zh-CN";
  }, [language]);

  return (
    <ConfigProvider locale={antdLocaleOf(language)} theme={theme}>
      {/* Theme colours as CSS variables at the root, so full-page screens (login, lock, 403/404/500) follow them too. */}
      <App className={`ml-app ${themeName}`} style={cssVariablesFor(themeName, color) as CSSProperties}>
        <FeedbackBridge />
        <RouterProvider router={router} />
      </App>
    </ConfigProvider>
  );
}

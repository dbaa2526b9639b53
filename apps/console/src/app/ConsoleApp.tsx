import type { ThemeName } from "@meterline/contracts";
import { theme as antdTheme, ConfigProvider } from "antd";
import { type CSSProperties, type ReactNode, useEffect, useMemo } from "react";
import { BrowserRouter } from "react-router";
import { antdLocaleOf } from "../i18n/index.tsx";
import { useConsole } from "../store/useConsole.ts";
import { antdThemeFor, cssVariablesFor } from "../theme/themes.ts";
import { FeedbackHost } from "./FeedbackHost.tsx";
import { ConsoleRoutes } from "./router.tsx";
import { useReducedMotion } from "./useReducedMotion.ts";

/**
 * The console's root element: the theme's colours as CSS variables (so full-page screens such as
 * login, lock and 403/404/500 follow them too) and antd's base text style, what antd's `App`
 * wrapper gave without bringing its feedback APIs into the first load (see FeedbackHost).
 */
function Surface({
  themeName,
  color,
  children,
}: {
  themeName: ThemeName;
  color: string;
  children: ReactNode;
}) {
  const { token } = antdTheme.useToken();
  const style = {
    ...cssVariablesFor(themeName, color),
    color: token.colorText,
    fontSize: token.fontSize,
    lineHeight: token.lineHeight,
    fontFamily: token.fontFamily,
  } as CSSProperties;
  return (
    <div className={`ml-app ${themeName}`} style={style}>
      {children}
    </div>
  );
}

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
      <Surface themeName={themeName} color={color}>
        <FeedbackHost />
        <BrowserRouter>
          <ConsoleRoutes />
        </BrowserRouter>
      </Surface>
    </ConfigProvider>
  );
}

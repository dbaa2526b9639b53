import type { ThemeName } from "@meterline/contracts";
import { theme as antdTheme, type ThemeConfig } from "antd";

/** Shell colours of one theme. The header/sider colours reach the DOM as CSS variables and antd tokens. */
export interface ThemeLook {
  headerBg: string;
  headerText: string;
  siderBg: string;
  /** antd Menu scheme of the sidebar. */
  menu: "dark" | "light";
  /** Selected sidebar entry background; "" = the primary colour. */
  menuSelectedBg: string;
  logoBg: string;
  logoText: string;
  contentBg: string;
  /** Tag bar background. */
  tagsBg: string;
  /** theme-dark switches antd to its dark algorithm. */
  dark: boolean;
}

const base: ThemeLook = {
  headerBg: "#ffffff",
  headerText: "rgba(0, 0, 0, 0.88)",
  siderBg: "#20222a",
  menu: "dark",
  menuSelectedBg: "",
  logoBg: "#20222a",
  logoText: "#ffffff",
  contentBg: "#f0f2f5",
  tagsBg: "#ffffff",
  dark: false,
};

/** The 11 themes of spec §2. Each restyles header, sidebar and logo. */
export const themeLooks: Record<ThemeName, ThemeLook> = {
  "theme-default": base,
  "theme-white": {
    ...base,
    siderBg: "#ffffff",
    menu: "light",
    logoBg: "#ffffff",
    logoText: "rgba(0, 0, 0, 0.88)",
  },
  "theme-dark": {
    ...base,
    headerBg: "#191a23",
    headerText: "rgba(255, 255, 255, 0.85)",
    siderBg: "#191a23",
    logoBg: "#191a23",
    contentBg: "#000000",
    tagsBg: "#141414",
    dark: true,
  },
  "theme-colourful": {
    ...base,
    headerBg: "#6a3de8",
    headerText: "#ffffff",
    siderBg: "#2a1b5e",
    menuSelectedBg: "#e8488a",
    logoBg: "#6a3de8",
  },
  "theme-smart": {
    ...base,
    headerBg: "#0f6fde",
    headerText: "#ffffff",
    siderBg: "#ffffff",
    menu: "light",
    logoBg: "#0f6fde",
  },
  "theme-iview": {
    ...base,
    siderBg: "#515a6e",
    menuSelectedBg: "#2d8cf0",
    logoBg: "#515a6e",
  },
  "theme-vip": {
    ...base,
    headerBg: "#1c1c1c",
    headerText: "#f0c78a",
    siderBg: "#262626",
    menuSelectedBg: "#b8860b",
    logoBg: "#1c1c1c",
    logoText: "#f0c78a",
  },
  "theme-cool": {
    ...base,
    headerBg: "#1f2d3d",
    headerText: "#e5f7ff",
    siderBg: "#1f2d3d",
    menuSelectedBg: "#00a6c0",
    logoBg: "#16222f",
  },
  "theme-d2": {
    ...base,
    headerBg: "#ebf1f6",
    siderBg: "#ebf1f6",
    menu: "light",
    logoBg: "#ebf1f6",
    logoText: "#2f74ff",
    contentBg: "#ffffff",
  },
  "theme-hey": {
    ...base,
    siderBg: "#3a3f51",
    menuSelectedBg: "#3788ee",
    logoBg: "#2f3342",
  },
  "theme-lte": {
    ...base,
    headerBg: "#3c8dbc",
    headerText: "#ffffff",
    siderBg: "#222d32",
    menuSelectedBg: "#1e282c",
    logoBg: "#367fa9",
  },
};

/** antd theme for a shell theme plus the user's primary colour; `motion: false` stills animations. */
export function antdThemeFor(name: ThemeName, color: string, motion = true): ThemeConfig {
  const look = themeLooks[name];
  const selected = look.menuSelectedBg || color;
  return {
    algorithm: look.dark ? antdTheme.darkAlgorithm : antdTheme.defaultAlgorithm,
    token: { colorPrimary: color, motion },
    components: {
      Layout: {
        headerBg: look.headerBg,
        siderBg: look.siderBg,
        bodyBg: look.contentBg,
        headerPadding: "0 12px",
      },
      Menu: {
        darkItemBg: look.siderBg,
        darkSubMenuItemBg: look.siderBg,
        darkPopupBg: look.siderBg,
        darkItemSelectedBg: selected,
        itemBg: look.siderBg,
        subMenuItemBg: look.siderBg,
      },
    },
  };
}

/** CSS variables the shell stylesheet reads. */
export function cssVariablesFor(name: ThemeName): Record<string, string> {
  const look = themeLooks[name];
  return {
    "--ml-header-bg": look.headerBg,
    "--ml-header-text": look.headerText,
    "--ml-sider-bg": look.siderBg,
    "--ml-logo-bg": look.logoBg,
    "--ml-logo-text": look.logoText,
    "--ml-content-bg": look.contentBg,
    "--ml-tags-bg": look.tagsBg,
  };
}

import type { ThemeName } from "@meterline/contracts";
import { theme as antdTheme, type ThemeConfig } from "antd";
import { contrastRatio, shadeFor } from "./contrast.ts";

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
    // D2's #2f74ff is 3.6:1 on its pale logo bar; this shade of it 4.6:1.
    logoText: "#0b5cff",
    contentBg: "#ffffff",
  },
  "theme-hey": {
    ...base,
    siderBg: "#3a3f51",
    menuSelectedBg: "#3788ee",
    logoBg: "#2f3342",
  },
  // AdminLTE's blues (#3c8dbc header, #367fa9 logo) carry white text at 3.7:1 and 4.4:1: the same
  // hues a step darker reach 4.8:1 and 5.5:1, the logo still a shade darker than the header.
  "theme-lte": {
    ...base,
    headerBg: "#32769d",
    headerText: "#ffffff",
    siderBg: "#222d32",
    menuSelectedBg: "#1e282c",
    logoBg: "#2e6d91",
  },
};

/** The palest background text sits on in the light themes (the content area). */
const palestBackground = "#f0f2f5";
/** The darkest surface of the dark theme (antd's dark container), and the text on filled controls there. */
const darkSurface = "#141414";
const darkSolidText = "#141414";
/** antd's red for danger buttons and errors: 3.26:1 on white, so light themes use a darker red. */
const errorRed = "#ff4d4f";
/** The dark algorithm dims its red toward the surface (#ff4d4f ends as #dc4446, 4.34:1): start lighter. */
const darkErrorRed = "#ff7875";

/**
 * The theme colour as it is drawn (WCAG 2.1 AA, 4.5:1 for text). In light themes filled controls
 * carry white text and links sit on white or pale grey, so both use the darkest of those needs: a
 * shade of the same hue (#409EFF becomes #006bd9). In the dark theme the colour itself reads well
 * on the dark surfaces, and filled controls carry dark text instead of white.
 */
export function accentOf(name: ThemeName, color: string): string {
  return themeLooks[name].dark ? shadeFor(color, darkSurface) : shadeFor(color, palestBackground);
}

/**
 * The hovered and pressed states of the theme colour. antd derives them a step lighter (in light
 * themes), e.g. #258ce6 for #006bd9: a default button's hovered text on white at 3.5:1. Here they
 * move away from the surface instead (darker in light themes, lighter in the dark one), so text in
 * those states (default and link buttons, links) and white or dark text on filled buttons read at
 * least as well as at rest.
 */
export function statesOf(name: ThemeName, color: string): { hover: string; active: string } {
  const accent = accentOf(name, color);
  const surface = themeLooks[name].dark ? darkSurface : "#ffffff";
  const atRest = contrastRatio(accent, surface);
  return { hover: shadeFor(accent, surface, atRest * 1.25), active: shadeFor(accent, surface, atRest * 1.6) };
}

/** antd theme for a shell theme plus the user's primary colour; `motion: false` stills animations. */
export function antdThemeFor(name: ThemeName, color: string, motion = true): ThemeConfig {
  const look = themeLooks[name];
  const accent = accentOf(name, color);
  // The sidebar's selected entry has white text on it in every theme.
  const selected = shadeFor(look.menuSelectedBg || accent, "#ffffff");
  const states = statesOf(name, color);
  return {
    algorithm: look.dark ? antdTheme.darkAlgorithm : antdTheme.defaultAlgorithm,
    token: {
      colorPrimary: accent,
      colorLink: accent,
      colorInfo: accent,
      colorPrimaryHover: states.hover,
      colorPrimaryActive: states.active,
      colorLinkHover: states.hover,
      colorLinkActive: states.active,
      colorError: look.dark ? darkErrorRed : shadeFor(errorRed, palestBackground),
      // antd's hint grey (45 % black, 3.3:1 on white) fails AA: hints use the secondary grey.
      colorTextDescription: look.dark ? "rgba(255, 255, 255, 0.65)" : "rgba(0, 0, 0, 0.65)",
      colorTextTertiary: look.dark ? "rgba(255, 255, 255, 0.65)" : "rgba(0, 0, 0, 0.65)",
      // Placeholders drawn as text (a select's "all areas") need 4.5:1 too: 55 % reaches 4.7:1,
      // still lighter than a value so the two are not confused.
      colorTextPlaceholder: look.dark ? "rgba(255, 255, 255, 0.55)" : "rgba(0, 0, 0, 0.55)",
      ...(look.dark ? { colorTextLightSolid: darkSolidText } : {}),
      motion,
    },
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
        darkItemSelectedColor: "#ffffff",
        // Sidebar entries keep light text on the dark sidebar, whatever filled controls use.
        darkItemColor: "rgba(255, 255, 255, 0.65)",
        darkItemHoverColor: "#ffffff",
        darkGroupTitleColor: "rgba(255, 255, 255, 0.65)",
        itemBg: look.siderBg,
        subMenuItemBg: look.siderBg,
      },
      // Tooltips keep white text on their dark grey in every theme.
      Tooltip: { colorTextLightSolid: "#ffffff" },
    },
  };
}

/** CSS variables the shell stylesheet reads. */
export function cssVariablesFor(name: ThemeName, color: string): Record<string, string> {
  const look = themeLooks[name];
  return {
    // The active top-menu entry is drawn in the theme colour on the header's own background; on a
    // coloured header (white text) any shade of the theme colour reads as blue on blue, so it keeps
    // the header's text colour and is told apart by its underline.
    "--ml-header-accent":
      look.headerText === "#ffffff" ? look.headerText : shadeFor(accentOf(name, color), look.headerBg),
    // The picked colour as drawn (its AA shade), for the shell's own rules outside antd's
    // components, where antd's variables are not defined and a fixed fallback would stay blue.
    "--ml-accent": accentOf(name, color),
    "--ml-header-bg": look.headerBg,
    "--ml-header-text": look.headerText,
    "--ml-sider-bg": look.siderBg,
    "--ml-logo-bg": look.logoBg,
    "--ml-logo-text": look.logoText,
    "--ml-content-bg": look.contentBg,
    "--ml-tags-bg": look.tagsBg,
  };
}

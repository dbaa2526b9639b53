import type { ButtonCode, ButtonNode, MenuRoute, TopMenu } from "@meterline/contracts";
import type { Http } from "./http.ts";

const MENU = "/api/blade-system/menu";

export function menuApi(http: Http) {
  return {
    /** Sidebar tree for the user; with a top menu id only the menus granted to it (contract §7.2). */
    routes(topMenuId?: string): Promise<MenuRoute[]> {
      return http.envelope<MenuRoute[]>(`${MENU}/routes`, { query: { topMenuId: topMenuId || undefined } });
    },
    buttons(): Promise<ButtonNode[]> {
      return http.envelope<ButtonNode[]>(`${MENU}/buttons`);
    },
    /** The button tree's codes alone: what the console turns into permission flags. */
    buttonCodes(): Promise<ButtonCode[]> {
      return http.envelope<ButtonCode[]>(`${MENU}/buttons`, { query: { fields: "code" } });
    },
    topMenu(): Promise<TopMenu[]> {
      return http.envelope<TopMenu[]>(`${MENU}/top-menu`);
    },
  };
}

import { findLeaf } from "../../../layout/menu-model.ts";
import { useConsole } from "../../../store/useConsole.ts";

const CHECK_RECORD_PATH = "/operation/checkrecord";

/**
 * Whether the user may read check records (the screen, or any of its buttons, as the server asks),
 * ignore them, and open the 告警记录 screen itself.
 */
export function useMayReadAlarms(): { read: boolean; ignore: boolean; screen: boolean } {
  const permission = useConsole((state) => state.permission);
  const menus = useConsole((state) => state.menus);
  const menuAll = useConsole((state) => state.menuAll);
  const ignore = Boolean(permission.checkRecord_ignore);
  const screen = Boolean(findLeaf(menuAll, CHECK_RECORD_PATH) ?? findLeaf(menus ?? [], CHECK_RECORD_PATH));
  const read = ignore || Boolean(permission.checkRecord_close || permission.checkRecord_delete) || screen;
  return { read, ignore, screen };
}

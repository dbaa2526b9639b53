import { Avatar } from "antd";
import defaultAvatar from "../assets/avatar-default.svg";
import { useConsole } from "../store/useConsole.ts";

/** The user's avatar, or the bundled default image when the account has none (spec §3). */
export function UserAvatar({ size = 28 }: { size?: number }) {
  const avatar = useConsole((state) => state.userInfo?.avatar);
  return <Avatar size={size} src={avatar || defaultAvatar} alt="" data-testid="user-avatar" />;
}

/** The name shown for the user: display name, then real name, nickname, account. */
export function useUserName(): string {
  return useConsole((state) => {
    const info = state.userInfo;
    return info?.userName || info?.real_name || info?.nick_name || info?.account || "";
  });
}

import { DashboardOutlined, LogoutOutlined, UserOutlined } from "@ant-design/icons";
import { Button, Dropdown, type MenuProps } from "antd";
import { useNavigate } from "react-router";
import { useFeedback } from "../../app/feedback.ts";
import { logout } from "../../app/session.ts";
import { UserAvatar, useUserName } from "../../components/UserAvatar.tsx";
import { useT } from "../../i18n/index.tsx";
import { useConsole } from "../../store/useConsole.ts";

/** Avatar and user name; the dropdown leads to the dashboard, the profile, and logout (confirmed). */
export function UserMenu() {
  const t = useT();
  const navigate = useNavigate();
  const { modal } = useFeedback();
  const name = useUserName();
  const screen = useConsole((state) => state.screen);

  const items: MenuProps["items"] = [
    {
      key: "/wel/dashboard",
      icon: <DashboardOutlined />,
      label: <span data-testid="user-menu-dashboard">{t("top.dashboard")}</span>,
    },
    {
      key: "/info/index",
      icon: <UserOutlined />,
      label: <span data-testid="user-menu-info">{t("top.userInfo")}</span>,
    },
    { type: "divider" },
    { key: "logout", icon: <LogoutOutlined />, label: <span data-testid="logout">{t("top.logout")}</span> },
  ];

  const onClick: MenuProps["onClick"] = ({ key }) => {
    if (key !== "logout") {
      navigate(key);
      return;
    }
    modal.confirm({
      title: t("common.tip"),
      content: t("top.logoutConfirm"),
      okText: t("common.ok"),
      cancelText: t("common.cancel"),
      okButtonProps: { className: "ml-logout-confirm" },
      onOk: logout,
    });
  };

  return (
    <Dropdown trigger={["click"]} menu={{ items, onClick }} placement="bottomRight">
      <Button
        type="text"
        className="ml-user-button"
        // The name read out starts with the name shown (WCAG 2.5.3), then says what opens.
        aria-label={screen >= 1 && name ? `${name}, ${t("top.userMenu")}` : t("top.userMenu")}
        data-testid="user-dropdown"
      >
        <UserAvatar />
        {screen >= 1 ? <span className="ml-user-name">{name}</span> : null}
      </Button>
    </Dropdown>
  );
}

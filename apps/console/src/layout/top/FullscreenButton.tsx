import { FullscreenExitOutlined, FullscreenOutlined } from "@ant-design/icons";
import { useEffect, useState } from "react";
import { useT } from "../../i18n/index.tsx";
import { IconButton } from "./IconButton.tsx";

/** Full screen through the Fullscreen API; the icon follows the real state (Esc exits too). */
export function FullscreenButton() {
  const t = useT();
  const [active, setActive] = useState(() => document.fullscreenElement !== null);

  useEffect(() => {
    const update = () => setActive(document.fullscreenElement !== null);
    document.addEventListener("fullscreenchange", update);
    return () => document.removeEventListener("fullscreenchange", update);
  }, []);

  const toggle = () => {
    const request = active ? document.exitFullscreen() : document.documentElement.requestFullscreen();
    // Refused when the browser disallows it (e.g. in a frame); the icon then simply stays.
    request.catch(() => undefined);
  };

  return (
    <IconButton
      label={active ? t("top.exitFullscreen") : t("top.fullscreen")}
      icon={active ? <FullscreenExitOutlined /> : <FullscreenOutlined />}
      onClick={toggle}
      testId="fullscreen-button"
    />
  );
}

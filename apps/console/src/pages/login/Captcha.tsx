import { ReloadOutlined } from "@ant-design/icons";
import { Button, Tooltip } from "antd";
import { useT } from "../../i18n/index.tsx";

/** The captcha image; clicking it asks for a new one. */
export function Captcha({ image, onRefresh }: { image: string; onRefresh: () => void }) {
  const t = useT();
  return (
    <Tooltip title={t("login.captchaRefresh")}>
      <Button
        className="ml-captcha"
        onClick={onRefresh}
        aria-label={t("login.captchaRefresh")}
        data-testid="login-captcha-image"
      >
        {image ? <img src={image} alt={t("login.captcha")} /> : <ReloadOutlined />}
      </Button>
    </Tooltip>
  );
}

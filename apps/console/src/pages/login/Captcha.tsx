import { ReloadOutlined } from "@ant-design/icons";
import { useT } from "../../i18n/index.tsx";

/** The captcha image; clicking it asks for a new one (its hint as the native tooltip). */
export function Captcha({ image, onRefresh }: { image: string; onRefresh: () => void }) {
  const t = useT();
  return (
    <button
      type="button"
      className="ml-captcha"
      onClick={onRefresh}
      title={t("login.captchaRefresh")}
      aria-label={t("login.captchaRefresh")}
      data-testid="login-captcha-image"
    >
      {image ? <img src={image} alt={t("login.captcha")} /> : <ReloadOutlined />}
    </button>
  );
}

import { GithubOutlined, LoginOutlined, WechatOutlined } from "@ant-design/icons";
import type { SocialProviderOption } from "@meterline/contracts";
import type { ReactNode } from "react";
import { isShowableImage } from "../../components/same-origin.ts";
import { useT } from "../../i18n/index.tsx";

const marks: Record<string, ReactNode> = {
  github: <GithubOutlined />,
  wechat_open: <WechatOutlined />,
  wechat_mp: <WechatOutlined />,
};

/**
 * A button per enabled third-party provider of the tenant. Plain links: the server's oauth/render
 * answers with the redirect to the provider (and the cookie that binds the sign-in to this browser).
 */
export function SocialButtons({
  providers,
  tenantId,
}: {
  providers: SocialProviderOption[];
  tenantId: string;
}) {
  const t = useT();
  if (providers.length === 0) return null;
  return (
    <div className="ml-login-social" data-testid="login-social">
      <div className="ml-login-social-title">{t("social.or")}</div>
      <div className="ml-login-social-buttons">
        {providers.map((provider) => {
          const query = new URLSearchParams({ tenantId });
          return (
            <a
              key={provider.source}
              className="ml-login-social-button"
              href={`/api/blade-auth/oauth/render/${encodeURIComponent(provider.source)}?${query}`}
              title={t("social.signInWith", { name: provider.displayName })}
              data-testid={`login-social-${provider.source}`}
            >
              {isShowableImage(provider.icon) ? (
                <img src={provider.icon} alt="" />
              ) : (
                (marks[provider.source] ?? <LoginOutlined />)
              )}
              <span>{provider.displayName}</span>
            </a>
          );
        })}
      </div>
    </div>
  );
}

import { lazy, Suspense, useState } from "react";
import { useDocumentTitle } from "../../app/useDocumentTitle.ts";
import { useDomainTenant } from "../../app/useDomainTenant.ts";
import logoUrl from "../../assets/logo.svg";
import { LightSurface } from "../../components/LightSurface.tsx";
import { useT } from "../../i18n/index.tsx";
import { LanguageSwitch } from "../../layout/top/LanguageSwitch.tsx";
import { useConsole } from "../../store/useConsole.ts";
import { LoginForm } from "./LoginForm.tsx";
import { SocialButtons } from "./SocialButtons.tsx";
import { defaultLoginOptions, useLoginOptions } from "./useLoginOptions.ts";
import { useSocialReturn } from "./useSocialReturn.ts";

// Only a person back from a provider without an account needs it: antd's Form stays off the login page.
const RegistrationDialog = lazy(() =>
  import("../../components/RegistrationDialog.tsx").then((m) => ({ default: m.RegistrationDialog })),
);

/**
 * /login: tenant (when needed), account, password, captcha (when on), language switch. The form
 * shows at once with the console's defaults; the server's login options and the tenant bound to
 * this address adjust it when they arrive.
 */
export default function LoginPage() {
  const t = useT();
  useDocumentTitle(t("login.title"));
  const domain = useDomainTenant();
  const lastTenant = useConsole((state) => state.tenantId);
  const [chosenTenant, setChosenTenant] = useState("");
  const options = useLoginOptions(chosenTenant || domain?.tenantId || lastTenant) ?? defaultLoginOptions;
  const social = useSocialReturn();
  const background = domain?.backgroundUrl;

  return (
    <LightSurface>
      <div
        className="ml-login"
        style={background ? { backgroundImage: `url("${encodeURI(background)}")` } : undefined}
        data-testid="login-page"
      >
        <div className="ml-login-card">
          <div className="ml-login-top">
            <LanguageSwitch
              renderButton={({ icon, ...props }) => (
                <button type="button" className="ml-login-language ml-plain-icon-button" {...props}>
                  {icon}
                </button>
              )}
            />
          </div>
          <div className="ml-login-brand">
            <img src={logoUrl} alt="" />
            <div>
              {/* Plain headings styled as antd's Typography: it would bring its copy, edit and ellipsis machinery. */}
              <h3 className="ml-login-title">{t("app.title")}</h3>
              <span className="ml-login-subtitle">{t("app.subtitle")}</span>
            </div>
          </div>
          <h4 className="ml-login-welcome">{t("login.welcome")}</h4>
          <LoginForm
            options={options}
            tenantId={domain?.tenantId || lastTenant}
            tenantDerived={Boolean(domain?.tenantId)}
            onTenantChange={setChosenTenant}
          />
          <SocialButtons
            providers={options.socialProviders ?? []}
            tenantId={chosenTenant || domain?.tenantId || lastTenant}
          />
          {social.busy ? (
            <div className="ml-login-social-busy" role="status">
              {t("social.signingIn")}
            </div>
          ) : null}
          {social.guest ? (
            <Suspense fallback={null}>
              <RegistrationDialog guest={social.guest} onClose={social.clearGuest} />
            </Suspense>
          ) : null}
        </div>
      </div>
    </LightSurface>
  );
}

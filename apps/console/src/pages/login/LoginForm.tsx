import {
  EyeInvisibleOutlined,
  EyeOutlined,
  LockOutlined,
  SafetyOutlined,
  TeamOutlined,
  UserOutlined,
} from "@ant-design/icons";
import { isApiError } from "@meterline/api-client";
import type { CaptchaResponse, LoginOptions } from "@meterline/contracts";
import { theme } from "antd";
import {
  type CSSProperties,
  type FormEvent,
  type ReactNode,
  useCallback,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
} from "react";
import { api, describeError } from "../../app/api.ts";
import { type BootLogin, dropBootLogin, moveBootFocus, readBootLogin } from "../../app/boot-login.ts";
import { useFeedback } from "../../app/feedback.ts";
import { login } from "../../app/session.ts";
import { type MessageKey, useT } from "../../i18n/index.tsx";
import { Captcha } from "./Captcha.tsx";
import { asksForCaptcha } from "./captcha-request.ts";

interface Values {
  tenantId: string;
  username: string;
  password: string;
  code: string;
}

type Field = keyof Values;

interface Props {
  options: LoginOptions;
  /** The tenant derived from the address, or the last one used; the field is hidden when derived. */
  tenantId: string;
  tenantDerived: boolean;
  /** The tenant the form would sign in to, as it changes (its third-party buttons follow it). */
  onTenantChange?: (tenantId: string) => void;
}

/** Each field's message when left empty (the password may be blank spaces, the others may not). */
const required: Record<Field, { key: MessageKey; trim: boolean }> = {
  tenantId: { key: "login.tenantRequired", trim: true },
  username: { key: "login.usernameRequired", trim: true },
  password: { key: "login.passwordRequired", trim: false },
  code: { key: "login.captchaRequired", trim: true },
};

/** Fields the visitor typed into in the boot form: kept as typed when the address's tenant arrives. */
function typedInBoot(boot: BootLogin | null, tenantId: string): Partial<Record<Field, boolean>> {
  if (!boot) return {};
  return {
    ...(boot.values.tenantId !== undefined && boot.values.tenantId !== tenantId ? { tenantId: true } : {}),
    ...(boot.values.username ? { username: true } : {}),
    ...(boot.values.password ? { password: true } : {}),
  };
}

/** antd's spacing of a two-character Chinese button label ("登 录"), kept for the plain button. */
const submitLabel = (text: string) => (/^[\u4e00-\u9fa5]{2}$/.test(text) ? `${text[0]} ${text[1]}` : text);

const isEmpty = (field: Field, value: string) => (required[field].trim ? value.trim() : value) === "";

/**
 * One input of the form, drawn like antd's large Input with its prefix icon and, below it, the
 * field's message (classes of antd's Form, so the page reads and tests the same). Plain elements:
 * antd's Form, Input and their validation machinery would be most of the login page's load.
 */
function LoginField({
  id,
  error,
  icon,
  suffix,
  children,
}: {
  id: string;
  error: string;
  icon: ReactNode;
  suffix?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className={`ml-login-field${error ? " has-error" : ""}`}>
      <span className="ml-login-input">
        <span className="ml-login-prefix">{icon}</span>
        {children}
        {suffix}
      </span>
      {error ? (
        <div className="ant-form-item-explain-error" id={`${id}-error`} role="alert">
          {error}
        </div>
      ) : null}
    </div>
  );
}

/**
 * Account login; Enter submits. The captcha shows when the server is configured for it or asks for
 * it after many failures, and is refreshed after every failed attempt. Each empty field says so
 * once it was edited or a submit was tried.
 */
export function LoginForm({ options, tenantId, tenantDerived, onTenantChange }: Props) {
  const t = useT();
  const { message } = useFeedback();
  const { token } = theme.useToken();
  const [boot] = useState(readBootLogin);
  const [values, setValues] = useState<Values>(() => ({
    tenantId,
    username: "",
    password: "",
    code: "",
    ...boot?.values,
  }));
  const [touched, setTouched] = useState<Partial<Record<Field, boolean>>>(() => typedInBoot(boot, tenantId));
  const [bootSubmitted, setBootSubmitted] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const [submitted, setSubmitted] = useState(false);
  const [showPassword, setShowPassword] = useState(false);
  const [busy, setBusy] = useState(false);
  const [captcha, setCaptcha] = useState<CaptchaResponse>({ key: "", image: "" });
  const [captchaAsked, setCaptchaAsked] = useState(false);
  const captchaMode = options.captchaMode || captchaAsked;
  const showTenant = options.tenantMode && !tenantDerived;
  const fields: Field[] = [
    ...(showTenant ? (["tenantId"] as const) : []),
    "username",
    "password",
    ...(captchaMode ? (["code"] as const) : []),
  ];

  const refreshCaptcha = useCallback(() => {
    if (!captchaMode) return;
    setValues((current) => ({ ...current, code: "" }));
    api.captcha().then(setCaptcha, (error: unknown) => message.error(describeError(error)));
  }, [captchaMode, message]);

  useEffect(refreshCaptcha, [refreshCaptcha]);
  // Take over from the form index.html showed: what was typed since the first render, the focus
  // and a submit already asked for; then that form goes (before the browser paints this one).
  useLayoutEffect(() => {
    const latest = readBootLogin();
    if (!latest) return;
    setValues((current) => ({ ...current, ...latest.values }));
    setTouched((current) => ({ ...current, ...typedInBoot(latest, tenantId) }));
    dropBootLogin();
    moveBootFocus(latest);
    if (latest.submitted) setBootSubmitted(true);
  }, [tenantId]);
  useEffect(() => {
    if (!bootSubmitted) return;
    setBootSubmitted(false);
    formRef.current?.requestSubmit();
  }, [bootSubmitted]);
  // The tenant may be known only after the form shows (the address's tenant): fill it in unless
  // the operator has typed one already.
  // Only on a change of that tenant: the first render already shows it (and a tenant typed into the
  // boot form before the takeover must not be replaced by it).
  const shownTenant = useRef(tenantId);
  useEffect(() => {
    if (shownTenant.current === tenantId) return;
    shownTenant.current = tenantId;
    if (!touched.tenantId) setValues((current) => ({ ...current, tenantId }));
  }, [tenantId, touched.tenantId]);

  const chosenTenant = showTenant ? values.tenantId : tenantId;
  useEffect(() => onTenantChange?.(chosenTenant), [chosenTenant, onTenantChange]);

  const errorOf = (field: Field) =>
    (submitted || touched[field]) && isEmpty(field, values[field]) ? t(required[field].key) : "";

  const input = (field: Field, label: MessageKey, testId: string, extra: Record<string, unknown> = {}) => {
    const error = errorOf(field);
    return (
      <input
        className="ml-login-control"
        id={`login-${field}`}
        name={field}
        value={values[field]}
        onChange={(event) => {
          const value = event.target.value;
          setValues((current) => ({ ...current, [field]: value }));
          setTouched((current) => ({ ...current, [field]: true }));
        }}
        placeholder={t(label)}
        aria-label={t(label)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `login-${field}-error` : undefined}
        data-testid={testId}
        {...extra}
      />
    );
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (busy || fields.some((field) => isEmpty(field, values[field]))) return;
    setBusy(true);
    try {
      await login({
        tenantId: showTenant ? values.tenantId.trim() : tenantId,
        username: values.username.trim(),
        password: values.password,
        captcha: captchaMode ? { key: captcha.key, code: values.code.trim() } : undefined,
      });
    } catch (error) {
      // Server refusals were already shown by the API client; transport failures are not.
      if (!isApiError(error) || error.kind !== "http") message.error(describeError(error));
      // Switching the captcha on fetches one through the effect; otherwise fetch a fresh one.
      if (asksForCaptcha(error) && !captchaMode) setCaptchaAsked(true);
      else refreshCaptcha();
    } finally {
      setBusy(false);
    }
  };

  // The theme's colours for the plain inputs (focus ring, error border).
  const colours = {
    "--ml-login-primary": token.colorPrimary,
    "--ml-login-primary-hover": token.colorPrimaryHover,
    // Text on the filled button: white, or dark where the theme's colour is light (the dark theme).
    "--ml-login-on-primary": token.colorTextLightSolid,
    "--ml-login-focus": token.controlOutline,
    "--ml-login-error": token.colorError,
    "--ml-login-error-focus": token.colorErrorOutline,
    "--ml-login-border": token.colorBorder,
    "--ml-login-placeholder": token.colorTextPlaceholder,
  } as CSSProperties;

  return (
    <form
      ref={formRef}
      className="ml-login-form"
      style={colours}
      onSubmit={submit}
      noValidate
      data-testid="login-form"
    >
      {showTenant ? (
        <LoginField id="login-tenantId" error={errorOf("tenantId")} icon={<TeamOutlined />}>
          {input("tenantId", "login.tenantId", "login-tenant")}
        </LoginField>
      ) : null}
      <LoginField id="login-username" error={errorOf("username")} icon={<UserOutlined />}>
        {input("username", "login.username", "login-username", { autoComplete: "username", autoFocus: true })}
      </LoginField>
      <LoginField
        id="login-password"
        error={errorOf("password")}
        icon={<LockOutlined />}
        suffix={
          // Outside the tab order as antd's own eye is; the pointer shows or hides the password.
          <button
            type="button"
            tabIndex={-1}
            className="ml-login-suffix"
            aria-label={t(showPassword ? "login.hidePassword" : "login.showPassword")}
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => setShowPassword((shown) => !shown)}
          >
            {showPassword ? <EyeOutlined /> : <EyeInvisibleOutlined />}
          </button>
        }
      >
        {input("password", "login.password", "login-password", {
          type: showPassword ? "text" : "password",
          autoComplete: "current-password",
        })}
      </LoginField>
      {captchaMode ? (
        <div className="ml-login-captcha-row">
          <LoginField id="login-code" error={errorOf("code")} icon={<SafetyOutlined />}>
            {input("code", "login.captcha", "login-captcha")}
          </LoginField>
          <Captcha image={captcha.image} onRefresh={refreshCaptcha} />
        </div>
      ) : null}
      {/* Drawn as antd's large primary button (the boot form's is the same): antd's Button would be
          a tenth of the login page's load. */}
      <button
        type="submit"
        className="ml-login-submit"
        aria-busy={busy || undefined}
        data-testid="login-submit"
      >
        {submitLabel(t("login.submit"))}
      </button>
    </form>
  );
}

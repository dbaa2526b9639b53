import { type FormEvent, useState } from "react";
import { call, OwnerApiError } from "./api.ts";
import { CodeField } from "./CodeField.tsx";
import type { Translate } from "./i18n.ts";

/** Outside WeChat (or when the tenant has no official account): phone number and SMS code. */
export function SignIn({
  t,
  tenantId,
  wechat,
  onSignedIn,
}: {
  t: Translate;
  tenantId: string;
  wechat: boolean;
  onSignedIn: (token: string) => void;
}) {
  const [phone, setPhone] = useState("");
  const [code, setCode] = useState("");
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      const { token } = await call<{ token: string }>("POST", "sign-in", { body: { tenantId, phone, code } });
      onSignedIn(token);
    } catch (error) {
      setMessage({ text: error instanceof OwnerApiError ? error.message : t("failed"), error: true });
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="card" onSubmit={submit} data-testid="h5-sign-in">
      <h2>{t("signInTitle")}</h2>
      <div className="field">
        <label htmlFor="h5-phone">{t("phone")}</label>
        <input
          id="h5-phone"
          data-testid="h5-phone"
          type="tel"
          inputMode="numeric"
          autoComplete="tel"
          maxLength={11}
          value={phone}
          onChange={(e) => setPhone(e.target.value.replace(/\D/g, ""))}
        />
      </div>
      <CodeField
        t={t}
        tenantId={tenantId}
        phone={phone}
        value={code}
        onChange={setCode}
        onError={(text) => setMessage({ text, error: true })}
        onSent={() => setMessage({ text: t("codeSent"), error: false })}
      />
      {message && (
        <p className={message.error ? "message error" : "message"} role={message.error ? "alert" : "status"}>
          {message.text}
        </p>
      )}
      <button
        type="submit"
        data-testid="h5-sign-in-submit"
        disabled={busy || phone.length !== 11 || code.length !== 6}
      >
        {t("signIn")}
      </button>
      {wechat && (
        <a className="link" href={`/api/blade-pms/h5/wechat?tenantId=${encodeURIComponent(tenantId)}`}>
          {t("wechatSignIn")}
        </a>
      )}
    </form>
  );
}

import { useState } from "react";
import { call, isUnknownTenant } from "./api.ts";
import { CodeField } from "./CodeField.tsx";
import { FormMessage, PhoneField, useOwnerForm } from "./form-parts.tsx";
import type { Translate } from "./i18n.ts";

/** Outside WeChat (or when the tenant has no official account): phone number and SMS code. */
export function SignIn({
  t,
  tenantId,
  wechat,
  onSignedIn,
  onUnknownTenant,
}: {
  t: Translate;
  tenantId: string;
  wechat: boolean;
  onSignedIn: (token: string) => void;
  onUnknownTenant: () => void;
}) {
  const [phone, setPhone] = useState("");
  const [code, setCode] = useState("");
  const { submit, busy, note, codeNotes } = useOwnerForm(t, async () => {
    try {
      const { token } = await call<{ token: string }>("POST", "sign-in", { body: { tenantId, phone, code } });
      onSignedIn(token);
    } catch (error) {
      if (isUnknownTenant(error)) return onUnknownTenant();
      throw error;
    }
  });
  return (
    <form className="card" onSubmit={submit} data-testid="h5-sign-in">
      <h2>{t("signInTitle")}</h2>
      <PhoneField t={t} id="h5-phone" value={phone} onChange={setPhone} autoComplete="tel" />
      <CodeField
        t={t}
        tenantId={tenantId}
        phone={phone}
        value={code}
        onChange={setCode}
        onUnknownTenant={onUnknownTenant}
        {...codeNotes}
      />
      <FormMessage note={note} />
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

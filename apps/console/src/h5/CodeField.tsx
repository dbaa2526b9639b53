import { useState } from "react";
import { call, isUnknownTenant, OwnerApiError } from "./api.ts";
import type { Translate } from "./i18n.ts";
import { useCountdown } from "./useCountdown.ts";

/** The six-digit code input with its send button, which waits a minute between sends. */
export function CodeField({
  t,
  tenantId,
  phone,
  value,
  onChange,
  onError,
  onSent,
  onUnknownTenant,
}: {
  t: Translate;
  tenantId: string;
  phone: string;
  value: string;
  onChange: (value: string) => void;
  onError: (message: string) => void;
  onSent: () => void;
  /** Signing in: the tenant turned out not to exist (a bound owner's tenant does, so Bind has none). */
  onUnknownTenant?: () => void;
}) {
  const [left, setLeft] = useCountdown();
  const [sending, setSending] = useState(false);
  const send = async () => {
    setSending(true);
    try {
      await call("POST", "code", { body: { tenantId, phone } });
      setLeft(60);
      onSent();
    } catch (error) {
      if (onUnknownTenant && isUnknownTenant(error)) return onUnknownTenant();
      onError(error instanceof OwnerApiError ? error.message : t("failed"));
    } finally {
      setSending(false);
    }
  };
  return (
    <div className="field">
      <label htmlFor="h5-code">{t("code")}</label>
      <div className="row">
        <input
          id="h5-code"
          data-testid="h5-code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          value={value}
          onChange={(e) => onChange(e.target.value.replace(/\D/g, ""))}
        />
        <button
          type="button"
          className="secondary"
          data-testid="h5-send-code"
          disabled={sending || left > 0 || phone.length !== 11}
          onClick={send}
        >
          {left > 0 ? t("resendIn", { n: left }) : t("sendCode")}
        </button>
      </div>
    </div>
  );
}

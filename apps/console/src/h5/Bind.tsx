import { type FormEvent, useState } from "react";
import { call, OwnerApiError } from "./api.ts";
import { CodeField } from "./CodeField.tsx";
import type { Translate } from "./i18n.ts";

/**
 * The first visit's binding: the room number and the owner's phone on record. A phone session has
 * proven its phone already; a WeChat session proves it now with a code sent to that phone.
 */
export function Bind({
  t,
  tenantId,
  token,
  sessionPhone,
  onBound,
}: {
  t: Translate;
  tenantId: string;
  token: string;
  sessionPhone: string;
  onBound: () => void;
}) {
  const [room, setRoom] = useState("");
  const [phone, setPhone] = useState(sessionPhone);
  const [code, setCode] = useState("");
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);
  const [busy, setBusy] = useState(false);
  const needsCode = !sessionPhone || phone !== sessionPhone;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      await call("POST", "bind", {
        token,
        body: { room: room.trim(), phone, ...(needsCode ? { code } : {}) },
      });
      onBound();
    } catch (error) {
      setMessage({ text: error instanceof OwnerApiError ? error.message : t("failed"), error: true });
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="card" onSubmit={submit} data-testid="h5-bind">
      <h2>{t("bindTitle")}</h2>
      <p className="hint">{t("bindHint")}</p>
      <div className="field">
        <label htmlFor="h5-room">{t("room")}</label>
        <input
          id="h5-room"
          data-testid="h5-room"
          value={room}
          maxLength={64}
          onChange={(e) => setRoom(e.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor="h5-bind-phone">{t("phone")}</label>
        <input
          id="h5-bind-phone"
          data-testid="h5-bind-phone"
          type="tel"
          inputMode="numeric"
          maxLength={11}
          value={phone}
          onChange={(e) => setPhone(e.target.value.replace(/\D/g, ""))}
        />
      </div>
      {needsCode && (
        <CodeField
          t={t}
          tenantId={tenantId}
          phone={phone}
          value={code}
          onChange={setCode}
          onError={(text) => setMessage({ text, error: true })}
          onSent={() => setMessage({ text: t("codeSent"), error: false })}
        />
      )}
      {message && (
        <p className={message.error ? "message error" : "message"} role={message.error ? "alert" : "status"}>
          {message.text}
        </p>
      )}
      <button
        type="submit"
        data-testid="h5-bind-submit"
        disabled={busy || !room.trim() || phone.length !== 11 || (needsCode && code.length !== 6)}
      >
        {t("bind")}
      </button>
    </form>
  );
}

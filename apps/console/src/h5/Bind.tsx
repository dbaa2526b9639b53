import { useState } from "react";
import { call } from "./api.ts";
import { CodeField } from "./CodeField.tsx";
import { FormMessage, PhoneField, useOwnerForm } from "./form-parts.tsx";
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
  const needsCode = !sessionPhone || phone !== sessionPhone;
  const { submit, busy, note, codeNotes } = useOwnerForm(t, async () => {
    await call("POST", "bind", {
      token,
      body: { room: room.trim(), phone, ...(needsCode ? { code } : {}) },
    });
    onBound();
  });
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
      <PhoneField t={t} id="h5-bind-phone" value={phone} onChange={setPhone} />
      {needsCode && (
        <CodeField t={t} tenantId={tenantId} phone={phone} value={code} onChange={setCode} {...codeNotes} />
      )}
      <FormMessage note={note} />
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

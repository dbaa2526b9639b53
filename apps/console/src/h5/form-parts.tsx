import { type FormEvent, useState } from "react";
import { OwnerApiError } from "./api.ts";
import type { Translate } from "./i18n.ts";

/** What a form tells the owner under its fields: the code went out, or why it was refused. */
export type FormNote = { text: string; error: boolean } | null;

/**
 * A form's submit: busy while it runs; the server's refusal (or a plain failure) becomes the
 * note, and the code field's outcomes too (`codeNotes`).
 */
export function useOwnerForm(t: Translate, run: () => Promise<void>) {
  const [note, setNote] = useState<FormNote>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      await run();
    } catch (error) {
      setNote({ text: error instanceof OwnerApiError ? error.message : t("failed"), error: true });
    } finally {
      setBusy(false);
    }
  };
  const codeNotes = {
    onError: (text: string) => setNote({ text, error: true }),
    onSent: () => setNote({ text: t("codeSent"), error: false }),
  };
  return { submit, busy, note, codeNotes };
}

/** A mainland mobile number: digits only, eleven of them. */
export function PhoneField({
  t,
  id,
  value,
  onChange,
  autoComplete,
}: {
  t: Translate;
  id: string;
  value: string;
  onChange: (phone: string) => void;
  autoComplete?: string;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{t("phone")}</label>
      <input
        id={id}
        data-testid={id}
        type="tel"
        inputMode="numeric"
        autoComplete={autoComplete}
        maxLength={11}
        value={value}
        onChange={(e) => onChange(e.target.value.replace(/\D/g, ""))}
      />
    </div>
  );
}

export function FormMessage({ note }: { note: FormNote }) {
  if (!note) return null;
  return (
    <p className={note.error ? "message error" : "message"} role={note.error ? "alert" : "status"}>
      {note.text}
    </p>
  );
}

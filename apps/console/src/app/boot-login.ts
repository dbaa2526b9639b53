/**
 * The login form that index.html shows before the console has loaded (boot-login-plugin.ts): what
 * the visitor did in it is handed to the console's login page, which then removes it.
 */

const BOOT_ID = "ml-boot-login";

export interface BootLogin {
  values: { tenantId?: string; username: string; password: string };
  /** The field that had the focus (`tenantId`, `username`, `password`), if any. */
  focused?: string;
  /**
   * The caret or selection in the focused field: a quick operator's (or a password manager's)
   * select-then-type may be cut in two by the takeover, and the second half must land on the same
   * characters in the console's field.
   */
  selection?: { start: number; end: number; direction: "forward" | "backward" | "none" };
  /** Whether the visitor already pressed Enter or the button: the console signs in at once. */
  submitted: boolean;
}

function bootElement(): HTMLElement | null {
  const element = typeof document === "undefined" ? null : document.getElementById(BOOT_ID);
  return element && !element.hidden ? element : null;
}

/** The boot form's state, or null when it is not on screen. */
export function readBootLogin(): BootLogin | null {
  const boot = bootElement();
  if (!boot) return null;
  const field = (name: string) => boot.querySelector<HTMLInputElement>(`input[name="${name}"]`);
  const tenant = field("tenantId");
  const active = boot.contains(document.activeElement) ? (document.activeElement as HTMLInputElement) : null;
  const focused = active?.name || undefined;
  const selection =
    active && active.selectionStart !== null && active.selectionEnd !== null
      ? {
          start: active.selectionStart,
          end: active.selectionEnd,
          direction: active.selectionDirection ?? "none",
        }
      : undefined;
  return {
    values: {
      ...(tenant ? { tenantId: tenant.value } : {}),
      username: field("username")?.value ?? "",
      password: field("password")?.value ?? "",
    },
    ...(focused ? { focused } : {}),
    ...(focused && selection ? { selection } : {}),
    submitted: boot.dataset.submitted === "1",
  };
}

/**
 * Gives the console's field of the same name (`login-<name>`) the focus the boot form's had, with
 * its caret or selection on the same characters. The field is given the boot field's text first
 * (the console renders the same text next, so it is left alone): a selection set on an older text
 * would be moved to the end when the text changes.
 */
export function moveBootFocus(boot: BootLogin): void {
  if (!boot.focused) return;
  const field = document.getElementById(`login-${boot.focused}`);
  if (!(field instanceof HTMLInputElement)) return;
  const text = boot.values[boot.focused as keyof BootLogin["values"]];
  if (text !== undefined && field.value !== text) field.value = text;
  field.focus();
  const { selection } = boot;
  if (selection) field.setSelectionRange(selection.start, selection.end, selection.direction);
}

/** Removes the boot form (if any) and shows the console's root again. */
export function dropBootLogin(): void {
  if (typeof document === "undefined") return;
  document.getElementById(BOOT_ID)?.remove();
  document.documentElement.classList.remove("ml-booting");
}

/** Resolves once the boot form's first frame is painted (at once when it is not on screen). */
export function bootFormPainted(): Promise<void> {
  if (!bootElement()) return Promise.resolve();
  // A frame callback runs before that frame's paint; a task queued from it runs after it.
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}

/**
 * The login form that index.html shows before the console has loaded (boot-login-plugin.ts): what
 * the visitor did in it is handed to the console's login page, which then removes it.
 */

const BOOT_ID = "ml-boot-login";

export interface BootLogin {
  values: { tenantId?: string; username: string; password: string };
  /** The field that had the focus (`tenantId`, `username`, `password`), if any. */
  focused?: string;
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
  const focused = boot.contains(document.activeElement)
    ? (document.activeElement as HTMLInputElement).name || undefined
    : undefined;
  return {
    values: {
      ...(tenant ? { tenantId: tenant.value } : {}),
      username: field("username")?.value ?? "",
      password: field("password")?.value ?? "",
    },
    ...(focused ? { focused } : {}),
    submitted: boot.dataset.submitted === "1",
  };
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

import type { LoginOptions } from "@meterline/contracts";
import { website } from "@meterline/contracts";
import { useEffect, useRef, useState } from "react";
import { api } from "../../app/api.ts";

/** Shown until the server says, and kept when it cannot: the console defaults of spec §9. */
export const defaultLoginOptions: LoginOptions = {
  captchaMode: website.captchaMode,
  tenantMode: website.tenantMode,
  registrationEnabled: false,
  socialSources: [],
  socialProviders: [],
};

/** A tenant typed into the login form is asked about once the typing pauses. */
const TYPING_PAUSE_MS = 400;

/**
 * What the login page must show (captcha, tenant field, the tenant's third-party providers);
 * undefined while loading. Asked again when the tenant changes.
 */
export function useLoginOptions(tenantId: string): LoginOptions | undefined {
  const [options, setOptions] = useState<LoginOptions>();
  // The first ask goes at once; later ones (the tenant being typed) wait for a pause.
  const asked = useRef(false);
  useEffect(() => {
    let live = true;
    const delay = asked.current ? TYPING_PAUSE_MS : 0;
    asked.current = true;
    const timer = setTimeout(
      () =>
        api.loginOptions(tenantId.trim() || undefined).then(
          (value) => live && setOptions({ ...defaultLoginOptions, ...value }),
          () => live && setOptions((current) => current ?? defaultLoginOptions),
        ),
      delay,
    );
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [tenantId]);
  return options;
}

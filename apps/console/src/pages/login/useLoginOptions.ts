import type { LoginOptions } from "@meterline/contracts";
import { website } from "@meterline/contracts";
import { useEffect, useState } from "react";
import { api } from "../../app/api.ts";

/** Shown until the server says, and kept when it cannot: the console defaults of spec §9. */
export const defaultLoginOptions: LoginOptions = {
  captchaMode: website.captchaMode,
  tenantMode: website.tenantMode,
  registrationEnabled: false,
  socialSources: [],
};

/** What the login page must show (captcha, tenant field); undefined while loading. */
export function useLoginOptions(): LoginOptions | undefined {
  const [options, setOptions] = useState<LoginOptions>();
  useEffect(() => {
    let live = true;
    api.loginOptions().then(
      (value) => live && setOptions({ ...defaultLoginOptions, ...value }),
      () => live && setOptions(defaultLoginOptions),
    );
    return () => {
      live = false;
    };
  }, []);
  return options;
}

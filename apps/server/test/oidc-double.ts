/// <reference path="./oidc-provider.d.ts" />
import { createServer, type Server } from "node:http";
import Provider from "oidc-provider";
import { freePort } from "../../../scripts/free-port.mjs";

export const OIDC_CLIENT = { id: "meterline-console", secret: "a-long-client-secret-for-the-tests-only" };
/** The redirect URI registered at the provider and configured on the tenant's provider row. */
export const OIDC_REDIRECT = "http://127.0.0.1:8080/api/blade-auth/oauth/callback/oidc";

/** People the provider knows: the login name typed at its sign-in form is the subject. */
const person = (sub: string) => ({
  sub,
  name: `Person ${sub}`,
  preferred_username: sub,
  email: `${sub}@example.test`,
  email_verified: true,
  picture: `https://example.test/${sub}.png`,
});

/**
 * A real OpenID Connect server (oidc-provider, OpenID Certified) on a free loopback port, with its
 * development sign-in and consent pages, which the tests fill in over HTTP as a browser would.
 */
export async function startOidcProvider(
  redirectUri = OIDC_REDIRECT,
): Promise<{ issuer: string; close(): Promise<void> }> {
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: OIDC_CLIENT.id,
        client_secret: OIDC_CLIENT.secret,
        redirect_uris: [redirectUri],
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_post",
      },
    ],
    claims: {
      openid: ["sub"],
      profile: ["name", "preferred_username", "picture"],
      email: ["email", "email_verified"],
    },
    cookies: { keys: ["cookie-key-of-the-test-provider"] },
    findAccount: (_ctx: unknown, sub: string) => ({ accountId: sub, claims: () => person(sub) }),
  });
  const server: Server = createServer(provider.callback());
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    issuer,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Plays the browser at the provider: follows its redirects with its cookies, signs in as `login`
 * and consents, until the provider sends the browser back to the redirect URI. Returns that address.
 */
export async function signInAtProvider(authorizeUrl: string, login: string): Promise<URL> {
  const jar = new Map<string, string>();
  const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  const remember = (res: Response) => {
    for (const line of res.headers.getSetCookie()) {
      const [pair = ""] = line.split(";");
      const at = pair.indexOf("=");
      jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
  };
  let url = new URL(authorizeUrl);
  let init: RequestInit = {};
  for (let step = 0; step < 20; step++) {
    const res = await fetch(url, {
      ...init,
      redirect: "manual",
      headers: { ...init.headers, cookie: cookieHeader() },
    });
    remember(res);
    init = {};
    if (res.status >= 300 && res.status < 400) {
      const next = new URL(res.headers.get("location")!, url);
      if (next.href.startsWith(OIDC_REDIRECT)) return next;
      url = next;
      continue;
    }
    const html = await res.text();
    if (res.status !== 200 || !url.pathname.startsWith("/interaction/")) {
      throw new Error(`provider answered ${res.status} at ${url.pathname}: ${html.slice(0, 300)}`);
    }
    const prompt = html.includes('value="login"') ? "login" : "consent";
    const body = new URLSearchParams(prompt === "login" ? { prompt, login, password: "any" } : { prompt });
    init = {
      method: "POST",
      body: body.toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    };
  }
  throw new Error("the provider never sent the browser back");
}

/**
 * The API bases of WeChat Pay doubles this process started for the demo. Only an order placed at
 * one of them gets a link to the double's cashier page (the demo's "pay in the simulated WeChat");
 * a real merchant's API base is never registered, so a real order never carries such a link.
 */
const demoDoubles = new Set<string>();

export function registerDemoDouble(apiBase: string): void {
  demoDoubles.add(apiBase.replace(/\/+$/, ""));
}

export function forgetDemoDouble(apiBase: string): void {
  demoDoubles.delete(apiBase.replace(/\/+$/, ""));
}

/** The demo double whose cashier this server passes on: the one started last (the demo starts one). */
export function demoDouble(): string | undefined {
  return [...demoDoubles].at(-1);
}

/**
 * The cashier page of a Native order's code_url when the merchant's API is a demo double: on this
 * server (`path`, which passes it on), since the double itself listens on 127.0.0.1 only.
 */
export function demoPayUrl(apiBase: string, codeUrl: string, path: string): string | undefined {
  const base = apiBase.replace(/\/+$/, "");
  const pr = /[?&]pr=([0-9a-f]+)/.exec(codeUrl)?.[1];
  return demoDoubles.has(base) && pr ? `${path}?pr=${pr}` : undefined;
}

import type { FastifyInstance, FastifyReply } from "fastify";
import { badRequest, notFound } from "../../contract/errors.ts";
import { optionalString, readParams } from "../../contract/params.ts";
import { OWNER_BASE } from "./owner-sign-in.routes.ts";

/** Where this server passes on the demo Alipay double's cashier (see ownerAlipayDemoRoutes). */
export const DEMO_ALIPAY_PATH = `${OWNER_BASE}/demo/alipay`;

/**
 * The bases of Alipay doubles this process started for the demo. Only an order whose gateway is
 * one of them is sent through this server's pass-on; a real gateway is never registered, so a real
 * order always goes to Alipay itself.
 */
const demoGateways = new Set<string>();

export function registerDemoAlipay(base: string): void {
  demoGateways.add(base.replace(/\/+$/, ""));
}

export function forgetDemoAlipay(base: string): void {
  demoGateways.delete(base.replace(/\/+$/, ""));
}

/** The registered double an address points into, when it does. */
function doubleOf(address: string): string | undefined {
  return [...demoGateways].find((base) => address.startsWith(`${base}/`));
}

/**
 * A wap pay URL or QR code of a demo double, rewritten to this server's pass-on (the double listens
 * on 127.0.0.1 only, and the owner's phone is another machine); anything else is answered as is.
 */
export function demoAlipayLink(address: string): string {
  if (!address || !doubleOf(address)) return address;
  const url = new URL(address);
  if (url.pathname === "/gateway.do") return `${DEMO_ALIPAY_PATH}/wap${url.search}`;
  if (url.pathname === "/cashier/pay") return `${DEMO_ALIPAY_PATH}/pay${url.search}`;
  return address;
}

/** The demo's double (the one started last); without one the pass-on answers 404. */
const demoBase = () => [...demoGateways].at(-1);

/**
 * The demo's simulated Alipay cashier, passed on from the double: its wap page (with its form sent
 * back here) and its pay button, whose redirect back to the owner page is passed on as well.
 */
export async function ownerAlipayDemoRoutes(app: FastifyInstance) {
  const config = { public: true } as const;
  const tags = ["ownerPage"];
  const passOn = async (reply: FastifyReply, res: Response, rewrite = (html: string) => html) => {
    const location = res.headers.get("location");
    if (res.status === 302 && location) return reply.redirect(location);
    return reply
      .code(res.status)
      .type(res.headers.get("content-type") ?? "text/html; charset=utf-8")
      .send(rewrite(await res.text()));
  };

  app.get(
    `${DEMO_ALIPAY_PATH}/wap`,
    { config, schema: { tags, summary: "Demo only: the simulated Alipay's wap cashier page" } },
    async (request, reply) => {
      const base = demoBase();
      if (!base) throw notFound();
      const query = request.url.slice(request.url.indexOf("?") + 1);
      if (!request.url.includes("?") || !query) throw badRequest("method: 缺少支付参数");
      const res = await fetch(`${base}/gateway.do?${query}`);
      return passOn(reply, res, (html) =>
        html.replaceAll('action="/cashier/pay?', `action="${DEMO_ALIPAY_PATH}/pay?`),
      );
    },
  );

  const pay = async (params: Record<string, unknown>, reply: FastifyReply) => {
    const base = demoBase();
    if (!base) throw notFound();
    const token = optionalString(params, "t") ?? "";
    if (!/^[\w-]{8,200}$/.test(token)) throw badRequest("t: 交易不存在");
    const res = await fetch(`${base}/cashier/pay?t=${token}`, { method: "POST", redirect: "manual" });
    return passOn(reply, res);
  };
  app.get(
    `${DEMO_ALIPAY_PATH}/pay`,
    { config, schema: { tags, summary: "Demo only: pay a QR order in the simulated Alipay" } },
    async (request, reply) => pay(readParams(request), reply),
  );
  app.post(
    `${DEMO_ALIPAY_PATH}/pay`,
    { config, schema: { tags, summary: "Demo only: pay a wap order in the simulated Alipay" } },
    async (request, reply) => pay(readParams(request), reply),
  );
}

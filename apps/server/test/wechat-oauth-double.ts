import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local stand-in for WeChat's web-page authorization of an official account (the owner page
 * inside WeChat's browser), in its documented shapes:
 * - GET /connect/oauth2/authorize?appid&redirect_uri&response_type=code&scope&state#wechat_redirect:
 *   the person is in WeChat, so it sends them straight back with a single-use code (snsapi_base
 *   asks nothing of them);
 * - GET /sns/oauth2/access_token?appid&secret&code&grant_type=authorization_code: the openid and a
 *   token, or errcode/errmsg with HTTP 200 and text/plain, as WeChat answers.
 */
export async function startWechatOauthDouble(app: { appid: string; secret: string }) {
  const codes = new Map<string, string>();
  let openid = "oH5_owner_first_0000000000000";
  const authorizations: URLSearchParams[] = [];
  let tokenCalls = 0;

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://double");
    const q = url.searchParams;
    const json = (body: unknown) => {
      res.writeHead(200, { "content-type": "text/plain" });
      res.end(JSON.stringify(body));
    };
    if (url.pathname === "/connect/oauth2/authorize") {
      authorizations.push(q);
      if (q.get("appid") !== app.appid) return json({ errcode: 40013, errmsg: "invalid appid" });
      const scope = q.get("scope");
      if (scope !== "snsapi_base" && scope !== "snsapi_userinfo")
        return json({ errcode: 10005, errmsg: "insufficient scope" });
      if (q.get("response_type") !== "code") return json({ errcode: 40001, errmsg: "invalid response_type" });
      const code = randomBytes(16).toString("hex");
      codes.set(code, openid);
      const back = new URL(q.get("redirect_uri") ?? "");
      back.searchParams.set("code", code);
      back.searchParams.set("state", q.get("state") ?? "");
      res.writeHead(302, { location: back.href });
      return res.end();
    }
    if (url.pathname === "/sns/oauth2/access_token") {
      tokenCalls += 1;
      const code = q.get("code") ?? "";
      const person = codes.get(code);
      codes.delete(code);
      if (q.get("appid") !== app.appid || q.get("secret") !== app.secret)
        return json({ errcode: 40125, errmsg: "invalid appsecret" });
      if (q.get("grant_type") !== "authorization_code")
        return json({ errcode: 40002, errmsg: "invalid grant_type" });
      if (!person) return json({ errcode: 40029, errmsg: "invalid code" });
      return json({
        access_token: randomBytes(16).toString("hex"),
        expires_in: 7200,
        refresh_token: randomBytes(16).toString("hex"),
        openid: person,
        scope: "snsapi_base",
      });
    }
    json({ errcode: 404, errmsg: "not found" });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    /** The person the next authorization vouches for. */
    as(next: string) {
      openid = next;
    },
    authorizations,
    tokenCalls: () => tokenCalls,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

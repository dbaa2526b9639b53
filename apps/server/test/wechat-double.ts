import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import { freePort } from "../../../scripts/free-port.mjs";

export const WECHAT_APP = { appid: "wx520c15f417810387", secret: "wechat-app-secret-of-the-tests" };

interface WechatUser {
  openid: string;
  nickname: string;
  headimgurl: string;
}

/**
 * A local stand-in for WeChat's website sign-in in its documented shapes: /connect/qrconnect
 * (the person scanned and agreed), GET /sns/oauth2/access_token (appid, secret and code in the
 * query; codes single use; errors as errcode/errmsg with HTTP 200) and /sns/userinfo.
 */
export async function startWechatDouble() {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const codes = new Map<string, WechatUser>();
  const tokens = new Map<string, WechatUser>();
  let current: WechatUser = { openid: "o6_bmjrPTlm6_2sgVt7hMZOPfL2M", nickname: "微信用户", headimgurl: "" };
  let lastAuthorize = "";

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", base);
    const json = (body: unknown) => {
      // WeChat answers text/plain whatever the content.
      res.writeHead(200, { "content-type": "text/plain" });
      res.end(JSON.stringify(body));
    };
    const q = url.searchParams;
    if (url.pathname === "/connect/qrconnect") {
      lastAuthorize = url.search;
      if (q.get("appid") !== WECHAT_APP.appid) return json({ errcode: 40013, errmsg: "invalid appid" });
      const code = randomBytes(8).toString("hex");
      codes.set(code, current);
      const back = new URL(q.get("redirect_uri")!);
      back.searchParams.set("code", code);
      back.searchParams.set("state", q.get("state") ?? "");
      res.writeHead(302, { location: back.href });
      return res.end();
    }
    if (url.pathname === "/sns/oauth2/access_token") {
      const user = codes.get(q.get("code") ?? "");
      codes.delete(q.get("code") ?? "");
      if (!user || q.get("appid") !== WECHAT_APP.appid || q.get("secret") !== WECHAT_APP.secret) {
        return json({ errcode: 40029, errmsg: "invalid code" });
      }
      const token = randomBytes(12).toString("hex");
      tokens.set(token, user);
      return json({
        access_token: token,
        expires_in: 7200,
        refresh_token: randomBytes(12).toString("hex"),
        openid: user.openid,
        scope: "snsapi_login",
      });
    }
    if (url.pathname === "/sns/userinfo") {
      const user = tokens.get(q.get("access_token") ?? "");
      if (!user || user.openid !== q.get("openid"))
        return json({ errcode: 40001, errmsg: "invalid credential" });
      return json({ ...user, sex: 0, province: "", city: "", country: "", privilege: [] });
    }
    json({ errcode: 404, errmsg: "not found" });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    base,
    as(user: WechatUser) {
      current = user;
    },
    /** The query of the last authorization request, as WeChat saw it. */
    lastAuthorize: () => lastAuthorize,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { TokenResponse } from "@meterline/contracts";
import { addUser, provisionTenant } from "./fixtures.ts";
import { GITHUB_CLIENT, startGithubDouble } from "./github-double.ts";
import { BASIC, startTestServer, type TestServer } from "./helpers.ts";
import { OIDC_CLIENT, OIDC_REDIRECT, signInAtProvider, startOidcProvider } from "./oidc-double.ts";
import { startWechatDouble, WECHAT_APP } from "./wechat-double.ts";

/** A browser's sign-in up to the console's return: what the console then sends to oauth/token. */
interface Returned {
  code: string;
  state: string;
  tenantId: string;
  cookie: string;
}

describe("third-party sign-in through a real OpenID Connect provider", () => {
  let server: TestServer;
  let oidc: Awaited<ReturnType<typeof startOidcProvider>>;
  let tenant: Awaited<ReturnType<typeof provisionTenant>>;
  let other: Awaited<ReturnType<typeof provisionTenant>>;
  let providerId: string;

  const submitProvider = (token: string, fields: Record<string, unknown>) =>
    server.call("POST", "/api/blade-system/social-provider/submit", token, {
      source: "oidc",
      displayName: "公司统一身份",
      clientId: OIDC_CLIENT.id,
      clientSecret: OIDC_CLIENT.secret,
      issuer: oidc.issuer,
      scopes: "openid profile email",
      redirectUri: OIDC_REDIRECT,
      enabled: 1,
      joinByEmail: 0,
      ...fields,
    });

  /** Clicks the provider's button, signs in at the provider and follows it back to the console. */
  async function signIn(login: string, tenantId = tenant.tenantId): Promise<Returned> {
    const render = await server.inject({
      method: "GET",
      url: `/api/blade-auth/oauth/render/oidc?tenantId=${tenantId}`,
    });
    assert.equal(render.statusCode, 302, render.body);
    const location = new URL(String(render.headers.location));
    assert.equal(location.origin, oidc.issuer);
    assert.equal(location.searchParams.get("code_challenge_method"), "S256");
    assert.ok(location.searchParams.get("nonce"));
    // The redirect URI is the configured one, whatever the request said.
    assert.equal(location.searchParams.get("redirect_uri"), OIDC_REDIRECT);
    const setCookie = String(render.headers["set-cookie"]);
    assert.match(setCookie, /HttpOnly/);
    assert.match(setCookie, /SameSite=Lax/);
    const back = await signInAtProvider(location.href, login);
    const callback = await server.inject({
      method: "GET",
      url: `/api/blade-auth/oauth/callback/oidc${back.search}`,
    });
    assert.equal(callback.statusCode, 302);
    const toConsole = new URL(String(callback.headers.location), "http://console");
    assert.equal(toConsole.pathname, "/login");
    return {
      code: toConsole.searchParams.get("code")!,
      state: toConsole.searchParams.get("state")!,
      tenantId: toConsole.searchParams.get("tenantId")!,
      cookie: setCookie.split(";")[0]!,
    };
  }

  const socialToken = (r: Returned, overrides: { tenantId?: string; cookie?: string } = {}) =>
    server.inject({
      method: "POST",
      url: "/api/blade-auth/oauth/token",
      query: {
        grant_type: "social",
        source: "oidc",
        code: r.code,
        state: r.state,
        tenantId: overrides.tenantId ?? r.tenantId,
        scope: "all",
      },
      headers: {
        authorization: BASIC,
        "tenant-id": overrides.tenantId ?? r.tenantId,
        cookie: overrides.cookie ?? r.cookie,
      },
    });

  const register = (guest: TokenResponse, account: string, name = "新同事") =>
    server.inject({
      method: "POST",
      url: "/api/blade-user/register-guest",
      query: {
        tenantId: guest.tenant_id,
        name,
        account,
        password: "pw-of-the-guest",
        oauthId: guest.oauth_id,
      },
      headers: { authorization: BASIC, "blade-auth": `bearer ${guest.access_token}` },
    });

  const applications = async (token: string) =>
    (await server.call("GET", "/api/blade-user/registration/page?current=1&size=50", token)).json().data
      .records as {
      id: string;
      account: string;
      status: number;
      reason: string;
      source: string;
      providerUsername: string;
      providerName: string;
      email: string;
      avatar: string;
    }[];

  before(async () => {
    server = await startTestServer();
    oidc = await startOidcProvider();
    const admin = (await server.login()).access_token;
    tenant = await provisionTenant(server, admin, "社区一");
    other = await provisionTenant(server, admin, "社区二");
    const created = await submitProvider(tenant.token, {});
    assert.equal(created.statusCode, 200, created.body);
    providerId = created.json().data.id;
  });
  after(async () => {
    await server?.close();
    await oidc?.close();
  });

  test("a tenant's administrator keeps the provider; the secret is masked and the login page lists it", async () => {
    const detail = await server.call(
      "GET",
      `/api/blade-system/social-provider/detail?id=${providerId}`,
      tenant.token,
    );
    assert.equal(detail.statusCode, 200, detail.body);
    assert.notEqual(detail.json().data.clientSecret, OIDC_CLIENT.secret);
    assert.match(detail.json().data.clientSecret, /\*/);
    const [stored] = await server.db.query<{ client_secret: string }>(
      "select client_secret from blade_social_provider where id = $1",
      [providerId],
    );
    assert.ok(!stored!.client_secret.includes(OIDC_CLIENT.secret), "stored encrypted");
    const options = await server.inject({
      method: "GET",
      url: `/api/blade-auth/oauth/login-options?tenantId=${tenant.tenantId}`,
    });
    assert.deepEqual(options.json().data.socialSources, ["oidc"]);
    assert.equal(options.json().data.socialProviders[0].displayName, "公司统一身份");
    const elsewhere = await server.inject({
      method: "GET",
      url: `/api/blade-auth/oauth/login-options?tenantId=${other.tenantId}`,
    });
    assert.deepEqual(elsewhere.json().data.socialSources, []);
    // Another tenant's administrator neither sees nor edits it.
    const foreign = await server.call(
      "GET",
      `/api/blade-system/social-provider/detail?id=${providerId}`,
      other.token,
    );
    assert.notEqual(foreign.json().data?.id, providerId);
  });

  test("an unknown person gets a guest token, applies, is approved, and then signs straight in", async () => {
    const first = await socialToken(await signIn("alice"));
    assert.equal(first.statusCode, 200, first.body);
    const guest = first.json() as TokenResponse;
    assert.equal(guest.user_id, "");
    assert.equal(guest.role_name, "guest");
    assert.equal(guest.account, "alice");
    assert.ok(guest.oauth_id);
    assert.equal(guest.refresh_token, "");
    // A guest token opens nothing but the registration.
    const menu = await server.call("GET", "/api/blade-system/menu/routes", guest.access_token);
    assert.equal(menu.statusCode, 401);

    const applied = await register(guest, "alice.w");
    assert.equal(applied.statusCode, 200, applied.body);
    assert.equal(applied.json().msg, "注册申请已提交,请耐心等待管理员审核");
    assert.equal((await register(guest, "alice.x")).json().msg, "第三方登陆信息错误!");

    const [row] = (await applications(tenant.token)).filter((a) => a.account === "alice.w");
    assert.ok(row);
    assert.equal(row.status, 0);
    assert.equal(row.source, "oidc");
    assert.equal(row.providerUsername, "alice");
    assert.equal(row.providerName, "Person alice");
    assert.equal(row.email, "alice@example.test");
    assert.equal(row.avatar, "https://example.test/alice.png");
    // Another tenant's administrator sees none of it and cannot approve it.
    assert.equal((await applications(other.token)).length, 0);
    const foreign = await server.call(
      "POST",
      `/api/blade-user/registration/approve?id=${row.id}&roleId=${other.roleId}&deptId=${other.deptId}`,
      other.token,
    );
    assert.equal(foreign.statusCode, 404);

    const approved = await server.call(
      "POST",
      `/api/blade-user/registration/approve?id=${row.id}&roleId=${tenant.roleId}&deptId=${tenant.deptId}`,
      tenant.token,
    );
    assert.equal(approved.statusCode, 200, approved.body);
    const twice = await server.call(
      "POST",
      `/api/blade-user/registration/approve?id=${row.id}&roleId=${tenant.roleId}&deptId=${tenant.deptId}`,
      tenant.token,
    );
    assert.equal(twice.statusCode, 404);

    const again = await socialToken(await signIn("alice"));
    assert.equal(again.statusCode, 200, again.body);
    const signedIn = again.json() as TokenResponse;
    assert.notEqual(signedIn.user_id, "");
    assert.equal(signedIn.account, "alice.w");
    assert.equal(signedIn.tenant_id, tenant.tenantId);
    assert.equal(signedIn.oauth_id, guest.oauth_id);
    assert.ok(signedIn.refresh_token);
    const info = await server.call("GET", "/api/blade-auth/oauth/user-info", signedIn.access_token);
    assert.equal(info.json().data.account, "alice.w");
    // The password chosen at registration works too.
    await server.login("alice.w", "pw-of-the-guest", tenant.tenantId);
  });

  test("a rejected application keeps its reason and the person stays a guest", async () => {
    const guest = (await socialToken(await signIn("bob"))).json() as TokenResponse;
    assert.equal((await register(guest, "bob")).statusCode, 200);
    const [row] = (await applications(tenant.token)).filter((a) => a.account === "bob");
    const noReason = await server.call(
      "POST",
      `/api/blade-user/registration/reject?id=${row!.id}`,
      tenant.token,
    );
    assert.equal(noReason.statusCode, 400);
    assert.match(noReason.json().msg, /^reason/);
    const rejected = await server.call(
      "POST",
      `/api/blade-user/registration/reject?id=${row!.id}&reason=${encodeURIComponent("不是本小区员工")}`,
      tenant.token,
    );
    assert.equal(rejected.statusCode, 200, rejected.body);
    const [after] = (await applications(tenant.token)).filter((a) => a.id === row!.id);
    assert.equal(after!.status, 2);
    assert.equal(after!.reason, "不是本小区员工");
    const later = (await socialToken(await signIn("bob"))).json() as TokenResponse;
    assert.equal(later.user_id, "");
  });

  test("a state answers once, only in the browser that started it", async () => {
    const returned = await signIn("carol");
    const otherBrowser = await socialToken(returned, { cookie: "meterline_social=someone-elses" });
    assert.equal(otherBrowser.statusCode, 400);
    assert.equal(otherBrowser.json().error, "invalid_grant");
    // The failed try spent the state: even the right browser cannot use it now.
    const replay = await socialToken(returned);
    assert.equal(replay.statusCode, 400);
    assert.equal(replay.json().error_description, "第三方登录已失效,请重新登录");

    const fresh = await signIn("carol");
    assert.equal((await socialToken(fresh)).statusCode, 200);
    const replayed = await socialToken(fresh);
    assert.equal(replayed.statusCode, 400);
    assert.equal(replayed.json().error, "invalid_grant");
  });

  test("a sign-in started for one tenant is refused for another", async () => {
    const returned = await signIn("dave");
    const wrong = await socialToken(returned, { tenantId: other.tenantId });
    assert.equal(wrong.statusCode, 400);
    assert.equal(wrong.json().error_description, "第三方登录与租户不符,请重新登录");
  });

  test("an identity of one tenant cannot register in another", async () => {
    const guest = (await socialToken(await signIn("erin"))).json() as TokenResponse;
    const res = await server.inject({
      method: "POST",
      url: "/api/blade-user/register-guest",
      query: {
        tenantId: other.tenantId,
        name: "Erin",
        account: "erin",
        password: "pw",
        oauthId: guest.oauth_id,
      },
      headers: { "blade-auth": `bearer ${guest.access_token}` },
    });
    assert.equal(res.statusCode, 400);
    assert.equal(res.json().msg, "第三方登陆信息错误!");
  });

  test("disabling a provider refuses at once, even sign-ins already under way", async () => {
    const underway = await signIn("frank");
    const disabled = await submitProvider(tenant.token, { id: providerId, enabled: 0 });
    assert.equal(disabled.statusCode, 200, disabled.body);
    const finish = await socialToken(underway);
    assert.equal(finish.statusCode, 400);
    assert.equal(finish.json().error_description, "该第三方登录已停用,请使用账号密码登录");
    const render = await server.inject({
      method: "GET",
      url: `/api/blade-auth/oauth/render/oidc?tenantId=${tenant.tenantId}`,
    });
    assert.equal(render.statusCode, 302);
    assert.match(String(render.headers.location), /^\/login\?socialError=/);
    const options = await server.inject({
      method: "GET",
      url: `/api/blade-auth/oauth/login-options?tenantId=${tenant.tenantId}`,
    });
    assert.deepEqual(options.json().data.socialSources, []);
    await submitProvider(tenant.token, { id: providerId, enabled: 1 });
  });

  test("a verified e-mail joins an existing account only where the tenant allows it", async () => {
    await addUser(server.db, {
      tenantId: tenant.tenantId,
      account: "gina",
      password: "pw-of-gina",
      roleIds: [tenant.roleId],
    });
    await server.db.query(
      "update sys_user set email = 'gina@example.test' where tenant_id = $1 and account = 'gina'",
      [tenant.tenantId],
    );
    const notAllowed = (await socialToken(await signIn("gina"))).json() as TokenResponse;
    assert.equal(notAllowed.user_id, "");
    await submitProvider(tenant.token, { id: providerId, joinByEmail: 1 });
    const joined = (await socialToken(await signIn("gina"))).json() as TokenResponse;
    assert.equal(joined.account, "gina");
    assert.notEqual(joined.user_id, "");
  });

  test("a signed-in user links another account, signs in with it, and never unlinks the last way in", async () => {
    const start = await server.call("POST", "/api/blade-auth/oauth/link-start?source=oidc", tenant.token);
    assert.equal(start.statusCode, 200, start.body);
    const cookie = String(start.headers["set-cookie"]).split(";")[0]!;
    const back = await signInAtProvider(start.json().data.url, "henry");
    const callback = await server.inject({
      method: "GET",
      url: `/api/blade-auth/oauth/callback/oidc${back.search}`,
    });
    const toProfile = new URL(String(callback.headers.location), "http://console");
    assert.equal(toProfile.pathname, "/info/index");
    const q = toProfile.searchParams;
    const link = (token: string, withCookie = cookie) =>
      server.inject({
        method: "POST",
        url: `/api/blade-auth/oauth/link?source=oidc&code=${q.get("code")}&state=${q.get("state")}`,
        headers: { authorization: BASIC, "blade-auth": `bearer ${token}`, cookie: withCookie },
      });
    // A link state never signs anyone in.
    const asSignIn = await socialToken({
      code: q.get("code")!,
      state: q.get("state")!,
      tenantId: tenant.tenantId,
      cookie,
    });
    assert.equal(asSignIn.statusCode, 400);

    const again = await server.call("POST", "/api/blade-auth/oauth/link-start?source=oidc", tenant.token);
    const cookie2 = String(again.headers["set-cookie"]).split(";")[0]!;
    const back2 = new URL((await signInAtProvider(again.json().data.url, "henry")).href);
    q.set("code", back2.searchParams.get("code")!);
    q.set("state", back2.searchParams.get("state")!);
    const linked = await link(tenant.token, cookie2);
    assert.equal(linked.statusCode, 200, linked.body);
    const list = (await server.call("GET", "/api/blade-auth/oauth/linked", tenant.token)).json().data;
    assert.deepEqual(
      list.map((a: { source: string; username: string }) => `${a.source}:${a.username}`),
      ["oidc:henry"],
    );
    const henry = (await socialToken(await signIn("henry"))).json() as TokenResponse;
    assert.equal(henry.account, "admin");

    // Without a password the linked account is the only way in: it stays.
    await server.db.query("update sys_user set password = '' where tenant_id = $1 and account = 'admin'", [
      tenant.tenantId,
    ]);
    const unlink = await server.call("POST", `/api/blade-auth/oauth/unlink?id=${list[0].id}`, tenant.token);
    assert.equal(unlink.statusCode, 400);
    assert.equal(unlink.json().msg, "这是最后一种登录方式,不能解绑");
    // Someone else's account is not the caller's to unlink.
    const alien = await server.call("POST", `/api/blade-auth/oauth/unlink?id=${list[0].id}`, other.token);
    assert.equal(alien.statusCode, 400);
  });

  test("applications are throttled per address", async () => {
    const [{ n } = { n: "0" }] = await server.db.query<{ n: string }>(
      "select count(*) as n from sys_user_registration where address = '127.0.0.1'",
    );
    const answers: number[] = [];
    for (let i = Number(n); i <= 5; i++) {
      const guest = (await socialToken(await signIn(`many${i}`))).json() as TokenResponse;
      answers.push((await register(guest, `many${i}`)).statusCode);
    }
    // Five an hour from one address; the sixth waits.
    assert.deepEqual(answers, [...answers.slice(0, -1).map(() => 200), 429]);
  });
});

describe("third-party sign-in through GitHub's OAuth endpoints (local double)", () => {
  let server: TestServer;
  let github: Awaited<ReturnType<typeof startGithubDouble>>;
  let tenant: Awaited<ReturnType<typeof provisionTenant>>;
  const redirect = "https://console.example.test/api/blade-auth/oauth/callback/github";

  before(async () => {
    server = await startTestServer();
    github = await startGithubDouble();
    const admin = (await server.login()).access_token;
    tenant = await provisionTenant(server, admin, "社区三");
    const created = await server.call("POST", "/api/blade-system/social-provider/submit", tenant.token, {
      source: "github",
      displayName: "GitHub",
      clientId: GITHUB_CLIENT.id,
      clientSecret: GITHUB_CLIENT.secret,
      issuer: github.base,
      scopes: "",
      redirectUri: redirect,
      enabled: 1,
      joinByEmail: 1,
    });
    assert.equal(created.statusCode, 200, created.body);
  });
  after(async () => {
    await server?.close();
    await github?.close();
  });

  async function signIn(): Promise<TokenResponse & { error?: string }> {
    const render = await server.inject({
      method: "GET",
      url: `/api/blade-auth/oauth/render/github?tenantId=${tenant.tenantId}`,
    });
    assert.equal(render.statusCode, 302, render.body);
    const authorize = new URL(String(render.headers.location));
    assert.equal(authorize.pathname, "/login/oauth/authorize");
    assert.equal(authorize.searchParams.get("redirect_uri"), redirect);
    const back = await fetch(authorize, { redirect: "manual" });
    const returned = new URL(back.headers.get("location")!);
    const cookie = String(render.headers["set-cookie"]).split(";")[0]!;
    const res = await server.inject({
      method: "POST",
      url: "/api/blade-auth/oauth/token",
      query: {
        grant_type: "social",
        source: "github",
        code: returned.searchParams.get("code")!,
        state: returned.searchParams.get("state")!,
        tenantId: tenant.tenantId,
      },
      headers: { authorization: BASIC, "tenant-id": tenant.tenantId, cookie },
    });
    return res.json();
  }

  test("an unknown GitHub user registers, is approved, and signs in; an unverified e-mail never joins", async () => {
    // The tenant allows joining by e-mail, but GitHub's profile e-mail is not asserted verified.
    await server.db.query(
      "update sys_user set email = 'mona@example.test' where tenant_id = $1 and account = 'admin'",
      [tenant.tenantId],
    );
    github.as({
      id: 583231,
      login: "mona",
      name: "Mona Lisa",
      email: "mona@example.test",
      avatar_url: "https://a.test/m.png",
    });
    const guest = await signIn();
    assert.equal(guest.user_id, "");
    assert.equal(guest.account, "mona");
    const applied = await server.inject({
      method: "POST",
      url: "/api/blade-user/register-guest",
      query: {
        tenantId: tenant.tenantId,
        name: "Mona",
        account: "mona",
        password: "pw",
        oauthId: guest.oauth_id,
      },
      headers: { "blade-auth": `bearer ${guest.access_token}` },
    });
    assert.equal(applied.statusCode, 200, applied.body);
    const list = (await server.call("GET", "/api/blade-user/registration/page?status=0", tenant.token)).json()
      .data;
    assert.equal(list.records[0].source, "github");
    assert.equal(list.records[0].providerName, "Mona Lisa");
    const approved = await server.call(
      "POST",
      `/api/blade-user/registration/approve?id=${list.records[0].id}&roleId=${tenant.roleId}&deptId=${tenant.deptId}`,
      tenant.token,
    );
    assert.equal(approved.statusCode, 200, approved.body);
    const signedIn = await signIn();
    assert.equal(signedIn.account, "mona");
    assert.notEqual(signedIn.user_id, "");
  });
});

describe("third-party sign-in through WeChat's website sign-in (local double)", () => {
  let server: TestServer;
  let wechat: Awaited<ReturnType<typeof startWechatDouble>>;
  let tenant: Awaited<ReturnType<typeof provisionTenant>>;
  const redirect = "https://console.example.test/api/blade-auth/oauth/callback/wechat_open";

  before(async () => {
    server = await startTestServer();
    wechat = await startWechatDouble();
    tenant = await provisionTenant(server, (await server.login()).access_token, "社区四");
    const created = await server.call("POST", "/api/blade-system/social-provider/submit", tenant.token, {
      source: "wechat_open",
      displayName: "微信",
      clientId: WECHAT_APP.appid,
      clientSecret: WECHAT_APP.secret,
      issuer: wechat.base,
      scopes: "",
      redirectUri: redirect,
      enabled: 1,
      joinByEmail: 0,
    });
    assert.equal(created.statusCode, 200, created.body);
  });
  after(async () => {
    await server?.close();
    await wechat?.close();
  });

  test("WeChat's dialect: appid in order with its fragment, the code exchanged once, the person by openid", async () => {
    wechat.as({ openid: "oWx-person-1", nickname: "小明", headimgurl: "https://wx.test/h.png" });
    const render = await server.inject({
      method: "GET",
      url: `/api/blade-auth/oauth/render/wechat_open?tenantId=${tenant.tenantId}`,
    });
    assert.equal(render.statusCode, 302, render.body);
    const authorize = String(render.headers.location);
    assert.match(
      authorize,
      /\/connect\/qrconnect\?appid=wx520c15f417810387&redirect_uri=[^&]+&response_type=code&scope=snsapi_login&state=[^&#]+#wechat_redirect$/,
    );
    const back = new URL((await fetch(authorize, { redirect: "manual" })).headers.get("location")!);
    const cookie = String(render.headers["set-cookie"]).split(";")[0]!;
    const grant = () =>
      server.inject({
        method: "POST",
        url: "/api/blade-auth/oauth/token",
        query: {
          grant_type: "social",
          source: "wechat_open",
          code: back.searchParams.get("code")!,
          state: back.searchParams.get("state")!,
          tenantId: tenant.tenantId,
        },
        headers: { authorization: BASIC, "tenant-id": tenant.tenantId, cookie },
      });
    const guest = (await grant()).json() as TokenResponse;
    assert.equal(guest.user_id, "");
    assert.equal(guest.account, "小明");
    assert.equal(guest.nick_name, "小明");
    const [identity] = await server.db.query<{ uuid: string; source: string }>(
      "select uuid, source from sys_user_oauth where id = $1",
      [guest.oauth_id],
    );
    assert.deepEqual({ ...identity }, { uuid: "oWx-person-1", source: "wechat_open" });
    assert.equal((await grant()).statusCode, 400);
  });
});

import assert from "node:assert/strict";
import { after, before, describe, mock, test } from "node:test";
import { md5Hex, passwordVerifier } from "../src/modules/auth/password.ts";
import { RESERVATION_SECONDS, SignInLock } from "../src/modules/auth/sign-in-lock.ts";
import { ADDRESS_ALLOWANCE } from "../src/modules/auth/sign-in-throttle.ts";
import { addUser } from "./fixtures.ts";
import { ADMIN_PASSWORD, BASIC, startTestServer, type TestServer } from "./helpers.ts";

const LOCKED = "登录错误次数过多,请稍后再试";
const WRONG = "用户名或密码错误";

describe("sign-in throttling", () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  const signIn = (
    account: string,
    password: string,
    remoteAddress: string,
    headers: Record<string, string> = {},
  ) =>
    server.inject({
      method: "POST",
      url: "/api/blade-auth/oauth/token",
      query: { grant_type: "password", scope: "all", username: account, password: md5Hex(password) },
      headers: { authorization: BASIC, "tenant-id": "000000", ...headers },
      remoteAddress,
    });
  const description = (res: { json(): { error_description?: string } }) => res.json().error_description;

  test("40 wrong passwords at once: exactly the limit of five reach the password check", async () => {
    await addUser(server.db, { tenantId: "000000", account: "rush", password: "Rush-pw-1", roleIds: ["2"] });
    const verify = mock.method(passwordVerifier, "verify");
    try {
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, i) => signIn("rush", `wrong-${i}`, "10.0.1.1")),
      );
      const messages = answers.map(description);
      assert.equal(messages.filter((m) => m === WRONG).length, 5);
      assert.equal(messages.filter((m) => m === LOCKED).length, 35);
      assert.equal(verify.mock.callCount(), 5);
    } finally {
      verify.mock.restore();
    }
    assert.equal(description(await signIn("rush", "Rush-pw-1", "10.0.1.1")), LOCKED);
  });

  test("8 correct sign-ins of one account from one address at once all get a token", async () => {
    await addUser(server.db, {
      tenantId: "000000",
      account: "cashier",
      password: "Cash-pw-1",
      roleIds: ["2"],
    });
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => signIn("cashier", "Cash-pw-1", "10.0.7.1")),
    );
    for (const answer of answers) assert.equal(answer.statusCode, 200, answer.body);
    const tokens = new Set(answers.map((a) => a.json().access_token as string));
    assert.equal(tokens.size, 8);
  });

  test("20 wrong passwords at once: all refused, five checked, and the account stays locked", async () => {
    await addUser(server.db, {
      tenantId: "000000",
      account: "flood",
      password: "Flood-pw-1",
      roleIds: ["2"],
    });
    const verify = mock.method(passwordVerifier, "verify");
    try {
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => signIn("flood", `wrong-${i}`, "10.0.7.2")),
      );
      assert.equal(answers.filter((a) => a.json().access_token).length, 0);
      assert.ok(answers.every((a) => a.statusCode === 400));
      const messages = answers.map(description);
      assert.equal(messages.filter((m) => m === WRONG).length, 5);
      assert.equal(messages.filter((m) => m === LOCKED).length, 15);
      assert.equal(verify.mock.callCount(), 5);
    } finally {
      verify.mock.restore();
    }
    assert.equal(description(await signIn("flood", "Flood-pw-1", "10.0.7.2")), LOCKED);
  });

  test("a sign-in waits for the attempts in flight to settle instead of being refused", async () => {
    await addUser(server.db, {
      tenantId: "000000",
      account: "patient",
      password: "Patient-pw1",
      roleIds: ["2"],
    });
    const lock = new SignInLock(server.db);
    const inFlight = [];
    for (let i = 0; i < 5; i++) inFlight.push((await lock.reserve("000000", "patient", "10.0.7.3", 5))!);
    const answer = signIn("patient", "Patient-pw1", "10.0.7.3");
    await new Promise((resolve) => setTimeout(resolve, 300));
    for (const reservation of inFlight) await lock.succeeded(reservation);
    const settled = await answer;
    assert.equal(settled.statusCode, 200, settled.body);
  });

  test("reservations left by a process that died lapse and do not lock the account", async () => {
    await addUser(server.db, {
      tenantId: "000000",
      account: "orphan",
      password: "Orphan-pw1",
      roleIds: ["2"],
    });
    const lock = new SignInLock(server.db);
    for (let i = 0; i < 5; i++) assert.ok(await lock.reserve("000000", "orphan", "10.0.7.4", 5));
    // Never settled: taken longer ago than a reservation lives.
    await server.db.query(
      `update auth_login_failure
          set pending = (select jsonb_object_agg(key, to_jsonb(value::float8 - $1)) from jsonb_each(pending))
        where tenant_id = '000000' and account = 'orphan'`,
      [RESERVATION_SECONDS + 1],
    );
    const started = Date.now();
    const answer = await signIn("orphan", "Orphan-pw1", "10.0.7.4");
    assert.equal(answer.statusCode, 200, answer.body);
    assert.ok(Date.now() - started < 2_000, "no wait for reservations that lapsed");
  });

  test("an attacker's failures from one address do not lock the administrator out from another", async () => {
    for (let i = 0; i < 8; i++) await signIn("admin", `guess-${i}`, "10.6.6.6");
    assert.equal(description(await signIn("admin", ADMIN_PASSWORD, "10.6.6.6")), LOCKED);
    const fromOffice = await signIn("admin", ADMIN_PASSWORD, "10.0.0.1");
    assert.equal(fromOffice.statusCode, 200, fromOffice.body);
  });

  test("an address with many failures waits, whatever account it tries next", async () => {
    for (let i = 0; i < ADDRESS_ALLOWANCE; i++) {
      assert.equal(description(await signIn(`nobody-${i}`, "x", "10.0.2.2")), WRONG);
    }
    const next = await signIn("admin", ADMIN_PASSWORD, "10.0.2.2");
    assert.equal(next.statusCode, 400);
    assert.equal(description(next), "该地址登录失败次数过多,请稍后再试");
    assert.equal((await signIn("admin", ADMIN_PASSWORD, "10.0.2.3")).statusCode, 200);
  });

  test("an account failing from many addresses needs a captcha, and a solved one lets its owner in", async () => {
    await addUser(server.db, {
      tenantId: "000000",
      account: "target",
      password: "Target-pw1",
      roleIds: ["2"],
    });
    for (const address of ["10.0.3.1", "10.0.3.2"]) {
      for (let i = 0; i < 5; i++) await signIn("target", `guess-${i}`, address);
    }
    const plain = await signIn("target", "Target-pw1", "10.0.3.9");
    assert.equal(plain.statusCode, 400);
    assert.deepEqual(plain.json(), {
      error: "captcha_required",
      error_description: "该账号登录失败次数过多,请输入验证码后再试",
    });
    const captcha = (await server.inject({ method: "GET", url: "/api/blade-auth/oauth/captcha" })).json();
    const [stored] = await server.db.query<{ code: string }>(
      "select code from auth_captcha where captcha_key = $1",
      [captcha.key],
    );
    const solved = await signIn("target", "Target-pw1", "10.0.3.9", {
      "captcha-key": captcha.key,
      "captcha-code": stored!.code,
    });
    assert.equal(solved.statusCode, 200, solved.body);
    // The success lifted the account's wait: no captcha is needed any more.
    assert.equal((await signIn("target", "Target-pw1", "10.0.3.9")).statusCode, 200);
  });

  test("an unknown account takes the same password check as a known one", async () => {
    const verify = mock.method(passwordVerifier, "verify");
    try {
      const unknown = await signIn("ghost", "whatever", "10.0.4.1");
      const known = await signIn("admin", "whatever", "10.0.4.1");
      assert.equal(description(unknown), WRONG);
      assert.deepEqual(unknown.json(), known.json());
      assert.equal(verify.mock.callCount(), 2);
      const [ghostCheck, adminCheck] = verify.mock.calls.map((c) => c.arguments[1] as string);
      assert.match(ghostCheck!, /^scrypt\$16384\$8\$1\$/);
      assert.match(adminCheck!, /^scrypt\$16384\$8\$1\$/);
      assert.notEqual(ghostCheck, adminCheck);
    } finally {
      verify.mock.restore();
    }
  });

  test("an administrator's unlock clears the account's lock from every address", async () => {
    const id = await addUser(server.db, {
      tenantId: "000000",
      account: "forgetful",
      password: "Forget-pw1",
      roleIds: ["2"],
    });
    for (let i = 0; i < 6; i++) await signIn("forgetful", `guess-${i}`, "10.0.5.1");
    assert.equal(description(await signIn("forgetful", "Forget-pw1", "10.0.5.1")), LOCKED);
    const admin = (await server.login()).access_token;
    assert.equal((await server.call("POST", `/api/blade-user/unlock?userIds=${id}`, admin)).statusCode, 200);
    assert.equal((await signIn("forgetful", "Forget-pw1", "10.0.5.1")).statusCode, 200);
  });
});

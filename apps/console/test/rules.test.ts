import assert from "node:assert/strict";
import { test } from "node:test";
import { website } from "@meterline/contracts";
import { guardDecision } from "../src/app/guard-rules.ts";
import { daysUntil, shouldNotifyExpiry } from "../src/app/tenant-expiry.ts";
import { refreshDue } from "../src/app/token-policy.ts";
import { isGuest, registrationProblem } from "../src/components/registration.ts";
import { en } from "../src/i18n/en.ts";
import { zh } from "../src/i18n/zh.ts";
import { screenClassOf } from "../src/layout/useScreenClass.ts";
import { durationParts, greetingKey } from "../src/pages/wel/greeting.ts";

const token = { content: "t", datetime: 0 };
const at = (path: string, extra: Partial<Parameters<typeof guardDecision>[0]> = {}) =>
  guardDecision({ token, isLock: false, path, search: "", needsAuth: true, ...extra });

test("guard: locked users go to /lock, wherever they head", () => {
  assert.deepEqual(at("/wel/index", { isLock: true }), { kind: "redirect", to: "/lock" });
  assert.deepEqual(at("/lock", { isLock: true }), { kind: "render" });
});

test("guard: a logged-in user at /login goes to / (or back where the login interrupted)", () => {
  assert.deepEqual(at("/login"), { kind: "redirect", to: "/" });
  assert.deepEqual(at("/login", { search: "?redirect=%2Fwel%2Fdashboard" }), {
    kind: "redirect",
    to: "/wel/dashboard",
  });
  assert.deepEqual(at("/login", { search: "?redirect=%2F%2Fevil.example" }), { kind: "redirect", to: "/" });
});

test("guard: an empty token logs out locally; no token means /login unless the route is public", () => {
  assert.deepEqual(at("/wel/index", { token: { content: "", datetime: 1 } }), {
    kind: "redirect",
    to: "/login",
    logout: true,
  });
  assert.deepEqual(at("/wel/dashboard", { token: null }), {
    kind: "redirect",
    to: "/login?redirect=%2Fwel%2Fdashboard",
  });
  assert.deepEqual(at("/", { token: null }), { kind: "redirect", to: "/login" });
  assert.deepEqual(at("/404", { token: null, needsAuth: false }), { kind: "render" });
  assert.deepEqual(at("/wel/index"), { kind: "render" });
});

test("the token is refreshed once its age in seconds reaches tokenTime", () => {
  const stored = { content: "t", datetime: 1_000_000 };
  assert.equal(refreshDue(stored, 1_000_000 + (website.tokenTime - 1) * 1000), false);
  assert.equal(refreshDue(stored, 1_000_000 + website.tokenTime * 1000), true);
  assert.equal(refreshDue(null, Date.now()), false);
});

test("registration checks run in the order of spec §5", () => {
  const form = { tenantId: "000000", name: "n", account: "a", password: "p", password2: "p" };
  assert.equal(registrationProblem({ ...form, tenantId: "", account: "" }), "register.tenantRequired");
  assert.equal(registrationProblem({ ...form, account: " ", password: "" }), "register.accountRequired");
  assert.equal(registrationProblem({ ...form, password2: "" }), "register.passwordRequired");
  assert.equal(registrationProblem({ ...form, password2: "q" }), "register.passwordMismatch");
  assert.equal(registrationProblem(form), null);
  assert.equal(zh["register.submitted"], "注册申请已提交，请耐心等待管理员审核");
  assert.equal(zh["register.failed"], "提交失败");
});

test("guests are users without an id or with a negative one", () => {
  assert.equal(isGuest(""), true);
  assert.equal(isGuest(undefined), true);
  assert.equal(isGuest("-1"), true);
  assert.equal(isGuest("382736533311635456"), false);
});

test("the expiry notice starts 30 days before the end and stays after it", () => {
  const now = new Date("2026-01-01T12:00:00").getTime();
  assert.equal(daysUntil("", now), null);
  assert.equal(shouldNotifyExpiry("", now), false);
  assert.equal(shouldNotifyExpiry("2026-03-01 00:00:00", now), false);
  assert.equal(shouldNotifyExpiry("2026-01-20 00:00:00", now), true);
  assert.equal(shouldNotifyExpiry("2025-12-01 00:00:00", now), true);
  assert.equal(daysUntil("2026-01-11 12:00:00", now), 10);
});

test("screen classes switch at 768, 992 and 1200 px", () => {
  assert.deepEqual([767, 768, 991, 992, 1199, 1200].map(screenClassOf), [0, 1, 1, 2, 2, 3]);
});

test("greeting and durations", () => {
  assert.equal(greetingKey(8), "home.morning");
  assert.equal(greetingKey(13), "home.afternoon");
  assert.equal(greetingKey(20), "home.evening");
  assert.deepEqual(durationParts(90_061), { d: 1, h: 1, m: 1, s: 1 });
  assert.deepEqual(durationParts(-5), { d: 0, h: 0, m: 0, s: 0 });
});

test("both catalogues have the same keys and no empty text", () => {
  assert.deepEqual(Object.keys(en).sort(), Object.keys(zh).sort());
  for (const [key, text] of [...Object.entries(zh), ...Object.entries(en)]) assert.ok(text, key);
  assert.equal(zh["lock.passwordRequired"], "锁屏密码不能为空");
  assert.equal(en["lock.passwordRequired"], "the lock password cannot be empty");
  assert.equal(zh["login.title"], "登录");
  assert.equal(en["login.title"], "login");
});

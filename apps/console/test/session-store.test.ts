import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";
import type { TokenResponse } from "@meterline/contracts";

/** A Map-backed localStorage, installed before the store module reads it. */
class MemoryStorage {
  readonly items = new Map<string, string>();
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.items.set(key, value);
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
}
const storage = new MemoryStorage();
Object.assign(globalThis, { localStorage: storage });

const { store } = await import("../src/store/store.ts");
const { signIn, clearSession, replaceToken } = await import("../src/store/session.ts");
const { addLog } = await import("../src/store/logs.ts");
const { loadChunk, ChunkLoadError } = await import("../src/components/chunk.ts");

const answer = {
  access_token: "access-1",
  refresh_token: "refresh-1",
  tenant_id: "000000",
  user_id: "1",
  role_name: "administrator,admin",
  account: "admin",
} as TokenResponse;

beforeEach(() => clearSession());

test("login stores the token record, refresh token and roles, and clears the lock", () => {
  store.setState({ isLock: true, lockPassword: "x" });
  signIn(answer, 5000);
  const state = store.getState();
  assert.deepEqual(state.token, { content: "access-1", datetime: 5000 });
  assert.deepEqual(state.roles, ["administrator", "admin"]);
  assert.equal(state.isLock, false);
  assert.equal(state.lockPassword, "");
  const record = JSON.parse(storage.getItem("saber-token") ?? "{}");
  assert.deepEqual(record, { dataType: "string", content: "access-1", datetime: 5000, type: "local" });
  assert.equal(JSON.parse(storage.getItem("saber-refresh-token") ?? "{}").content, "refresh-1");
});

test("a refresh replaces both tokens and restarts the token age", () => {
  signIn(answer, 5000);
  replaceToken({ ...answer, access_token: "access-2", refresh_token: "refresh-2" }, 9000);
  assert.deepEqual(store.getState().token, { content: "access-2", datetime: 9000 });
  assert.equal(store.getState().refreshToken, "refresh-2");
});

test("logout clears token, menus, roles, tabs and lock, and removes the stored tokens", () => {
  signIn(answer, 5000);
  store.setState({
    isLock: true,
    lockPassword: "hash",
    menus: [],
    permission: { a: true },
    tabs: [...store.getState().tabs, { label: "x", value: "/x", params: {}, query: {}, meta: {} }],
  });
  clearSession();
  const state = store.getState();
  assert.equal(state.token, null);
  assert.equal(state.menus, null);
  assert.deepEqual(state.roles, []);
  assert.deepEqual(state.permission, {});
  assert.deepEqual(
    state.tabs.map((tab) => tab.value),
    ["/wel/index"],
  );
  assert.equal(state.isLock, false);
  assert.equal(storage.getItem("saber-token"), null);
  assert.equal(storage.getItem("saber-refresh-token"), null);
});

test("local logs are kept newest first and persisted", () => {
  store.setState({ logs: [] });
  addLog({ type: "error", url: "/a", message: "first", stack: "" });
  addLog({ type: "error", url: "/b", message: "second", stack: "" });
  assert.deepEqual(
    store.getState().logs.map((log) => log.message),
    ["second", "first"],
  );
  assert.match(store.getState().logs[0]?.time ?? "", /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
  assert.equal(JSON.parse(storage.getItem("saber-logs") ?? "{}").content.length, 2);
});

test("a failed page import is logged as a chunk error naming the requested file", async () => {
  store.setState({ logs: [] });
  const entry = {
    file: "pages/x/Page.tsx",
    load: () =>
      Promise.reject(new TypeError("Failed to fetch dynamically imported module: http://h/assets/Page-1.js")),
  };
  await assert.rejects(loadChunk(entry), (error: unknown) => {
    assert.ok(error instanceof ChunkLoadError);
    assert.equal(error.file, "http://h/assets/Page-1.js");
    return true;
  });
  const [log] = store.getState().logs;
  assert.equal(log?.type, "chunk");
  assert.equal(log?.url, "http://h/assets/Page-1.js");
  assert.equal(log?.info, "pages/x/Page.tsx");
});

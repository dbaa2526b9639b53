import assert from "node:assert/strict";
import type { AddressInfo } from "node:net";
import { after, before, describe, test } from "node:test";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../src/app.ts";
import { type Db, openDb } from "../src/db/client.ts";
import { provisionTenant } from "./fixtures.ts";
import { BASIC, startTestServer, type TestServer } from "./helpers.ts";
import { buildSite } from "./registry-fixtures.ts";

interface LiveEvent {
  event: string;
  data: { kind?: string; meterIds?: string[] | null };
}

/** A push stream read as the browser's EventSource reads it: events in order, one at a time. */
interface EventReader {
  /** The next event; fails the test when the stream ends first. */
  next(): Promise<LiveEvent>;
  /** The next event that is not `ready` and passes `wanted`, skipping others. */
  nextWhere(wanted: (event: LiveEvent) => boolean): Promise<LiveEvent>;
  close(): void;
}

async function listening(app: FastifyInstance): Promise<string> {
  if (!app.server.listening) await app.listen({ port: 0, host: "127.0.0.1" });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

async function askTicket(base: string, token: string): Promise<string> {
  const res = await fetch(`${base}/api/blade-pms/live/ticket`, {
    method: "POST",
    headers: { authorization: BASIC, "blade-auth": `bearer ${token}` },
  });
  assert.equal(res.status, 200);
  return ((await res.json()) as { data: { ticket: string } }).data.ticket;
}

function openStream(base: string, ticket: string) {
  const aborter = new AbortController();
  const answer = fetch(`${base}/api/blade-pms/live/stream?ticket=${encodeURIComponent(ticket)}`, {
    headers: { accept: "text/event-stream" },
    signal: aborter.signal,
  });
  return { answer, aborter };
}

async function readEvents(base: string, ticket: string): Promise<EventReader> {
  const { answer, aborter } = openStream(base, ticket);
  const res = await answer;
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type") ?? "", /text\/event-stream/);
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  const next = async (): Promise<LiveEvent> => {
    for (;;) {
      const end = buffer.indexOf("\n\n");
      if (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const lines = block.split("\n");
        const event = lines.find((l) => l.startsWith("event: "))?.slice(7);
        const data = lines.find((l) => l.startsWith("data: "))?.slice(6);
        // Comments (heartbeats) and the retry hint carry no event.
        if (event) return { event, data: JSON.parse(data ?? "{}") as LiveEvent["data"] };
        continue;
      }
      const chunk = await reader.read();
      if (chunk.done) throw new Error("the stream ended");
      buffer += chunk.value;
    }
  };
  const first = await next();
  assert.equal(first.event, "ready");
  return {
    next,
    async nextWhere(wanted) {
      for (;;) {
        const event = await next();
        if (wanted(event)) return event;
      }
    },
    close: () => aborter.abort(),
  };
}

const aboutMeter = (kind: string, meterId: string) => (event: LiveEvent) =>
  event.event === "change" && event.data.kind === kind && (event.data.meterIds ?? []).includes(meterId);

describe("the push stream of open console pages", () => {
  let server: TestServer;
  let base: string;
  let admin: string;
  before(async () => {
    server = await startTestServer();
    base = await listening(server.app);
    admin = (await server.login()).access_token;
  });
  after(() => server.close());

  test("a ticket opens one stream once; a used, unknown or missing ticket is refused", async () => {
    const ticket = await askTicket(base, admin);
    const stream = await readEvents(base, ticket);
    const again = await openStream(base, ticket).answer;
    assert.equal(again.status, 401);
    assert.equal(((await again.json()) as { msg: string }).msg, "ticket: 无效或已使用");
    assert.equal((await openStream(base, "not-a-ticket").answer).status, 401);
    const missing = await fetch(`${base}/api/blade-pms/live/stream`);
    assert.equal(missing.status, 400);
    assert.match(((await missing.json()) as { msg: string }).msg, /ticket/);
    // Only the ticket's hash is kept, and a redeemed one is gone.
    assert.equal(
      (await server.db.query("select 1 from live_ticket where ticket_hash = $1", [ticket])).length,
      0,
    );
    // Asking for a ticket takes the console's token like any call.
    const anonymous = await fetch(`${base}/api/blade-pms/live/ticket`, { method: "POST" });
    assert.equal(anonymous.status, 401);
    stream.close();
  });

  test("a tenant's command, its success and the supply it sets reach that tenant's streams only", async () => {
    const sunny = await provisionTenant(server, admin, "晴天公寓");
    const rainy = await provisionTenant(server, admin, "雨天公寓");
    const sunnySite = await buildSite(server, sunny.token);
    const rainySite = await buildSite(server, rainy.token, "R");
    const sunnyStream = await readEvents(base, await askTicket(base, sunny.token));
    const rainyStream = await readEvents(base, await askTicket(base, rainy.token));

    const cut = await server.call("POST", "/api/blade-pms/message/switch", sunny.token, {
      meterId: sunnySite.meter,
      switchType: 2,
    });
    assert.equal(cut.statusCode, 200, cut.body);
    await sunnyStream.nextWhere(aboutMeter("command", sunnySite.meter));
    // The gateway settles it: the command's progress and the meter's supply follow.
    await server.db.query("update pms_meter_command set state = 'success', result = 1 where meter_id = $1", [
      sunnySite.meter,
    ]);
    const settled = await sunnyStream.next();
    const supply = await sunnyStream.next();
    assert.deepEqual(
      [settled, supply].map((e) => e.data.kind).sort(),
      ["command", "supply"],
      "both announced by the same commit",
    );

    // The other tenant's stream heard nothing of it: the first change it gets is its own.
    const rainyCut = await server.call("POST", "/api/blade-pms/message/switch", rainy.token, {
      meterId: rainySite.meter,
      switchType: 2,
    });
    assert.equal(rainyCut.statusCode, 200, rainyCut.body);
    assert.deepEqual(await rainyStream.next(), {
      event: "change",
      data: { kind: "command", meterIds: [rainySite.meter] },
    });
    sunnyStream.close();
    rainyStream.close();
  });

  test("a balance change is announced for the account's meter", async () => {
    const site = await buildSite(server, admin, "B");
    const stream = await readEvents(base, await askTicket(base, admin));
    await server.db.query(
      `insert into pms_account (id, tenant_id, owner_id, energy_type, meter_id, control_status, balance)
       values (987654321, '000000', $1, 1, $2, 1, 1000)`,
      [site.owner, site.meter],
    );
    await stream.nextWhere(aboutMeter("balance", site.meter));
    await server.db.query("update pms_account set balance = 2000 where id = 987654321");
    await stream.nextWhere(aboutMeter("balance", site.meter));
    stream.close();
  });

  test("one person holds a bounded number of streams: a fifth ends the first", async () => {
    const tenant = await provisionTenant(server, admin, "多窗公寓");
    const streams: EventReader[] = [];
    for (let i = 0; i < 5; i++) streams.push(await readEvents(base, await askTicket(base, tenant.token)));
    await assert.rejects(streams[0]!.next(), /the stream ended/);
    assert.equal(server.app.liveHub.count(tenant.tenantId), 4);
    for (const stream of streams) stream.close();
  });
});

describe("the push stream across two server processes on one PostgreSQL", {
  skip: !process.env.TEST_DATABASE_URL,
}, () => {
  let server: TestServer;
  let secondDb: Db;
  let second: FastifyInstance;
  before(async () => {
    server = await startTestServer();
    // Another server on the same database: its own pool and its own listener.
    secondDb = await openDb({ databaseUrl: server.databaseUrl });
    second = await buildApp({
      db: secondDb,
      config: {
        jwtSecret: server.jwtSecret,
        dataKey: server.dataKey,
        captchaEnabled: false,
        timeZone: "Asia/Shanghai",
      },
    });
  });
  after(async () => {
    await second?.close();
    await secondDb?.close();
    await server?.close();
  });

  test("a ticket from B opens a stream on A, and a switch made through B arrives on it", async () => {
    const a = await listening(server.app);
    const b = await listening(second);
    const admin = (await server.login()).access_token;
    const site = await buildSite(server, admin);
    const stream = await readEvents(a, await askTicket(b, admin));
    const cut = await fetch(`${b}/api/blade-pms/message/switch`, {
      method: "POST",
      headers: { authorization: BASIC, "blade-auth": `bearer ${admin}`, "content-type": "application/json" },
      body: JSON.stringify({ meterId: site.meter, switchType: 2 }),
    });
    assert.equal(cut.status, 200);
    await stream.nextWhere(aboutMeter("command", site.meter));
    stream.close();
  });

  test("a server that lost its change listener tells its streams to read everything again once it listens", async () => {
    const a = await listening(server.app);
    const admin = (await server.login()).access_token;
    const stream = await readEvents(a, await askTicket(a, admin));
    const name = new URL(server.databaseUrl!).pathname.slice(1);
    await server.db.query(
      "select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and query = 'listen meterline_cache'",
      [name],
    );
    // Changes made while nobody listened are lost: the pages hear "resync" and read themselves again.
    assert.deepEqual(await stream.nextWhere((e) => e.event === "resync"), { event: "resync", data: {} });
    stream.close();
  });
});
